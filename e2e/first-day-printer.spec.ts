import { expect, test } from '@playwright/test';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../src/core/printing/virtual-printer/server.js';
import {
  importOrders,
  scanAndBuy,
  startProvisionedStation,
  startSandboxProcess,
  type RunningStation,
  type SandboxProcess,
} from './station';

/**
 * Issue 13, the packer and the printer: a station provisioned against a separately started
 * sandbox, printing to a TCP printer this test controls (out of paper, a 300-dpi head).
 */

let sandbox: SandboxProcess;
let printer: VirtualPrinter;
let station: RunningStation | null = null;

test.afterEach(async () => {
  await station?.stop();
  station = null;
  await printer?.close();
  await sandbox?.stop();
});

async function provisioned(dpi: 203 | 300): Promise<RunningStation> {
  sandbox = await startSandboxProcess();
  printer = await startVirtualPrinter({ port: 0, dpi });
  return startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port, dpi },
    profile: { id: 'lumen-dock', name: 'Lumen dock' },
  });
}

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`at ${size.width}×${size.height}, a label bought while the printer is out of paper is amber "bought — waiting for ZD421", then green once it prints`, async ({
    page,
  }, info) => {
    station = await provisioned(203);
    await page.setViewportSize(size);
    await page.goto(station.url);
    await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
    await importOrders(page);
    await page.keyboard.press('Alt+1');

    printer.setFault('paper-out');
    const header = page.getByTestId('printer-status');
    await expect(header).toContainText('ZD421: out of paper', { timeout: 20_000 });
    // The header's printer message is whole, not cut off.
    expect(await header.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const hb = (await header.boundingBox())!;
    expect(hb.x + hb.width).toBeLessThanOrEqual(size.width);

    await scanAndBuy(page, 'LUM-10422');
    const result = page.getByTestId('result');
    await expect(result).toHaveAttribute('data-phase', 'waiting', { timeout: 30_000 });
    await expect(result).toContainText('BOUGHT — WAITING FOR PRINTER');
    await expect(page.getByTestId('result-message')).toHaveText(
      'Bought — waiting for ZD421 (out of paper); it prints when the printer is back.',
    );
    await expect(result).not.toContainText('Sent to');
    await expect(result).not.toContainText('LABEL PRINTED');
    // Amber, not green.
    const colour = await result.evaluate(
      (el) => el.ownerDocument.defaultView!.getComputedStyle(el).borderColor,
    );
    expect(colour).toBe('rgb(245, 158, 11)');
    await page.screenshot({ path: info.outputPath(`pack-waiting-${size.width}.png`) });
    expect(printer.labels.length).toBe(0);

    // Paper back in: the same label prints once, and the panel turns green by itself.
    printer.setFault(null);
    await expect(result).toHaveAttribute('data-phase', 'printed', { timeout: 30_000 });
    await expect(result).toContainText('LABEL PRINTED');
    await expect(page.getByTestId('result-message')).toContainText('Printed on ZD421');
    expect(printer.labels.length).toBe(1);
    await page.screenshot({ path: info.outputPath(`pack-printed-${size.width}.png`) });
  });
}

test('a 203-dpi label to a 300-dpi printer is said out loud on Pack and on a reprint from History', async ({
  page,
}, info) => {
  station = await provisioned(300);
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await scanAndBuy(page, 'LUM-10421');
  const warnings = page.getByTestId('result').getByTestId('print-warnings');
  await expect(warnings).toContainText('203-dpi');
  await expect(warnings).toContainText('300 dpi');
  await page.screenshot({ path: info.outputPath('pack-dpi-warning.png') });

  await page.keyboard.press('Alt+4');
  const row = page.getByTestId('history-row').first();
  await expect(row).toContainText('LUM-10421');
  await page.getByRole('textbox', { name: 'Search labels' }).press('ArrowDown');
  // ↓ searches what is in the box first, then the first match takes the focus.
  await expect(row).toBeFocused();
  await page.keyboard.press('r');
  await page.getByLabel('Reprint reason').fill('customer lost it');
  await page.getByLabel('Reprint reason').press('Enter');
  await expect(page.getByTestId('label-detail').getByTestId('print-warnings')).toContainText(
    '203-dpi',
  );
  await page.screenshot({ path: info.outputPath('history-dpi-warning.png') });
});

