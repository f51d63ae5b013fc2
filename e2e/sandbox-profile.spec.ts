import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../src/core/printing/virtual-printer/server.js';
import {
  demoWorld,
  startProvisionedStation,
  startSandboxProcess,
  startStation,
  type RunningStation,
  type SandboxProcess,
  importOrders,
  buyWithLostAnswer,
  loseNextLabelAnswer,
} from './station';

/** The demo world with a recognisable twist, so the test proves which sandbox it talks to. */
function ownFixtures() {
  const world = demoWorld();
  for (const t of world.tenants)
    if (t.tenantId === 'tnt_harbor') t.name = 'Harbor Fulfillment (e2e)';
  return world;
}

/** A station provisioned with one Lumen profile on this test's sandbox and printer. */
const lumenStation = () =>
  startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port, name: 'ZD421 e2e' },
  });

let sandbox: SandboxProcess;
let printer: VirtualPrinter;
let station: RunningStation | null = null;

test.beforeEach(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'station-fixtures-')), 'world.json');
  writeFileSync(file, JSON.stringify(ownFixtures()));
  sandbox = await startSandboxProcess(file);
  printer = await startVirtualPrinter({ port: 0 });
});
test.afterEach(async () => {
  await station?.stop();
  station = null;
  await printer.close();
  await sandbox.stop();
});

test('a profile created against a separate sandbox fills its pickers from the API and raises the EXPIRED banner', async ({
  page,
}, info) => {
  station = await startStation();
  await page.goto(station.url);
  await expect(page.getByTestId('environment-badge')).toBeVisible();
  await page.keyboard.press('Alt+7');
  await page.getByRole('button', { name: 'New profile…' }).click();
  await page.getByLabel('Profile name').fill('Harbor dock 4');
  await page.getByLabel('Base URL').fill(sandbox.url);
  await page.getByLabel('Client ID').fill('demo-harbor-full');
  await page.getByLabel('Client secret').fill('demo-harbor-full-secret');
  await page.getByLabel("API key's tenant ID").fill('tnt_harbor');
  await page.getByRole('button', { name: 'Connect and load tenants' }).click();
  const tenant = page.getByLabel('Tenant', { exact: true });
  await expect(tenant).toContainText('Harbor Fulfillment (e2e)');
  await page.getByRole('checkbox', { name: 'Driftwood Coffee Co.' }).check();
  await page.getByRole('checkbox', { name: 'Pinecrest Outdoor Supply' }).check();
  await expect(page.getByLabel('Shipping site')).toContainText('Harbor Edison DC');
  await page.screenshot({ path: info.outputPath('new-profile.png') });
  await page.getByRole('button', { name: 'Create profile' }).click();

  await expect(page.getByTestId('profile-name')).toHaveText('Harbor dock 4');
  await expect(page.getByTestId('environment-badge')).toHaveText('SANDBOX');
  await expect(page.getByTestId('expired-banner')).toContainText('EXPIRED', { timeout: 20_000 });
  await page.screenshot({ path: info.outputPath('expired-banner.png') });
  // The secret was typed once and is never shown again.
  await expect(page.getByTestId('profiles')).not.toContainText('demo-harbor-full-secret');
  await page.keyboard.press('Alt+6');
  await expect(page.getByTestId('carrier-accounts')).toContainText('EXPIRED');
  await page.screenshot({ path: info.outputPath('carriers-expired.png') });
});

test('a provisioned station imports orders, queues while the platform is down and drains when it returns; a printer out of paper prints the label once when fixed', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen e2e');
  await expect(page.getByTestId('printer-status')).toContainText('ready');

  // The platform goes away before the orders come in (so none of them is rated in the
  // background first: a pre-rated order's Ctrl+Enter would go straight to POST /labels, and a 503
  // there is a purchase NOT CONFIRMED, not a queued one).
  await sandbox.addFault({ path: '/api/v1', kind: 'status', status: 503 });
  // Importing orders from a file, with the report of what came in.
  await importOrders(page);
  await page.screenshot({ path: info.outputPath('import-report.png') });

  // The shipment is queued, not failed.
  await page.keyboard.press('Alt+1');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await expect(scan).toBeFocused();
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10422');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toContainText('QUEUED', { timeout: 30_000 });
  await expect(page.getByTestId('queue-count')).toContainText('1');
  await page.screenshot({ path: info.outputPath('queued.png') });
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('queued-shipments')).toContainText('LUM-10422');
  await page.screenshot({ path: info.outputPath('queue.png') });

  // The printer runs out of paper before the platform comes back.
  printer.setFault('paper-out');
  await sandbox.clearFaults();
  await page.getByRole('button', { name: 'Retry now' }).click();
  await expect(page.getByTestId('printer-status')).toContainText('out of paper', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('print-jobs')).toContainText('label', { timeout: 30_000 });
  await page.screenshot({ path: info.outputPath('paper-out.png') });
  expect(printer.labels.length).toBe(0);

  // Paper back in: the job completes, once.
  printer.setFault(null);
  await expect.poll(() => printer.labels.length, { timeout: 30_000 }).toBe(1);
  await expect(page.getByTestId('printer-status')).toContainText('ready', { timeout: 15_000 });
  // The job has left the queue: nothing is left to print it a second time.
  await expect(page.getByRole('heading', { name: 'Print jobs (0)' })).toBeVisible({
    timeout: 15_000,
  });
  expect(printer.labels.length).toBe(1);
  expect((await sandbox.ledger()).length).toBe(1);
  await page.screenshot({ path: info.outputPath('drained.png') });

  // Settings: discover finds the profile's network printer; a test print is one action.
  await page.keyboard.press('Alt+7');
  await page.getByRole('button', { name: 'Discover printers' }).click();
  await expect(page.locator('.found')).toContainText(`127.0.0.1:${printer.port}`);
  await page.getByTestId('printers').getByRole('button', { name: 'Test print' }).click();
  await expect.poll(() => printer.labels.length, { timeout: 15_000 }).toBe(2);
  await page.screenshot({ path: info.outputPath('settings-printers.png') });
});

