import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import { call, demoStationsPerTest, onlyLabelPrinter, until } from './support.js';

/**
 * Trial of 2026-11-29 (late night): a label printer behind a weak Wi-Fi bridge answers in
 * seconds. The header showed it as "not answering" and Test print refused it, though it prints.
 */
const stations = demoStationsPerTest();

describe('a label printer that answers in 3 s (site IT)', () => {
  it('is shown ready and slow to answer in the header, and its test page prints once', async () => {
    const { s } = await stations.start();
    const printer = await startVirtualPrinter({ port: 0 });
    stations.onEnd(() => printer.close());
    printer.setSlow(3000);
    const id = await onlyLabelPrinter(s, 'Dock ZD421', printer.port);

    const header = await until(async () => {
      const shown = (await call(s, 'station.status', {})).printer;
      return shown?.printerId === id && shown.state !== 'unknown' ? shown : null;
    });
    expect(header).toMatchObject({
      state: 'ready',
      slowMs: expect.any(Number),
      message: expect.stringContaining('is ready; it is slow to answer'),
    });

    const job = await call(s, 'printers.testPrint', { printerId: id });
    expect(job.printerName).toBe('Dock ZD421');
    await until(() => s.context.spool.get(Number(job.id))?.state === 'printed');
    expect(printer.labels).toHaveLength(1);
    expect(printer.labels[0]!.zpl).toContain('Test print');
  }, 60_000);
});
