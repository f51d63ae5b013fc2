import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOrders, printedLabels, stationPerTest } from './station';

// The ERP's corrected order file arrives while the order is rated on Pack: Pack shows the order
// as the file now says and rates it again, saying what changed, so Ctrl+Enter buys the label for
// the right address (the old rates would be refused at the buy).

const station = stationPerTest();
const samples = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../resources/orders/sample-orders.csv',
);

test('an order corrected in an order file while it is rated on Pack is shown and rated as it is now', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await scan.fill('LUM-10421');
  await scan.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const order = page.getByTestId('order-panel');
  await expect(order).toContainText('418 Willow Lane');

  // The corrected street, in a file of that one order, imported at this station (Settings).
  const [header, ...rows] = readFileSync(samples, 'utf8').trim().split('\n');
  const row = rows.find((r) => r.startsWith('LUM-10421,'))!;
  const file = join(station().dataDir, 'corrections.csv');
  writeFileSync(file, `${header}\n${row.replace('418 Willow Lane', '77 Harbor Rd')}\n`);
  await importOrders(page, file);
  await page.keyboard.press('Alt+1');

  await expect(order).toContainText('77 Harbor Rd', { timeout: 20_000 });
  await expect(order).not.toContainText('418 Willow Lane');
  await expect(
    page.getByText(
      'Order LUM-10421 was imported again while it was on screen (its ship-to is now Maya Okafor, 77 Harbor Rd, Evanston, IL, 60201, US): it is shown as it is now and rated again.',
      { exact: false },
    ),
  ).toBeVisible();
  await expect(page.getByTestId('rate-reason')).toBeVisible();
  await page.screenshot({ path: info.outputPath('pack-reimported.png') });

  // Bought at once, for the new address.
  await page.getByRole('textbox', { name: 'Scan' }).focus();
  await page.keyboard.press('Control+Enter');
  const dir = join(station().dataDir, 'virtual-printer');
  await expect.poll(() => printedLabels(dir).length, { timeout: 20_000 }).toBe(1);
  expect(readFileSync(join(dir, printedLabels(dir)[0]!), 'utf8')).toMatch(/77 Harbor Rd/i);
});

// A packer's evening (2026-11-30): the packer weighed the box at 2.4 lb (the file says 1.8), then
// a corrected file came in with a new street only. The redraw put the file's 1.8 back, so the
// label would have been bought at the wrong weight unless the packer noticed; now the weight on
// screen stays when the file gives the same packages as before.
test('an order corrected in an order file with its packages unchanged keeps the weight typed on Pack', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await scan.fill('LUM-10421');
  await scan.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const weight = page.getByLabel('Package 1 weight in pounds');
  await expect(weight).toHaveValue('1.8');
  await weight.fill('2.4');
  await weight.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });

  const [header, ...rows] = readFileSync(samples, 'utf8').trim().split('\n');
  const row = rows.find((r) => r.startsWith('LUM-10421,'))!;
  const file = join(station().dataDir, 'corrections.csv');
  writeFileSync(file, `${header}\n${row.replace('418 Willow Lane', '77 Harbor Rd')}\n`);
  await importOrders(page, file);
  await page.keyboard.press('Alt+1');

  const order = page.getByTestId('order-panel');
  await expect(order).toContainText('77 Harbor Rd', { timeout: 20_000 });
  await expect(weight).toHaveValue('2.4');
  await expect(
    page.getByText(
      'it is shown as it is now and rated again. The weights and boxes on screen stay: the file gives the same packages as before.',
      { exact: false },
    ),
  ).toBeVisible();
  await expect(page.getByTestId('rate-reason')).toBeVisible();
  await page.screenshot({ path: info.outputPath('pack-reimported-weight-kept.png') });

  await scan.focus();
  await page.keyboard.press('Control+Enter');
  const dir = join(station().dataDir, 'virtual-printer');
  await expect.poll(() => printedLabels(dir).length, { timeout: 20_000 }).toBe(1);
  const zpl = readFileSync(join(dir, printedLabels(dir)[0]!), 'utf8');
  expect(zpl).toMatch(/77 Harbor Rd/i);
  // The label says the billable weight, whole pounds up: 3 for 2.4 lb (the file's 1.8 gives 2).
  expect(zpl).toMatch(/WT 3 LB/);
});
