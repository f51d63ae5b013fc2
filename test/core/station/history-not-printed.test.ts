import { describe, expect, it } from 'vitest';
import { startPlainZebra } from '../../support/plain-zebra.js';
import { closedPort } from '../../support/ports.js';
import { call, demoStationsPerTest, onlyLabelPrinter, packOrder, until } from './support.js';

const stations = demoStationsPerTest();

describe('History says which labels never came out of the printer', () => {
  it('a label whose print job was cancelled in the Queue is marked, until a reprint prints it', async () => {
    const { s } = await stations.start();
    // The dock's printer is off: its only label printer.
    const off = await onlyLabelPrinter(s, 'Dock 4 (off)', await closedPort());

    const bought = await packOrder(s, 'LUM-10421');
    const tracking = bought.label!.trackingNumber;
    const job = await until(async () =>
      (await call(s, 'queue.list', {})).printJobs.find((j) => j.printerId === off),
    );
    // Waiting for its printer: said as such while the job is in the Queue.
    const waiting = await call(s, 'labels.search', { query: tracking, limit: 10, offset: 0 });
    expect(waiting.labels[0]!.notPrinted?.state).toMatch(/^(waiting|failed)$/);

    await call(s, 'queue.cancel', { kind: 'print-job', id: job.id });
    const page = await call(s, 'labels.search', { query: 'LUM-10421', limit: 10, offset: 0 });
    const row = page.labels.find((l) => l.trackingNumber === tracking)!;
    expect(row.notPrinted).toMatchObject({
      state: 'cancelled',
      note: expect.stringMatching(/^cancelled in the Queue by /),
    });
    expect(Date.parse(row.notPrinted!.at)).not.toBeNaN();
    const detail = await call(s, 'labels.get', { id: row.id });
    expect(detail.notPrinted?.state).toBe('cancelled');

    // Reprinted on a printer that is on: it came out, and the mark goes.
    const zebra = await startPlainZebra();
    stations.onEnd(zebra.close);
    const on = (
      await call(s, 'printers.add', {
        name: 'Dock 5',
        host: '127.0.0.1',
        port: zebra.port,
        dpi: 203,
        role: 'label',
      })
    ).printers.find((p) => p.name === 'Dock 5')!;
    await call(s, 'labels.reprint', {
      id: row.id,
      reason: 'first one cancelled',
      printerId: on.id,
    });
    await until(async () => {
      const again = await call(s, 'labels.search', { query: tracking, limit: 10, offset: 0 });
      return again.labels[0]!.notPrinted === undefined;
    });
  });
});
