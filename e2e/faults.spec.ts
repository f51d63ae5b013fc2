import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
  importOrders,
  scanAndBuy,
} from './station';

// Issue #10: what the packer sees while the platform is partly down or slow.

let sandbox: SandboxProcess;
let printer: VirtualPrinter;
let station: RunningStation | null = null;

test.beforeEach(async () => {
  sandbox = await startSandboxProcess();
  printer = await startVirtualPrinter({ port: 0 });
});
test.afterEach(async () => {
  await station?.stop();
  station = null;
  await printer.close();
  await sandbox.stop();
});

/** A station provisioned with one Lumen profile on this test's sandbox and printer. */
const lumenStation = () =>
  startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port },
    profile: { id: 'lumen-faults', name: 'Lumen faults' },
  });

async function importSamples(page: Page) {
  // The printed address is traded for a cookie first (a redirect): wait for the station itself.
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen faults');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
}

/** A Lumen station on this test's sandbox, online, with `order` scanned and rated on Pack. */
async function ratedOnPack(page: Page, order: string): Promise<RunningStation> {
  const running = await lumenStation();
  station = running;
  await page.goto(running.url);
  await importSamples(page);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.type(order);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
  return running;
}

test('a failing tracker list shows "tracking delayed" and packing goes on', async ({
  page,
}, info) => {
  await sandbox.addFault({ method: 'GET', path: '/api/v1/trackers', kind: 'status', status: 500 });
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('tracking-delayed')).toContainText('Tracking: delayed', {
    timeout: 15_000,
  });
  await importSamples(page);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.screenshot({ path: info.outputPath('tracking-delayed-packing.png') });
  await page.keyboard.press('Alt+5');
  await expect(page.getByTestId('tracking-delayed-banner')).toContainText(
    'Packing and labels are not affected',
  );
  await page.screenshot({ path: info.outputPath('tracking-delayed-board.png') });
});

test('a History reprint while the label printer is off says it is queued for it, not sent', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await importSamples(page);
  await scanAndBuy(page, 'LUM-10421');
  await expect.poll(() => printer.labels.length, { timeout: 20_000 }).toBe(1);

  // The printer is switched off; the header finds out.
  await printer.close();
  await expect(page.getByTestId('printer-status')).not.toContainText('ready', {
    timeout: 30_000,
  });

  await page.keyboard.press('Alt+4');
  await page.getByRole('textbox', { name: 'Search labels' }).press('ArrowDown');
  await expect(page.getByTestId('history-row').first()).toBeFocused();
  await page.keyboard.press('r');
  await expect(page.getByLabel('Reprint reason')).toBeFocused();
  // Enter before any reason is said, not silently ignored.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('reprint-reason-hint')).toContainText('Type why it is reprinted');
  await page.keyboard.type('label torn');
  await page.keyboard.press('Enter');
  const toast = page.getByTestId('toast').last();
  await expect(toast).toContainText(/^Reprint queued for .+: it prints when the printer is ready/);
  await expect(toast).not.toContainText('sent');
  await page.screenshot({ path: info.outputPath('history-reprint-printer-off.png') });
});

test('a slow rate request: Pack says what it waits for and for how long', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await importSamples(page);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await sandbox.addFault({ method: 'POST', path: '/api/v1/rates', kind: 'delay', delayMs: 4000 });
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('waiting')).toContainText(
    'Asking the platform for rates (at most 8 s',
  );
  await page.screenshot({ path: info.outputPath('waiting-for-rates.png') });
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest', { timeout: 15_000 });
  await expect(page.getByTestId('waiting')).toHaveCount(0);
});

test('the next order scanned while a label is being bought never shows that label as its own', async ({
  page,
}, info) => {
  await ratedOnPack(page, 'LUM-10422');
  await sandbox.addFault({ method: 'POST', path: '/api/v1/labels', kind: 'delay', delayMs: 2500 });
  await page.keyboard.press('Control+Enter');
  // The packer moves on before the label is back: the next order is scanned and rated.
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10421');
  // The first order's label is told by name, and the result panel stays the new order's.
  await expect(page.getByTestId('toast')).toContainText('LUM-10422', { timeout: 15_000 });
  await expect(page.getByTestId('result').getByTestId('tracking-number')).toHaveCount(0);
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
  await page.screenshot({ path: info.outputPath('scan-during-buy.png') });
  expect(await sandbox.ledger()).toHaveLength(1);
  // Its own purchase then shows under its own name.
  await sandbox.clearFaults();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result-order')).toHaveText('Order LUM-10421', { timeout: 15_000 });
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/);
  expect(await sandbox.ledger()).toHaveLength(2);
});

test('Esc while the label is being bought: said it cannot stop it, and the label shows when it comes', async ({
  page,
}) => {
  await ratedOnPack(page, 'LUM-10422');
  await sandbox.addFault({ method: 'POST', path: '/api/v1/labels', kind: 'delay', delayMs: 2500 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('waiting')).toContainText('Buying the label');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('toast')).toHaveText(
    'The label is being bought: Esc cannot stop it. Its result shows here in a moment.',
  );
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10422');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 15_000 });
  expect(await sandbox.ledger()).toHaveLength(1);
  // Once bought, Esc clears as ever.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('order-number')).toHaveCount(0);
});

