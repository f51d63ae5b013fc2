import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importOrders, provisionedPerTest } from './station';

/**
 * Pack in a short window under the EXPIRED banner: large text at 1366×768, and browser zoom
 * 150 % (a 1366×768 screen at 150 % is a 911×512 CSS window; 1920×1080 at 150 % is 1280×720).
 * Until 2026-11-29 the key hints and the weight row were cut in large text, and at 150 % the
 * header, banner and tabs took half the height and the rates fell out of view.
 */
const lab = provisionedPerTest({ id: 'lumen-short', name: 'Lumen short' });

/** The whole element is inside the window (nothing of it cut at the bottom or right). */
async function whole(page: Page, what: Locator, name: string): Promise<void> {
  const size = page.viewportSize()!;
  const box = await what.boundingBox();
  expect(box, `${name} is on screen`).not.toBeNull();
  expect(box!.y + box!.height, `${name} ends inside the window`).toBeLessThanOrEqual(
    size.height + 0.5,
  );
  expect(box!.x + box!.width, `${name} ends inside the window`).toBeLessThanOrEqual(
    size.width + 0.5,
  );
}

async function everythingInView(page: Page, bought: boolean): Promise<void> {
  // The page and the view never scroll: what is not in view is not reachable by a glance.
  expect(
    await page.locator('main.content').evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
    'the view does not scroll',
  ).toBe(true);
  await whole(page, page.getByTestId('expired-banner'), 'the banner');
  await whole(page, page.getByRole('button', { name: /^Site/ }), 'the last tab');
  await whole(page, page.getByRole('textbox', { name: 'Scan' }), 'Scan');
  await whole(page, page.getByRole('textbox', { name: /weight/i }).first(), 'the weight');
  await whole(page, page.getByRole('group', { name: 'Package 1 box' }), 'the box buttons');
  await whole(page, page.locator('.pack .shortcuts'), 'the key hints');
  await whole(page, page.getByTestId('result'), 'the result');
  if (bought) {
    await whole(page, page.getByTestId('tracking-number'), 'the tracking number');
    await whole(page, page.getByRole('button', { name: /^Reprint / }), 'Reprint');
  } else {
    for (const rate of await page.getByRole('option').all()) await whole(page, rate, 'a rate');
    expect(
      await page
        .getByRole('listbox', { name: 'Rates' })
        .evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
      'every rate is in view',
    ).toBe(true);
    await whole(page, page.getByRole('button', { name: /Buy .*& print/ }), 'Buy & print');
  }
}

for (const { name, width, height, large } of [
  { name: 'large text at 1366×768', width: 1366, height: 768, large: true },
  { name: '1366×768 at 150 % zoom', width: 911, height: 512, large: false },
  { name: '1920×1080 at 150 % zoom', width: 1280, height: 720, large: false },
]) {
  test(`Pack under the EXPIRED banner, ${name}: scan, weight, rates, result and key hints all in view`, async ({
    page,
  }, info) => {
    const sandbox = lab.sandbox();
    const res = await fetch(`${sandbox.url}/sandbox/connections/conn_lumen_ups/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ authorizationStatus: 'EXPIRED' }),
    });
    expect(res.status).toBe(200);
    const station = await lab.lumen();
    await page.setViewportSize({ width, height });
    await page.goto(station.url);
    await expect(page.getByTestId('profile-name')).toHaveText('Lumen short');
    await importOrders(page);
    await page.keyboard.press('Alt+1');
    if (large) await page.keyboard.press('Alt+L');
    await expect(page.getByTestId('expired-banner')).toContainText('Lumen UPS', {
      timeout: 20_000,
    });
    await page.keyboard.type('LUM-10422');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rate-reason')).toContainText('of 3 rates', { timeout: 20_000 });
    await expect(page.getByRole('option')).toHaveCount(3);
    await page.screenshot({ path: info.outputPath('short-rated.png') });
    await everythingInView(page, false);

    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
    await page.screenshot({ path: info.outputPath('short-bought.png') });
    await everythingInView(page, true);
  });
}

test('a refused label in large text at 1366×768 under the EXPIRED banner: all three rates stay whole above the refusal, and the key hints', async ({
  page,
}, info) => {
  const sandbox = lab.sandbox();
  const res = await fetch(`${sandbox.url}/sandbox/connections/conn_lumen_ups/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationStatus: 'EXPIRED' }),
  });
  expect(res.status).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'short-refused-'));
  const file = join(dir, 'noname.csv');
  writeFileSync(
    file,
    'order_number,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs\nNN-9,5 Somewhere Rd,Springfield,IL,62701,US,2\n',
  );
  try {
    const station = await lab.lumen();
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(station.url);
    await expect(page.getByTestId('profile-name')).toHaveText('Lumen short');
    await importOrders(page, file);
    await page.keyboard.press('Alt+1');
    await page.keyboard.press('Alt+L');
    await expect(page.getByTestId('expired-banner')).toContainText('Lumen UPS', {
      timeout: 20_000,
    });
    await page.keyboard.type('NN-9');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rate-reason')).toContainText('of 3 rates', { timeout: 20_000 });
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('result')).toContainText('FAILED', { timeout: 20_000 });
    await page.screenshot({ path: info.outputPath('short-refused-large.png') });
    // Until 2026-11-29 the refusal took the height and one rate of three was left in view.
    await expect(page.getByRole('option')).toHaveCount(3);
    for (const rate of await page.getByRole('option').all()) await whole(page, rate, 'a rate');
    expect(
      await page
        .getByRole('listbox', { name: 'Rates' })
        .evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
      'every rate is in view',
    ).toBe(true);
    await whole(page, page.getByRole('button', { name: /Buy .*& print/ }), 'Buy & print');
    await whole(page, page.locator('.pack .shortcuts'), 'the key hints');
    await expect(page.getByTestId('result').getByText('FAILED')).toBeInViewport();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
