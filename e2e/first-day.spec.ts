import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { printedLabels, stationPerTest } from './station';

/**
 * Issue 13, the packer's and the shift lead's first day, in Chromium on the demo station:
 * the Pack and History screens at 1366×768 and 1920×1080, multi-package labels, zoom, large
 * text, keyboard-only History and reprint counts.
 */
const station = stationPerTest();

const sizes = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

/** The element is whole inside the window: nothing below the edge, nothing cut sideways. */
async function expectOnScreen(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const view = page.viewportSize()!;
  expect(box, 'element is rendered').not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(view.height);
  expect(box!.x + box!.width).toBeLessThanOrEqual(view.width);
}

/** Text that fits its box (no ellipsis, no clipping). */
async function expectNotClipped(locator: Locator) {
  const clipped = await locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped, `"${await locator.textContent()}" is cut off`).toBe(false);
}

async function buy(page: Page, order: string) {
  await page.keyboard.type(order);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toHaveAttribute('data-phase', 'printed', {
    timeout: 30_000,
  });
}

for (const size of sizes) {
  test(`Pack at ${size.width}×${size.height}: a two-package order shows both tracking numbers and labels, fits the window, zooms, and reprints one package`, async ({
    page,
  }, info) => {
    await page.setViewportSize(size);
    await page.goto(station().url);
    await expect(page.getByTestId('connectivity')).toContainText('online');
    // The label renderer is warmed while the station opens, before any label exists.
    await expect(page.locator('html')).toHaveAttribute('data-label-renderer', 'ready', {
      timeout: 30_000,
    });
    await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();

    await buy(page, 'LUM-10424');
    const result = page.getByTestId('result');
    await expect(result).toContainText('LABEL PRINTED');
    const numbers = page.getByTestId('package-tracking');
    await expect(numbers).toHaveCount(2);
    const [first, second] = [
      (await numbers.nth(0).locator('.tracking').textContent())!.trim(),
      (await numbers.nth(1).locator('.tracking').textContent())!.trim(),
    ];
    expect(first).not.toBe(second);
    // The thumbnail shows the first package's label, whole; the zoom below shows both.
    const thumbs = result.getByTestId('label-preview').locator('img');
    await expect(thumbs).toHaveCount(2);
    await expect(thumbs.first()).toBeVisible();
    await expect(thumbs.nth(1)).toBeHidden();

    // Nothing the packer needs is below the edge of the window, and the page itself never scrolls.
    const reprint = page.getByRole('button', { name: /^Reprint / });
    await expectOnScreen(page, result);
    await expectOnScreen(page, reprint);
    await expectOnScreen(page, page.locator('.shortcuts'));
    expect(
      await page
        .locator('html')
        .evaluate((el) => el.scrollHeight <= el.ownerDocument.defaultView!.innerHeight),
    ).toBe(true);
    // At 1920×1080 the panels use the height: the result panel ends near the bottom.
    const box = (await result.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(size.height * 0.85);
    await page.screenshot({ path: info.outputPath(`pack-two-packages-${size.width}.png`) });

    // The preview opens large, and Esc closes it without clearing the order.
    await page.keyboard.press('Alt+z');
    const zoom = page.getByRole('dialog', { name: 'Label preview, large' });
    await expect(zoom.locator('img')).toHaveCount(2);
    const zoomBox = (await zoom.locator('img').first().boundingBox())!;
    expect(zoomBox.height).toBeGreaterThan(size.height * 0.7);
    await page.screenshot({ path: info.outputPath(`pack-zoom-${size.width}.png`) });
    await page.keyboard.press('Escape');
    await expect(zoom).toHaveCount(0);
    await expect(page.getByTestId('order-number')).toHaveText('LUM-10424');
    await result.getByTestId('label-preview').click();
    await expect(zoom).toBeVisible();
    await page.keyboard.press('Escape');

    // Reprint only package 2 (the torn one): one label out, carrying the second number.
    const dir = join(station().dataDir, 'virtual-printer');
    await expect.poll(() => printedLabels(dir).length, { timeout: 15_000 }).toBe(2);
    await page.keyboard.press('Alt+r');
    await page.getByLabel('Packages to reprint').selectOption({ label: `Package 2: ${second}` });
    await page.getByLabel('Reprint reason').fill('torn at the corner');
    await page.getByLabel('Reprint reason').press('Enter');
    await expect.poll(() => printedLabels(dir).length, { timeout: 15_000 }).toBe(3);
    const newest = printedLabels(dir).sort().at(-1)!;
    const zpl = readFileSync(join(dir, newest), 'utf8');
    expect(zpl).toContain(second);
    expect(zpl).not.toContain(first);

    // Scanning it again offers the reprint; it does not ask for weights that are there.
    await page.getByRole('textbox', { name: 'Scan' }).focus();
    await page.keyboard.type('LUM-10424');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rates')).toContainText('Already labelled');
    await expect(page.getByTestId('rates')).not.toContainText('Weigh each package');
  });
}

test('large-text mode: Alt+L makes the station readable from a metre away, and the result still fits 1920×1080', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  const size = () =>
    page
      .locator('html')
      .evaluate((el) => parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).fontSize));
  const normal = await size();
  await page.keyboard.press('Alt+l');
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  expect(await size()).toBeGreaterThanOrEqual(normal * 1.25);
  await buy(page, 'LUM-10421');
  await expectOnScreen(page, page.getByTestId('result'));
  await expectOnScreen(page, page.getByRole('button', { name: /^Reprint / }));
  await page.screenshot({ path: info.outputPath('pack-large-text-1920.png') });
  // At 1366×768 the large text still keeps the result and its Reprint button in view.
  await page.setViewportSize({ width: 1366, height: 768 });
  await expectOnScreen(page, page.getByRole('button', { name: /^Reprint / }));
  // The header too: the printer's state and both counters whole, and enough of the profile's
  // name to tell the station (a dozen characters), not its first two letters.
  for (const id of ['printer-status', 'queue-count', 'attention-count']) {
    await expectOnScreen(page, page.getByTestId(id));
    await expectNotClipped(page.getByTestId(id));
  }
  expect((await page.getByTestId('profile-name').boundingBox())!.width).toBeGreaterThan(150);
  await page.screenshot({ path: info.outputPath('pack-large-text-1366.png') });
  // A stray scan after the purchase is said beside the label, which stays with its Reprint.
  await page.keyboard.type('GARBAGE-123');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Nothing matches "GARBAGE-123"' }),
  ).toBeVisible();
  await expect(page.getByTestId('result')).toHaveAttribute('data-phase', 'printed');
  await expect(page.getByRole('button', { name: /^Reprint / })).toBeVisible();
  // Kept for the next start of this station.
  await page.reload();
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Alt+l');
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'false');
  expect(await size()).toBe(normal);
});

