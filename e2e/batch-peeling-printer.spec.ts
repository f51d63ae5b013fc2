import { expect, test } from '@playwright/test';
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

// Noticed on 2026-11-30: a batch at a printer that peels labels (each waits, no fault, until it
// is taken) waited there two labels ahead, shown only as "running". The batch panel now says
// which printer it waits for and what to do, and stops saying it once the labels are taken.

const fixtures = join(import.meta.dirname, 'fixtures');
let sandbox: SandboxProcess;
let printer: VirtualPrinter;
let station: RunningStation | null = null;

test.beforeEach(async () => {
  sandbox = await startSandboxProcess();
  printer = await startVirtualPrinter({ port: 0 });
  station = await startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port },
    profile: { id: 'lumen-peel', name: 'Lumen peel' },
  });
});
test.afterEach(async () => {
  await station?.stop();
  station = null;
  await printer.close();
  await sandbox.stop();
});

test('a batch waiting for a printer that holds its labels without a fault says so in its panel', async ({
  page,
}, info) => {
  await page.goto(station!.url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+8');
  await page
    .getByLabel('Import orders file here')
    .setInputFiles(join(fixtures, 'floor-orders.csv'));
  await expect(page.getByTestId('import-report')).toContainText('7 imported');
  await page.getByTestId('count-open').press('Space');
  await page.getByRole('checkbox', { name: 'Single item' }).press('Space');
  await page.getByRole('checkbox', { name: 'Weight known' }).press('Space');
  await expect(page.getByTestId('orders-pager')).toContainText('1–4 of 4 orders');
  printer.setPeel(true);
  await page.keyboard.press('Alt+b');
  await page.keyboard.press('Enter');

  const batch = page.getByTestId('batch');
  const said = page.getByTestId('batch-waiting-for-printer');
  await expect(said).toContainText(
    /^Waiting for .+ to print the label of FLR-\d+ \(1 of 4\): the batch buys at most 2 labels ahead of its printer, and .+ reports no fault\. If it peels labels, take the printed labels off/,
    { timeout: 20_000 },
  );
  await expect(batch).toContainText('Batch running');
  await page.screenshot({ path: info.outputPath('batch-waiting-for-peeler.png') });
  expect(await sandbox.ledger()).toHaveLength(2);

  printer.setPeel(false);
  await expect(batch).toContainText('Batch done', { timeout: 30_000 });
  await expect(said).toHaveCount(0);
  await expect.poll(() => printer.labels.length, { timeout: 15_000 }).toBe(4);
});
