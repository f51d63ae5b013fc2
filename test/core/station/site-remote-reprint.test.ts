import { describe, expect, it } from 'vitest';
import { siteStations } from './site-stations.js';
import { call, until } from './support.js';

// Trial of 2026-11-29: a shift lead reprinted a label from History (whole site) on another
// station's printer, which was switched off. The page said "Reprint of LUM-10422 sent to ZD421
// st4 (Station 4)." while the job sat in this station's queue, refused by the printer: the lead
// walked to a printer where nothing had come out.

const { stationsAandB } = siteStations();

describe("a reprint on another station's printer", () => {
  it('answers after its first attempt: printed there, or queued with why', async () => {
    const { a, b } = await stationsAandB();
    try {
      const scan = await call(a, 'pack.scan', { value: 'LUM-10421' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      const quote = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 1.8, boxId: null }],
      });
      const bought = await call(a, 'pack.buy', { shipmentId: quote.shipmentId });
      const labelId = bought.label!.id;
      await until(async () =>
        (await call(a, 'site.status', {})).sitePrinters.some(
          (p) => p.id === 'site:st-b:virtual-printer',
        ),
      );
      const onB = (reason: string) =>
        call(a, 'site.reprint', {
          stationId: 'st-a',
          labelId,
          reason,
          printerId: 'site:st-b:virtual-printer',
        });

      // Station B's printer takes it: the answer says it printed.
      const there = await onB('box moved to station B');
      expect(there).toMatchObject({ state: 'printed', lastError: null });

      // Station B closed, its printer with it: the answer carries the printer's refusal, so
      // the page says "queued for …", and the job waits in this station's queue.
      await b.stop();
      const held = await onB('box moved to station B again');
      expect(held.state).toBe('queued');
      expect(held.lastError).toMatch(/not answering|refused/);
      expect(held.printerName).toMatch(/\(Station B\)$/);

      // The Queue names that printer as the answer did, not by its id (site:st-b:…).
      const waiting = (await call(a, 'queue.list', {})).printJobs.find((j) => j.id === held.id);
      expect(waiting?.printerName).toBe(held.printerName);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});