test('the station program stops while a label is being bought: NOT CONFIRMED, nothing offered to buy again', async ({
  page,
}, info) => {
  const running = await ratedOnPack(page, 'LUM-10422');
  // The platform sells the label, and its answer takes a while: the station stops meanwhile.
  await sandbox.addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'delay',
    delayMs: 4000,
    after: true,
    times: 1,
  });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('waiting')).toContainText('Buying the label');
  await expect.poll(() => sandbox.ledger(), { timeout: 10_000 }).toHaveLength(1);
  await running.stop();
  station = null;
  // Bought, but nobody could say so: not a red FAILED over a Buy key inviting a second label.
  await expect(page.getByTestId('failure-message')).toHaveAttribute(
    'data-code',
    'purchase-outcome-unknown',
    { timeout: 10_000 },
  );
  await expect(page.getByTestId('result')).toContainText('NOT CONFIRMED');
  await expect(page.getByTestId('failure-message')).toContainText(
    'it may or may not have been bought. Do not buy it again',
  );
  await expect(page.getByTestId('result')).not.toContainText('FAILED');
  await expect(page.getByRole('button', { name: /Buy & print/ })).toBeDisabled();
  await page.screenshot({ path: info.outputPath('host-stopped-during-buy.png') });
});

test('an order file saved as Windows-1252 (not UTF-8) keeps its accented names', async ({
  page,
}) => {
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen faults');
  const csv =
    'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs\n' +
    'LAT-1,José Müller,1 Rue Façade,Montréal,QC,H2X 1Y4,CA,2\n';
  const file = join(mkdtempSync(join(tmpdir(), 'station-orders-')), 'latin1.csv');
  writeFileSync(file, Buffer.from(csv, 'latin1'));
  await importOrders(page, file);
  await expect(page.getByTestId('import-report')).toContainText('1 imported');
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LAT-1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LAT-1');
  await expect(page.getByText('José Müller')).toBeVisible();
  await expect(page.getByText('Montréal', { exact: false })).toBeVisible();
});

test('Replace secret: a masked field, checked with the platform; a refused secret is not stored', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen faults');
  await page.keyboard.press('Alt+7');
  await page.getByRole('button', { name: 'Replace secret' }).first().click();
  const field = page.getByLabel('New client secret for Lumen faults');
  await expect(field).toHaveAttribute('type', 'password');
  await field.fill('Wrong-Replaced-Secret-55');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('toast')).toContainText('not stored');
  await expect(page.getByTestId('toast')).toContainText('did not accept the API key');
  await page.screenshot({ path: info.outputPath('replace-secret-refused.png') });
  await field.press('Escape');
  await expect(field).toHaveCount(0);
});

test('a large order file: Settings shows its progress, the report counts every problem', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen faults');
  const lines = [
    'order_number,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs',
  ];
  for (let i = 1; i <= 30_000; i++)
    lines.push(`BIG-${i},1 Main St,Springfield,62701,US,${i % 1000 === 0 ? 'heavy' : '2'}`);
  const file = join(mkdtempSync(join(tmpdir(), 'station-orders-')), 'big-orders.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  await page.keyboard.press('Alt+7');
  await page.getByLabel('Import orders file').setInputFiles(file);
  await expect(page.getByTestId('import-progress')).toContainText('Importing big-orders.csv');
  await page.screenshot({ path: info.outputPath('import-progress.png') });
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('29970 imported', { timeout: 60_000 });
  await expect(report).toContainText('30 problems');
  await expect(report).toContainText(
    'row 1001 (order BIG-1000), weight_lbs: "heavy" is not a number',
  );
  await expect(page.getByTestId('import-progress')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('import-report-large.png') });
});

test('rates failing while the platform answers the rest: said so on the header, online again by itself once rates answer', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  station = await lumenStation();
  await page.goto(station.url);
  await importSamples(page);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await sandbox.addFault({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 500 });
  const header = page.getByTestId('connectivity');
  // The packer's ratings fail (each one tried a few times) until the station counts it.
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 2; i++) {
    await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
    await page.keyboard.press('Enter');
  }
  await expect(header).not.toContainText('online', { timeout: 20_000 });
  // The tracker list answers meanwhile (every 15 s): the rates fail, the platform is there.
  await expect(header).toContainText('Platform: rates failing', { timeout: 30_000 });
  await expect(header).toHaveAttribute('title', /answers other requests meanwhile/);
  await page.screenshot({ path: info.outputPath('rates-failing-header.png') });
  // Mended; nobody scans: the station's own request finds out (every 20 s).
  await sandbox.clearFaults();
  await expect(header).toContainText('Platform: online', { timeout: 30_000 });
});
