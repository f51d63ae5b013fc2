import { expect, test, type Locator, type Page } from '@playwright/test';
import { provisionedPerTest } from './station';

/**
 * A printer named at length, as site IT name them ("ZD421 right … at dock four"): the header
 * still shows the Platform status whole, the printer's state ("ready", "out of paper") whole,
 * and both counters; the printer's name is what gives way ("…", whole in its tooltip).
 */
const LONG = 'ZD421 right with a very long printer name at dock four, packing line B';

const lab = provisionedPerTest({ id: 'lumen-long-printer', name: 'Lumen dock' });

/** Inside the window and not cut by the header's status line (which hides what overflows it). */
async function expectWhole(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const line = (await page.locator('.header .indicators').boundingBox())!;
  const view = page.viewportSize()!;
  const name = (await locator.textContent())!.trim();
  expect(box.x, `"${name}" starts inside the status line`).toBeGreaterThanOrEqual(line.x - 0.5);
  expect(box.x + box.width, `"${name}" ends inside the status line`).toBeLessThanOrEqual(
    line.x + line.width + 0.5,
  );
  expect(box.x + box.width, `"${name}" ends inside the window`).toBeLessThanOrEqual(view.width);
}

for (const { width, height, large } of [
  { width: 1366, height: 768, large: false },
  { width: 1366, height: 768, large: true },
  { width: 1280, height: 720, large: true },
]) {
  test(`at ${width}×${height}${large ? ' in large text' : ''}, a long printer name gives way; the Platform status and the printer's state stay whole`, async ({
    page,
  }, info) => {
    const station = await lab.lumen(LONG);
    await page.setViewportSize({ width, height });
    await page.goto(station.url);
    await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
    if (large) {
      await page.keyboard.press('Alt+l');
      await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
    }
    const connectivity = page.getByTestId('connectivity');
    const status = page.getByTestId('printer-status');
    await expect(connectivity).toContainText('Platform: online', { timeout: 20_000 });
    await expect(status).toContainText('ready', { timeout: 20_000 });
    // The whole name is one hover away.
    await expect(status).toHaveAttribute('title', new RegExp(LONG));

    // Until 2026-11-29 the status line ran off its left edge: "ı: online", the dot and the word
    // "Platform" cut off, while the printer's name was whole.
    await expectWhole(page, connectivity);
    await expectWhole(page, status.getByTestId('printer-state'));
    await expectWhole(page, page.getByTestId('queue-count'));
    await expectWhole(page, page.getByTestId('attention-count'));
    await page.screenshot({ path: info.outputPath(`header-${width}${large ? '-large' : ''}.png`) });

    // Out of paper: said whole too.
    lab.printer().setFault('paper-out');
    await expect(status.getByTestId('printer-state')).toHaveText(': out of paper', {
      timeout: 20_000,
    });
    await expectWhole(page, connectivity);
    await expectWhole(page, status.getByTestId('printer-state'));
    await page.screenshot({
      path: info.outputPath(`header-${width}${large ? '-large' : ''}-paper-out.png`),
    });

    // The station's host stops under the open page: the longest status of all, said whole.
    await station.stop();
    await expect(connectivity).toContainText('Station: station host lost, reconnecting…', {
      timeout: 20_000,
    });
    await expectWhole(page, connectivity);
    expect(
      await connectivity.evaluate((el) => {
        const text = el.querySelector('.label-text')!;
        return text.scrollWidth <= text.clientWidth + 1;
      }),
      'the status is whole, not ending in "…"',
    ).toBe(true);
    await page.screenshot({
      path: info.outputPath(`header-${width}${large ? '-large' : ''}-host-lost.png`),
    });
  });
}
