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
