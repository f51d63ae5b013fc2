import { describe, expect, it } from 'vitest';
import { siteStations, synced } from './site-stations.js';
import { allPrinted, call } from './support.js';

// A shift lead's trial (2026-11-29, evening): Station B reprinted Station A's label of EVE-2001.
// At Station A, History (This station) listed the label with Reprints 0 while its pane said
// "1 reprint" and the audit named B's reprint: the row counted A's own reprints only.

const { stationsAandB } = siteStations();

describe("this station's History rows", () => {
  it('count the reprints other stations of the site made of its labels, as its pane does', async () => {
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
      await allPrinted(a);
      await synced(a);

      await call(b, 'site.reprint', { stationId: 'st-a', labelId, reason: 'smudged at B' });
      await synced(b);
      await call(a, 'labels.reprint', { id: labelId, reason: 'smudged at A' });

      const pane = await call(a, 'labels.get', { id: labelId });
      expect(pane.reprints).toBe(2);
      const page = await call(a, 'labels.search', { query: 'LUM-10421' });
      const row = page.labels.find((l) => l.id === labelId)!;
      expect(row.reprints).toBe(pane.reprints);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