test('Needs attention keeps its promise: a label that may not have printed can be marked printed, with a note', async ({
  page,
}, info) => {
  station = await provisioned(203);
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  // The printer takes the label, prints it, and drops the line before saying so.
  printer.dropAfterNextLabel();
  await scanAndBuy(page, 'LUM-10423');
  await expect(page.getByTestId('attention-count')).toContainText('1', { timeout: 30_000 });
  // Pack's heading says a person must look, as its text does: nothing prints by itself.
  await expect(page.getByTestId('result')).toHaveAttribute('data-phase', 'check');
  await expect(page.getByTestId('result')).toContainText('BOUGHT — CHECK THE PRINTER');

  await page.keyboard.press('Alt+2');
  const item = page.getByTestId('attention-item');
  await expect(item).toContainText('may not have printed');
  // Which parcel: its order number and tracking number, not only the job's id.
  await expect(item).toContainText(/for order LUM-10423 \(\w{10,}\)/);
  await expect(item).toContainText('mark it printed');
  // The other decision in the Queue's words, not a bare "Retry".
  await expect(item.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'It did not print: send it again' })).toBeVisible();
  await item.getByRole('textbox').fill('saw it in the tray');
  await page.screenshot({ path: info.outputPath('attention-mark-printed.png') });
  await item.getByRole('button', { name: 'It printed: mark it printed' }).click();
  await expect(page.getByTestId('attention-item')).toHaveCount(0);
  await expect(page.getByTestId('attention-count')).toContainText('0');
  expect(printer.labels.length).toBe(1);
});

test('the Queue calls a label that may have printed so, and offers "It printed" beside sending it again', async ({
  page,
}, info) => {
  station = await provisioned(203);
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  printer.dropAfterNextLabel();
  await scanAndBuy(page, 'LUM-10424');
  await expect(page.getByTestId('attention-count')).toContainText('1', { timeout: 30_000 });

  await page.keyboard.press('Alt+3');
  const row = page.getByTestId('print-jobs').locator('tbody tr');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('may have printed');
  await expect(row).not.toContainText('failed');
  await expect(row.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'It did not print: send it again' })).toBeVisible();
  await page.screenshot({ path: info.outputPath('queue-may-have-printed.png') });
  await row.getByRole('button', { name: 'It printed: mark it printed' }).click();
  await expect(page.getByTestId('print-jobs-empty')).toBeVisible();
  await expect(page.getByTestId('attention-count')).toContainText('0');
  // Marked, not sent again: one label came out.
  expect(printer.labels.length).toBe(1);
});

test('large text at 1366×768 with a long result (printer out of paper, a 300-dpi head): the label thumbnail is scaled, not cut', async ({
  page,
}, info) => {
  station = await provisioned(300);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('Alt+l');
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  printer.setFault('paper-out');
  await expect(page.getByTestId('printer-status')).toContainText('out of paper', {
    timeout: 20_000,
  });
  await scanAndBuy(page, 'LUM-10424');
  const result = page.getByTestId('result');
  await expect(result).toHaveAttribute('data-phase', 'waiting', { timeout: 30_000 });
  const preview = result.getByTestId('label-preview');
  const first = preview.locator('img').first();
  await expect(first).toBeVisible();
  await expect
    .poll(() =>
      first.evaluate((img) => {
        const el = img as unknown as { complete: boolean; naturalWidth: number };
        return el.complete && el.naturalWidth > 0;
      }),
    )
    .toBe(true);
  // The first package's label is whole inside its box, at the label's own proportions.
  const box = (await preview.boundingBox())!;
  const img = (await first.boundingBox())!;
  expect(img.x + img.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  expect(img.y + img.height).toBeLessThanOrEqual(box.y + box.height + 0.5);
  expect(img.height / img.width).toBeCloseTo(6 / 4, 1);
  expect(img.width).toBeGreaterThan(60);
  await page.screenshot({ path: info.outputPath('pack-large-text-long-result.png') });
});
