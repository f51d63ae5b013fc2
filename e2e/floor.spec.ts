import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../src/core/printing/virtual-printer/server.js';
import {
  startProvisionedStation,
  startSandboxProcess,
  type RunningStation,
  type SandboxProcess,
} from './station';

// Issue 15: the packing floor. Scan to verify, the Orders view, batch printing, multi-package
// labels and the end of day, by keyboard where a packer or shift lead would use it.

const fixtures = join(import.meta.dirname, 'fixtures');
const picture = readFileSync(join(import.meta.dirname, '../resources/icons/256x256.png'));

let sandbox: SandboxProcess;
let printer: VirtualPrinter;
let station: RunningStation | null = null;

test.beforeEach(async () => {
  sandbox = await startSandboxProcess();
  printer = await startVirtualPrinter({ port: 0 });
  station = await startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port },
    profile: { id: 'lumen-floor', name: 'Lumen floor', requireItemVerification: true },
  });
});
test.afterEach(async () => {
  await station?.stop();
  station = null;
  await printer.close();
  await sandbox.stop();
});

/** Opens the station, imports the floor orders from the Orders view (Alt+8). */
async function openWithOrders(page: Page): Promise<void> {
  // Product pictures come from an https host named in the order file.
  await page.route('https://img.example.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: picture }),
  );
  await page.goto(station!.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen floor');
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+8');
  await expect(page.getByLabel('Search orders')).toBeFocused();
  await page
    .getByLabel('Import orders file here')
    .setInputFiles(join(fixtures, 'floor-orders.csv'));
  await expect(page.getByTestId('import-report')).toContainText('7 imported');
  await expect(page.getByTestId('count-open')).toContainText('7');
}

test('scan to verify: wrong item and one too many are refused, no label until verified; a shift lead overrides', async ({
  page,
}, info) => {
  await openWithOrders(page);

  // Orders view → the order on Pack, by keyboard.
  await page.keyboard.type('FLR-101');
  await expect(page.getByTestId('order-row')).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('FLR-101');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await expect(scan).toBeFocused();
  await expect(page.getByTestId('verify-state')).toContainText('0 of 3 items scanned');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('verify').locator('img')).toHaveCount(2);

  // A wrong item: a red line naming it.
  await page.keyboard.type('CNDL-SEA-12');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-alert')).toHaveText(
    'Wrong item: CNDL-SEA-12 is not in this order. Take it out of the box.',
  );

  // Buy is refused while items are missing.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('failure-message')).toContainText(
    'FLR-101 is not verified: scan every item first (CNDL-AMB-8 0 of 2, WICK-TRIM 0 of 1)',
  );
  expect(await sandbox.ledger()).toHaveLength(0);

  // A quantity key out of range counts nothing and says so (not "wrong item").
  await page.keyboard.type('1000*0012345678905');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('failure-message')).toContainText(
    'A quantity key counts 1 to 999 items (1000* was typed); nothing was counted.',
  );
  await expect(page.getByTestId('verify-line-CNDL-AMB-8')).toContainText('0 / 2');

  // The quantity key: two candles in one scan (by their EAN-13, a UPC in the file).
  await page.keyboard.type('2*0012345678905');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-line-CNDL-AMB-8')).toContainText('2 / 2');
  await expect(page.getByTestId('verify-alert')).toHaveCount(0);
  // One too many.
  await page.keyboard.type('CNDL-AMB-8');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-alert')).toContainText('One too many: CNDL-AMB-8');
  await expect(page.getByTestId('verify-line-CNDL-AMB-8')).toHaveClass(/line-over/);
  await page.screenshot({ path: info.outputPath('verify-one-too-many.png') });

  await page.keyboard.type('4006381333931');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-state')).toContainText('3 of 3 items scanned');
  await expect(page.getByTestId('verify-state')).toContainText('every item is in the box');
  await page.screenshot({ path: info.outputPath('verify-complete.png') });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });

  // Another order: not verified, a shift lead overrides with a reason (Alt+V).
  await page.keyboard.press('Escape');
  await page.keyboard.type('FLR-103');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-state')).toContainText('0 of 1 item scanned');
  await page.keyboard.press('Alt+v');
  await expect(page.getByLabel('Shift lead name')).toBeFocused();
  await page.keyboard.type('Lee Park');
  await page.keyboard.press('Tab');
  await page.keyboard.type('candle shelf empty, customer agreed');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-state')).toContainText(
    'overridden by Lee Park: candle shelf empty, customer agreed',
  );
  await expect(scan).toBeFocused();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect.poll(async () => (await sandbox.ledger()).length).toBe(2);

  // The Orders view (still searching FLR-101) counts both as labelled once the search is cleared.
  await page.keyboard.press('Alt+8');
  await expect(page.getByLabel('Search orders')).toHaveValue('FLR-101');
  await expect(page.getByTestId('count-labelled')).toContainText('1');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('count-labelled')).toContainText('2');
  await expect(page.getByTestId('count-open')).toContainText('5');
});