test('a purchase whose answer is lost is never bought again by itself; a shift lead looks it up and the label prints', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen e2e');
  await importOrders(page);
  await page.keyboard.press('Alt+1');

  // The platform buys the label, then the connection drops before the answer arrives.
  await buyWithLostAnswer(page, sandbox, 'LUM-10423');
  await expect(page.getByTestId('attention-count')).toContainText('1');
  await page.screenshot({ path: info.outputPath('outcome-unknown.png') });

  // Scanning it again does not buy a second label.
  await page.keyboard.type('LUM-10423');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toContainText('unknown outcome');
  expect(await sandbox.ledger()).toHaveLength(1);

  await page.keyboard.press('Alt+2');
  const item = page.getByTestId('attention-item');
  await expect(item).toContainText('LUM-10423');
  await page.screenshot({ path: info.outputPath('needs-attention.png') });
  // The platform takes its time: the page says it is looking, and keeps what it found.
  await sandbox.addFault({
    method: 'GET',
    path: '/api/v1/trackers',
    kind: 'delay',
    delayMs: 1500,
    times: 1,
  });
  await item.getByRole('button', { name: 'Look it up on the platform' }).click();
  await expect(page.getByTestId('attention-busy')).toContainText('Looking it up on the platform…');
  await expect(item.getByRole('button', { name: 'Look it up on the platform' })).toBeDisabled();
  await expect(page.getByTestId('attention-item')).toHaveCount(0);
  await expect(page.getByTestId('attention-outcomes')).toContainText('LUM-10423');
  await page.waitForTimeout(6_000); // longer than a toast stays
  await expect(page.getByTestId('attention-outcomes')).toContainText('LUM-10423');
  await expect.poll(() => printer.labels.length, { timeout: 20_000 }).toBe(1);
  expect(await sandbox.ledger()).toHaveLength(1);
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('history-table')).toContainText('LUM-10423');
});

test('a queued purchase whose answer is lost: the Queue sends the shift lead to Needs attention, and the look-up takes it off the Queue', async ({
  page,
}, info) => {
  station = await lumenStation();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen e2e');
  await importOrders(page);

  // The platform is away: Ctrl+Enter queues the order.
  await sandbox.addFault({ path: '/api/v1', kind: 'status', status: 503 });
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10422');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toContainText('QUEUED', { timeout: 30_000 });

  // Back, but the answer to the queue's purchase is lost: bought once, outcome unknown.
  await sandbox.clearFaults();
  await loseNextLabelAnswer(sandbox);
  await page.keyboard.press('Alt+3');
  await page.getByRole('button', { name: 'Retry now' }).click();
  const rows = page.getByTestId('queued-shipments');
  await expect(rows).toContainText('outcome unknown: see Needs attention', { timeout: 30_000 });
  await expect(rows.getByRole('button', { name: 'Retry now' })).toHaveCount(0);
  await expect(rows.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(page.getByTestId('queue-count')).toContainText('1');
  await expect(page.getByTestId('attention-count')).toContainText('1');
  expect(await sandbox.ledger()).toHaveLength(1);
  await page.screenshot({ path: info.outputPath('queue-outcome-unknown.png') });

  // To Needs attention from the row; the look-up finds the label.
  await rows.getByRole('button', { name: 'Decide in Needs attention (Alt+2)' }).click();
  const item = page.getByTestId('attention-item');
  await expect(item).toContainText('LUM-10422');
  await item.getByRole('button', { name: 'Look it up on the platform' }).click();
  await expect(page.getByTestId('attention-outcomes')).toContainText('Found on the platform');
  await expect.poll(() => printer.labels.length, { timeout: 20_000 }).toBe(1);

  // The Queue no longer has it, after a reload too, and the header agrees.
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('queued-shipments-empty')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen e2e');
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('queued-shipments-empty')).toBeVisible();
  await expect(page.getByTestId('queue-count')).toContainText('0');
  await expect(page.getByTestId('attention-count')).toContainText('0');
  await page.screenshot({ path: info.outputPath('queue-after-look-up.png') });
  expect(await sandbox.ledger()).toHaveLength(1);
});
