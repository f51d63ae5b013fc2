import { describe, expect, it } from 'vitest';
import { siteStations, synced } from './site-stations.js';
import { allPrinted, call } from './support.js';

// A shift lead's trial (2026-11-29, evening): a packer at Station B reprinted Station A's label
// (Pack, Alt+R) after the platform had lost its file, and read "The platform could not find the
// label ZPL: Label "lbl_…" was not found (ref cor_…)": a platform id, and nothing to do. Station
// A, which bought the label, prints it from its own copy.

const { sandbox, stationsAandB } = siteStations();

describe("another station's label the platform no longer has", () => {
  it('is not reprinted here, and the packer is sent to the station that bought it', async () => {
    const { a, b } = await stationsAandB();
    try {
      const scan = await call(a, 'pack.scan', { value: 'LUM-10421' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      const quote = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 1.8, boxId: null }],
      });
      const bought = await call(a, 'pack.buy', { shipmentId: quote.shipmentId });
      await synced(a);

      sandbox().faults.add({ method: 'GET', path: '/api/v1/labels/', kind: 'status', status: 404 });
      try {
        const refused = await b.dispatch('site.reprint', {
          stationId: 'st-a',
          labelId: bought.label!.id,
          reason: 'smudged',
        });
        expect(refused).toMatchObject({
          ok: false,
          error: {
            code: 'not-found',
            message: `The platform no longer has the label of order LUM-10421 (${bought.label!.trackingNumber}), so it cannot be printed here: nothing was printed. Reprint it at Station A (History there): the station that bought a label prints it from its own copy.`,
          },
        });
      } finally {
        sandbox().faults.clear();
      }
      // Station A reprints it from its own copy (once the label itself is out).
      await allPrinted(a);
      const here = await call(a, 'site.reprint', {
        stationId: 'st-a',
        labelId: bought.label!.id,
        reason: 'smudged',
      });
      expect(here.state).toMatch(/^(printed|sending|queued)$/);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