test('Orders view import: every problem of the file is listed, by row', async ({ page }) => {
  await page.goto(station!.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen floor');
  await page.keyboard.press('Alt+8');
  const csv = [
    'order_number,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs',
    'BAD-1,1 Main St,Austin,78701,US,-1',
    'BAD-2,1 Main St,Austin,78701,US,9999',
    'BAD-3,1 Main St,Austin,78701,US,0',
    'BAD-4,1 Main St,Austin,78701,US,2.0 lb',
    'BAD-5,1 Main St,Austin,,US,2',
    'GOOD-1,1 Main St,Austin,78701,US,2',
  ].join('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'station-orders-')), 'mixed.csv');
  writeFileSync(file, `${csv}\n`);
  await page.getByLabel('Import orders file here').setInputFiles(file);
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('1 imported, 0 skipped, 5 problems');
  await expect(report.locator('li')).toHaveCount(5);
  await expect(report.locator('li').first()).toContainText('row 2 (order BAD-1)');
  await expect(report.locator('li').last()).toContainText('row 6 (order BAD-5)');
});

test('Orders view filters and a batch of open single-item orders with a weight: progress, pause, summary, end of day', async ({
  page,
}, info) => {
  await openWithOrders(page);
  const pager = page.getByTestId('orders-pager');
  await expect(pager).toContainText('1–7 of 7 orders');

  // Open single-item orders with a known weight (FLR-106 has none, FLR-101/107 are bigger).
  await page.getByTestId('count-open').press('Space');
  await page.getByRole('checkbox', { name: 'Single item' }).press('Space');
  await page.getByRole('checkbox', { name: 'Weight known' }).press('Space');
  await expect(pager).toContainText('1–4 of 4 orders');
  await expect(page.getByTestId('order-row').first()).toContainText('FLR-105');
  await page.screenshot({ path: info.outputPath('orders-view.png') });

  // The platform refuses the first label; the others take a while each (so the bar is seen).
  await sandbox.addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'status',
    status: 400,
    times: 1,
  });
  await sandbox.addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'delay',
    delayMs: 1500,
    times: 3,
  });
  // A batch buys labels: it asks first; Esc leaves it, nothing bought.
  const confirmBatch = page.getByRole('alertdialog', { name: 'Confirm the batch' });
  await page.keyboard.press('Alt+b');
  await expect(confirmBatch).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(confirmBatch).toHaveCount(0);
  await expect(page.getByTestId('batch')).toHaveCount(0);
  expect(await sandbox.ledger()).toHaveLength(0);
  await page.keyboard.press('Alt+b');
  await expect(confirmBatch).toContainText(/Buy and print labels for 4 orders \([^)]+\)\?/);
  await page.keyboard.press('Enter');
  const batch = page.getByTestId('batch');
  const bar = page.getByRole('progressbar', { name: 'Batch progress' });
  await expect(bar).toHaveAttribute('aria-valuemax', '4');
  await expect(bar).toHaveAttribute('aria-valuenow', '2', { timeout: 20_000 });
  await expect(batch).toContainText('Batch running');
  await page.screenshot({ path: info.outputPath('batch-in-progress.png') });

  // Pause stops after the label in hand; resume finishes.
  await batch.getByRole('button', { name: 'Pause' }).press('Enter');
  await expect(batch).toContainText('Batch paused', { timeout: 20_000 });
  const pausedAt = Number(await bar.getAttribute('aria-valuenow'));
  expect(pausedAt).toBeLessThan(4);
  // Another batch may be started while one is paused: the question says the paused one stops.
  await page.keyboard.press('Alt+b');
  await expect(confirmBatch).toContainText(
    /The paused batch \(\d+ waiting\) is stopped; its waiting orders stay open\./,
  );
  await page.keyboard.press('Escape');
  await expect(confirmBatch).toHaveCount(0);
  await batch.getByRole('button', { name: 'Resume' }).press('Enter');
  await expect(batch).toContainText('Batch done', { timeout: 30_000 });
  await expect(page.getByTestId('batch-counts')).toContainText('Bought 3');
  await expect(page.getByTestId('batch-counts')).toContainText('Failed 1');
  await expect(page.getByTestId('batch-failures')).toContainText('FLR-105');
  await expect(page.getByTestId('batch-failures')).toContainText('Injected fault');
  await page.screenshot({ path: info.outputPath('batch-done.png') });
  const ledger = (await sandbox.ledger()) as { batchId: string | null; amount: number }[];
  expect(ledger).toHaveLength(3);
  expect(new Set(ledger.map((l) => l.batchId)).size).toBe(1);
  expect(ledger[0]!.batchId).toMatch(/^b_/);
  await expect.poll(() => printer.labels.length, { timeout: 15_000 }).toBe(3);
  const cost = ledger.reduce((n, l) => n + l.amount, 0);
  await expect(page.getByTestId('batch-counts')).toContainText(`$${cost.toFixed(2)}`);

  // End of day (Alt+9): the three labels, exported as CSV (Alt+E).
  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('eod-total')).toContainText(`3 labels · $${cost.toFixed(2)}`);
  await page.screenshot({ path: info.outputPath('end-of-day.png') });
  const download = page.waitForEvent('download');
  await page.keyboard.press('Alt+e');
  const file = await (await download).path();
  const csv = readFileSync(file, 'utf8').trimEnd().split('\r\n');
  expect(csv[0]).toBe(
    'day,carrier,brand,tenant_id,labels,cost_usd,packages,return_labels,return_cost_usd,voided_labels,voided_cost_usd',
  );
  expect(csv.slice(1).reduce((n, l) => n + Number(l.split(',')[4]), 0)).toBe(3);
  // Close out with the carrier (Alt+M): asked first; Esc keeps the day open and sends nothing.
  await page.keyboard.press('Alt+m');
  const question = page.getByRole('alertdialog', { name: 'Close out with the carriers?' });
  await expect(question).toContainText('3 labels go on a manifest');
  await page.keyboard.press('Alt+m');
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(page.getByTestId('eod-manifest')).toHaveCount(0);
  // Asked again, Enter closes out: one manifest for the day's USPS labels.
  await page.keyboard.press('Alt+m');
  await expect(question).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('eod-manifest')).toContainText('1 of 1 manifest made.');
  await expect(page.getByTestId('eod-manifest')).toContainText(
    /USPS · Lumen Candle Works · 3 labels: Manifest mf_/,
  );
  // Alt+M again: every label is on a manifest, so it says so and asks nothing (a packer's
  // Enter used to fetch a shift lead to approve a close-out that sent nothing).
  await page.keyboard.press('Alt+m');
  await expect(page.getByTestId('eod-line')).toHaveText(
    'Already closed out: all 3 outbound labels of these days are on a manifest. Nothing to send; labels bought after this go on the next close-out.',
  );
  await expect(question).toHaveCount(0);
  // No receipt printer in this profile: said in words.
  await page.keyboard.press('Alt+p');
  await expect(page.getByTestId('eod-line')).toContainText('no receipt printer');
});