test('large text at 1366×768: each rate is one line, and four whole rates are in view with a choice of the packer', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+l');
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const table = page.getByRole('listbox', { name: 'Rates' });
  const rows = table.getByRole('option');
  const wholeInView = async () => {
    const box = (await table.boundingBox())!;
    let whole = 0;
    for (const row of await rows.all()) {
      const r = (await row.boundingBox())!;
      if (r.y >= box.y - 0.5 && r.y + r.height <= box.y + box.height + 0.5) whole++;
    }
    return whole;
  };
  // The packer picks another rate: the choice line appears and the Buy button names it.
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('rate-choice')).toContainText('Your choice');
  // Said to a screen reader too (the keyboard is in Scan, not in the list).
  await expect(page.getByRole('status').filter({ hasText: 'Your choice' })).toHaveCount(1);
  expect(await rows.count()).toBeGreaterThanOrEqual(5);
  const heights = await Promise.all(
    (await rows.all()).map(async (r) => (await r.boundingBox())!.height),
  );
  // One line each: no row taller than the first by a wrapped line.
  for (const h of heights) expect(h).toBeLessThan(heights[0]! * 1.3);
  expect(await wholeInView()).toBeGreaterThanOrEqual(4);
  // The reason keeps its lines above the table.
  const reason = (await page.getByTestId('rate-reason').boundingBox())!;
  const choice = (await page.getByTestId('rate-choice').boundingBox())!;
  expect(reason.y + reason.height).toBeLessThanOrEqual(choice.y + 0.5);
  await page.screenshot({ path: info.outputPath('pack-large-text-rates-1366.png') });
});

for (const width of [1366, 1440, 1920]) {
  test(`History at ${width} px: no clipped columns, keyboard only, and the Reprints count follows a reprint`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: width === 1920 ? 1080 : 768 });
    await page.goto(station().url);
    await expect(page.getByTestId('connectivity')).toContainText('online');
    for (const order of ['LUM-10421', 'LUM-10422', 'LUM-10423']) await buy(page, order);

    await page.keyboard.press('Alt+4');
    const rows = page.getByTestId('history-row');
    await expect(rows).toHaveCount(3);
    await expect(page.getByTestId('history-pager')).toContainText('1–3 of 3 labels');
    // Every column is there and whole: order numbers, brand and the Reprints count.
    const header = page.getByTestId('history-table').locator('thead th');
    await expect(header).toHaveText([
      'Created',
      'Order',
      'Tracking',
      'Carrier',
      'Service',
      'Cost',
      'Brand',
      'Reprints',
    ]);
    for (const th of await header.all()) await expectNotClipped(th);
    for (const row of await rows.all())
      for (const col of [0, 1, 2, 3, 5, 6, 7]) await expectNotClipped(row.locator('td').nth(col));
    await expectOnScreen(page, page.getByTestId('history-table'));
    // The preview pane is never an empty box next to a cramped table.
    await expect(
      page.getByTestId('label-detail').getByTestId('label-preview').locator('img'),
    ).toHaveCount(1);
    await page.screenshot({ path: info.outputPath(`history-${width}.png`) });

    // Keyboard only: ↓ from the search box into the rows, ↓ again, R to reprint, Enter.
    const search = page.getByRole('textbox', { name: 'Search labels' });
    await expect(search).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(1)).toBeFocused();
    const tracking = (await rows.nth(1).locator('td').nth(2).textContent())!.trim();
    await expect(page.getByTestId('label-detail').locator('h2')).toHaveText(tracking);
    await page.keyboard.press('r');
    await expect(page.getByLabel('Reprint reason')).toBeFocused();
    await page.keyboard.type('label smudged');
    await page.keyboard.press('Enter');
    // The row's count changes at once, without searching again.
    await expect(rows.nth(1).getByTestId('reprint-count')).toHaveText('1');
    await expect(rows.nth(0).getByTestId('reprint-count')).toHaveText('0');
    await expect(page.getByTestId('reprint-audit')).toContainText('label smudged');
    await expect(rows.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(rows.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(search).toBeFocused();
    // Typed but not searched (no Enter): ↓ searches it first and selects the first match, never
    // the label selected before (the one just reprinted, row 2).
    const order = (await rows.nth(0).locator('td').nth(1).textContent())!.trim();
    await search.fill(order);
    await page.keyboard.press('ArrowDown');
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toBeFocused();
    await expect(rows.nth(0)).toContainText(order);
    await expect(page.getByTestId('label-detail')).toContainText(order);
  });
}
