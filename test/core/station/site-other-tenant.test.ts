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
      // The tracker pollers: each station's console names its own tenant's only.
      const polled = async (s: typeof a) =>
        (await call(s, 'console.snapshot', {})).snapshot?.trackerPolling.map((t) => t.tenantId) ??
        [];
      await until(async () => (await polled(a)).includes('tnt_lumen'));
      await until(async () => (await polled(e)).length > 0);
      expect(await polled(a)).not.toContain(
        (await call(e, 'station.status', {})).profile?.tenantId,
      );
      expect(await polled(e)).not.toContain('tnt_lumen');
      const today = new Date().toISOString().slice(0, 10);
      const day = { from: today, to: today, scope: 'site' as const };
      expect((await call(e, 'endOfDay.summary', day)).labels).toBe(0);
      expect((await call(a, 'endOfDay.summary', day)).labels).toBe(1);
    } finally {
      await Promise.all([a.stop(), e.stop()]);
    }
  });

  it("neither lists nor prints on another tenant's station or printer, even asked by its id", async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = siteStation(tempDir());
    const b = siteStation(tempDir());
    const e = harborStation(tempDir());
    await Promise.all([a.start(), b.start(), e.start()]);
    try {
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      await linkToSite(b, site.stationUrl, 'st-b', 'Station B');
      await linkToSite(e, site.stationUrl, 'st-e', 'Harbor 1');
      await call(a, 'orders.import', {
        fileName: 'lumen.json',
        content: JSON.stringify([candleOrder('TEN-2', 'Ada')]),
      });
      const bought = await packOrder(a, 'TEN-2');
      await Promise.all([synced(a), synced(b), synced(e)]);
      // Every station has registered its printer, and A has read them since: B's is offered at
      // A, Harbor's is not.
      await until(async () => {
        const registered = await site.owner.pool.query<{ station_id: string }>(
          'SELECT station_id FROM site_printers WHERE active ORDER BY station_id',
        );
        return registered.rows.map((r) => r.station_id).join() === 'st-a,st-b,st-e';
      });
      await until(() => a.context.site!.sync.sitePrinters.length === 3);
      const offered = (await call(a, 'site.status', {})).sitePrinters.map((p) => p.id);
      expect(offered).toEqual(['site:st-b:virtual-printer']);
      // Settings → Site store and the console list the profile's stations, not Harbor's.
      const listed = (await call(a, 'site.status', {})).stations.map((st) => st.stationId);
      expect(listed.sort()).toEqual(['st-a', 'st-b']);
      const seen = await call(a, 'console.snapshot', {});
      expect(seen.snapshot?.stations.map((st) => st.stationId).sort()).toEqual(['st-a', 'st-b']);
      // Asked for Harbor's printer by its id all the same: refused, nothing printed.
      const labelId = (await call(a, 'site.labels', { query: 'TEN-2' })).labels[0]!.labelId;
      const refused = await a.dispatch('site.reprint', {
        stationId: 'st-a',
        labelId,
        reason: 'torn',
        printerId: 'site:st-e:virtual-printer',
      });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'not-found',
          message: expect.stringMatching(
            /^Printer site:st-e:virtual-printer belongs to Harbor 1, a station of another profile or tenant on this site store: a label of .+ is not printed there\. Nothing was printed/,
          ),
        },
      });
      expect(bought.label?.trackingNumber).toBeTruthy();
      const jobs = await call(a, 'queue.list', {});
      expect(JSON.stringify(jobs)).not.toContain('site:st-e');
    } finally {
      await Promise.all([a.stop(), b.stop(), e.stop()]);
    }
  }, 60_000);
});
