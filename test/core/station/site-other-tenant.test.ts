import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase } from '../site/support.js';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { call, packOrder, until } from './support.js';

// A station of another tenant pointed at the site's store under the same profile id (a copied
// provisioning file): it sees none of the site's labels, items, orders or cost.

const { pgc, siteStation, harborStation, linkToSite } = siteStations();

describe('a station of another tenant on the same store', () => {
  it("sees none of the site's labels, Needs attention items, orders, cost or labels per hour", async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = siteStation(tempDir());
    const e = harborStation(tempDir());
    await Promise.all([a.start(), e.start()]);
    try {
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      await linkToSite(e, site.stationUrl, 'st-e', 'Station E');
      await call(a, 'orders.import', {
        fileName: 'lumen.json',
        content: JSON.stringify([candleOrder('TEN-1', 'Ada')]),
      });
      expect((await packOrder(a, 'TEN-1')).label?.trackingNumber).toBeTruthy();
      // A possible double label of Lumen's, raised by the store.
      const scope = a.context.runtime().scope;
      await site.owner.pool.query(
        `INSERT INTO site_attention (kind, profile_id, environment, tenant_id, order_number, message, purchases)
         VALUES ('possible-double-label', $1, $2, 'tnt_lumen', 'TEN-1', 'Possible double label', '[]'::jsonb)`,
        [scope.profileId, scope.environment],
      );
      await Promise.all([synced(a), synced(e)]);

      // Station A, of the brand: its label and the item.
      expect((await call(a, 'site.labels', { query: 'TEN-1' })).labels).toHaveLength(1);
      await until(async () => (await call(a, 'site.attention', {})).items.length === 1);
      // Station E, of another tenant: none of it.
      expect((await call(e, 'site.labels', {})).labels).toEqual([]);
      expect((await call(e, 'site.attention', {})).items).toEqual([]);
      expect((await call(e, 'site.orders', { query: 'TEN-' })).orders).toEqual([]);
      const seen = await call(e, 'console.snapshot', {});
      expect(seen.snapshot?.costToday).toEqual([]);
      expect(seen.snapshot?.labelsPerHour).toEqual([]);
      // Station A's console has its label in both.
      const own = await call(a, 'console.snapshot', {});
      expect(own.snapshot?.labelsPerHour.map((h) => h.labels)).toEqual([1]);
      expect(own.snapshot?.costToday.map((c) => [c.tenantId, c.labels])).toEqual([
        ['tnt_lumen', 1],
      ]);
      const today = new Date().toISOString().slice(0, 10);
      const day = { from: today, to: today, scope: 'site' as const };
      expect((await call(e, 'endOfDay.summary', day)).labels).toBe(0);
      expect((await call(a, 'endOfDay.summary', day)).labels).toBe(1);
    } finally {
      await Promise.all([a.stop(), e.stop()]);
    }
  });
});