test('a batch whose printer runs out of paper pauses, says why, and goes on by itself when paper is back', async ({
  page,
}, info) => {
  await openWithOrders(page);
  await page.getByTestId('count-open').press('Space');
  await page.getByRole('checkbox', { name: 'Single item' }).press('Space');
  await page.getByRole('checkbox', { name: 'Weight known' }).press('Space');
  await expect(page.getByTestId('orders-pager')).toContainText('1–4 of 4 orders');
  printer.setFault('paper-out');
  await page.keyboard.press('Alt+b');
  await page.keyboard.press('Enter');
  const batch = page.getByTestId('batch');
  await expect(batch).toContainText('Batch paused', { timeout: 20_000 });
  await expect(page.getByTestId('batch-held')).toContainText(
    /^Paused by the station: .* is out of paper, so no more labels are bought for it\. The batch goes on by itself once the printer prints again/,
  );
  await page.screenshot({ path: info.outputPath('batch-held-paper-out.png') });
  const bought = (await sandbox.ledger()).length;
  expect(bought).toBeLessThan(4);
  expect(printer.labels).toHaveLength(0);

  printer.setFault(null);
  await expect(batch).toContainText('Batch done', { timeout: 30_000 });
  await expect(page.getByTestId('batch-held')).toHaveCount(0);
  await expect(page.getByTestId('batch-counts')).toContainText('Bought 4');
  await expect.poll(() => printer.labels.length, { timeout: 15_000 }).toBe(4);
  expect(await sandbox.ledger()).toHaveLength(4);
});

test('with no order in the list the batch panel says there is nothing to print, and its button is off with the reason', async ({
  page,
}, info) => {
  await openWithOrders(page);
  // Labelled orders only: none yet (as after a batch has labelled every open order).
  await page.getByTestId('count-labelled').press('Space');
  await expect(page.getByTestId('orders-pager')).toContainText('No order');
  await expect(page.getByTestId('batch-start-said')).toHaveText(
    'Nothing to print: no order is in this list. Change the filters or the search, or import orders.',
  );
  const button = page.getByRole('button', { name: /as a batch/ });
  await expect(button).toHaveText('Nothing to print as a batch Alt+B');
  await expect(button).toBeDisabled();
  await expect(button).toHaveAttribute('title', 'No order is in this list: nothing to print.');
  await expect(page.locator('.orders')).not.toContainText('all 0 matching');
  // Alt+B says why too, and asks nothing.
  await page.keyboard.press('Alt+b');
  await expect(page.getByRole('alertdialog', { name: 'Confirm the batch' })).toHaveCount(0);
  await expect(page.getByText('No order is in this list: nothing to print.').first()).toBeVisible();
  await page.screenshot({ path: info.outputPath('batch-nothing-to-print.png') });
  expect(await sandbox.ledger()).toHaveLength(0);
});

test('a batch order without a weight is failed in Orders, with its reason, under the Failed filter', async ({
  page,
}, info) => {
  await openWithOrders(page);
  const pager = page.getByTestId('orders-pager');
  // FLR-106 has no weight in the file: the batch fails it before any shipment exists.
  await page.getByLabel('Search orders').fill('FLR-106');
  await expect(pager).toContainText('1 order');
  await page.keyboard.press('Alt+b');
  await expect(page.getByRole('alertdialog', { name: 'Confirm the batch' })).toContainText(
    'Buy and print labels for 1 order (FLR-106)?',
  );
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('batch')).toContainText('Batch done', { timeout: 30_000 });
  const why = 'Package 1 of 1 has no weight; weigh it or type its weight.';
  await expect(page.getByTestId('batch-failures')).toContainText(`FLR-106: ${why}`);

  // Every order, then the Failed chip: FLR-106 is there, failed, with the batch's reason.
  await page.getByLabel('Search orders').fill('');
  await expect(pager).toContainText('1–7 of 7 orders');
  await expect(page.getByTestId('count-failed')).toContainText('1');
  await expect(page.getByTestId('count-open')).toContainText('6');
  await page.getByTestId('count-failed').click();
  await expect(pager).toContainText('1 order');
  const row = page.getByTestId('order-row');
  await expect(row).toContainText('FLR-106');
  await expect(row.locator('.status')).toHaveText('failed');
  await expect(row.getByTestId('order-reason')).toHaveText(why);
  await expect(row.getByTestId('order-reason')).toHaveAttribute('title', why);
  expect(await sandbox.ledger()).toHaveLength(0);
  await page.screenshot({ path: info.outputPath('orders-failed-batch-order.png') });

  // Needs attention lists it too (the header counts it): one entry for the batch, the order and
  // its reason, and where it is put right; nothing to decide there.
  await expect(page.getByTestId('attention-count')).toContainText('1');
  await page.keyboard.press('Alt+2');
  const item = page.getByTestId('attention-item');
  await expect(item).toContainText('1 order not bought');
  await expect(item).toContainText(`FLR-106: ${why}`);
  await expect(item).toContainText('Put it right and buy it at Pack');
  await expect(item.getByRole('button')).toHaveCount(0);
});

test('a two-package order: one label per package, printed in order; reprint all of them', async ({
  page,
}) => {
  await openWithOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('FLR-107');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-state')).toContainText('0 of 3 items scanned');
  await page.keyboard.type('GIFT-TRIO');
  await page.keyboard.press('Enter');
  await page.keyboard.type('2*CNDL-PINE-12');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('verify-state')).toContainText('every item is in the box');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  const numbers = page.getByTestId('package-tracking').locator('.tracking');
  await expect(numbers).toHaveCount(2, { timeout: 20_000 });
  const [first, second] = (await numbers.allTextContents()).map((t) => t.trim());
  expect(first).not.toBe(second);
  await expect.poll(() => printer.labels.length, { timeout: 15_000 }).toBe(2);
  expect(printer.labels[0]!.zpl).toContain(first!);
  expect(printer.labels[1]!.zpl).toContain(second!);

  await page.keyboard.press('Alt+r');
  await expect(page.getByLabel('Reprint reason')).toBeFocused();
  await page.keyboard.type('both smudged');
  await page.keyboard.press('Enter');
  await expect.poll(() => printer.labels.length, { timeout: 15_000 }).toBe(4);
  expect(printer.labels[2]!.zpl).toContain(first!);
  expect(printer.labels[3]!.zpl).toContain(second!);
});
