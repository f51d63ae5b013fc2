import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { StationStatus } from '../../../src/shared/views.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase } from '../site/support.js';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { buyWithLostAnswer, call, packOrder, until } from './support.js';

// What a station of a site says while the site store is away, and what its header counts of
// the site: two findings of a shift lead's trial, with real PostgreSQL stopped and started.

const { pgc, sandbox, siteStation, linkToSite, stationsAandB } = siteStations();

/** Every status event the station sends from now on; `next` waits for one after `from`. */
function statusEvents(s: Station) {
  const seen: StationStatus[] = [];
  s.onEvent((name, payload) => {
    if (name === 'status') seen.push(payload as StationStatus);
  });
  return {
    mark: () => seen.length,
    next: (from: number, check: (status: StationStatus) => boolean) =>
      until(() => seen.slice(from).find(check)),
  };
}

describe('a station of a site while the site store is away', () => {
  it('a scan of an order only another station imported says the site store was not asked, and what to do', async () => {
    const { a, b } = await stationsAandB();
    try {
      const file = JSON.stringify([candleOrder('SITE-9201')]);
      await call(a, 'orders.import', { fileName: 'wave-21.json', content: file });
      await synced(a);
      // The store answers and has nothing of that number: the answer stays as it was.
      expect(await call(b, 'pack.scan', { value: 'SITE-0000' })).toEqual({
        kind: 'not-found',
        value: 'SITE-0000',
      });
      pgc.cluster.stop();
      try {
        // Twice: asked as it goes away, then not waited on again for a while (SiteLink).
        for (let i = 0; i < 2; i++)
          expect(await call(b, 'pack.scan', { value: 'SITE-9201' })).toEqual({
            kind: 'not-found',
            value: 'SITE-9201',
            siteStoreAway: expect.stringMatching(
              /^It may be an order imported at another station, but the site store is not answering, so it cannot be looked up there now\. Scan it again in a minute, or pack it at the station that imported it/,
            ),
          });
      } finally {
        pgc.cluster.start();
      }
      // It answers again: the same scan brings in the order A imported.
      await until(
        async () => (await call(b, 'pack.scan', { value: 'SITE-9201' })).kind === 'order',
      );
      // A control byte in a scan (a scanner's framing, a NUL) is dropped, not sent to the store
      // (which refuses a NUL) and said as the store's fault.
      expect(await call(b, 'pack.scan', { value: 'AB\u0000CD' })).toEqual({
        kind: 'not-found',
        value: 'ABCD',
      });
      expect(await call(b, 'pack.scan', { value: '\u0002SITE-9201\u0003' })).toMatchObject({
        kind: 'order',
        order: { orderNumber: 'SITE-9201' },
      });
      expect(await b.dispatch('pack.scan', { value: '\u0002\u0003' })).toMatchObject({
        ok: false,
        error: { code: 'validation', message: expect.stringContaining('control characters') },
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);

  it("the header's Needs attention counts the site's open items once each, live, and says when it cannot", async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = siteStation(tempDir());
    const b = siteStation(tempDir());
    await Promise.all([a.start(), b.start()]);
    try {
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      // B is cut off from the store from the start: nothing of the site is known there, and
      // its header says so rather than showing a plain zero.
      const closedPort = site.stationUrl.replace(`:${pgc.cluster.port}/`, ':1/');
      await linkToSite(b, closedPort, 'st-b', 'Station B');
      const cutOff = await until(async () => {
        const status = await call(b, 'station.status', {});
        return status.site?.state === 'unreachable' ? status : null;
      });
      expect(cutOff.needsAttention).toBe(0);
      expect(cutOff.siteAttention).toEqual({ count: 0, current: false, readAt: null });

      // B reaches the store (through a relay), then the relay is cut: an outage, under the
      // site's offline rule (a store never reached at its address buys nothing).
      const proxy = await startTcpProxy(pgc.cluster.port);
      const throughProxy = site.stationUrl.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`);
      await linkToSite(b, throughProxy, 'st-b', 'Station B');
      await until(() => b.context.site?.hasReachedStore());
      await proxy.cut();
      await until(async () => (await call(b, 'station.status', {})).site?.state === 'unreachable');

      // B buys LUM-10425 offline (offlinePurchase allow); A buys it too, with the claim.
      expect((await packOrder(b, 'LUM-10425')).label).not.toBeNull();
      expect((await packOrder(a, 'LUM-10425')).label).not.toBeNull();
      await synced(a);
      const atA = statusEvents(a);
      let from = atA.mark();
      // B reaches the store: its purchase finds A's label, one possible double label is raised,
      // and A's header counts it without being asked (NOTIFY), as does B's.
      await linkToSite(b, site.stationUrl, 'st-b', 'Station B');
      const raised = await atA.next(from, (s) => s.needsAttention === 1);
      expect(raised.siteAttention).toMatchObject({ count: 1, current: true });
      await until(async () => (await call(b, 'station.status', {})).needsAttention === 1);

      // A purchase of unknown outcome at A: A's own item, and in the site's list as A's.
      await buyWithLostAnswer(a, sandbox(), 'LUM-10426');
      // B counts the double label and A's unknown purchase, as its Whole site list shows them.
      await until(async () => (await call(b, 'station.status', {})).needsAttention === 2);
      const list = await call(b, 'site.attention', {});
      expect(list.items.map((i) => i.kind).sort()).toEqual([
        'possible-double-label',
        'unknown-purchase',
      ]);
      // A lists its own unknown purchase with its own items (where it is resolved), not again
      // under Whole site.
      const atAList = await call(a, 'site.attention', {});
      expect(atAList.items.map((i) => i.kind)).toEqual(['possible-double-label']);
      expect(
        (await call(a, 'attention.list', {})).filter((i) => i.kind === 'purchase-unknown'),
      ).toHaveLength(1);

      // The shift lead resolves the double label at B: A's header drops it at once, and A's
      // unknown purchase, in both its own list and the site's, is counted once.
      from = atA.mark();
      const double = list.items.find((i) => i.kind === 'possible-double-label')!;
      await call(b, 'site.resolveAttention', { id: double.id, note: "kept A's label" });
      const resolved = await atA.next(from, (s) => s.siteAttention?.count === 0);
      expect(resolved.needsAttention).toBe(1);
      await until(async () => (await call(b, 'station.status', {})).needsAttention === 1);
      // B's page reads the list again (site-changed): A's unknown purchase is left.
      expect((await call(b, 'site.attention', {})).items.map((i) => i.kind)).toEqual([
        'unknown-purchase',
      ]);

      // B's console marks B as the station it runs on.
      const consoleAtB = await call(b, 'console.snapshot', {});
      expect(consoleAtB.thisStationId).toBe('st-b');
      expect(consoleAtB.snapshot?.stations.map((s) => s.stationId)).toContain('st-b');

      // The store stops: B keeps counting what it last read (A's unknown purchase), marked.
      pgc.cluster.stop();
      try {
        const away = await until(async () => {
          const status = await call(b, 'station.status', {});
          return status.siteAttention?.current === false ? status : null;
        });
        expect(away.needsAttention).toBe(1);
        expect(away.siteAttention).toMatchObject({ count: 1, readAt: expect.any(String) });
        // B's Whole site list shows what it last read, marked, as the header counts it.
        const stale = await call(b, 'site.attention', {});
        expect(stale).toMatchObject({ reachable: false, readAt: expect.any(String) });
        expect(stale.note).toMatch(
          /^The site store at .+ does not answer \(.+\)\. These are the site's items as last read; they may have changed since\.$/,
        );
        expect(stale.items.map((i) => i.kind)).toEqual(['unknown-purchase']);
        // The console at B says what the store did and what the floor does, in its own words,
        // over the site as B last read it.
        const consoleAway = await call(b, 'console.snapshot', {});
        expect(consoleAway).toMatchObject({ reachable: false, readAt: expect.any(String) });
        expect(consoleAway.snapshot?.stations.map((s) => s.stationId)).toContain('st-b');
        expect(consoleAway.note).toMatch(
          /^The site store at .+ does not answer \(.+\)\. The console shows the site again as soon as it answers; meanwhile every station packs on its own and sends its labels when the store is back\.$/,
        );
      } finally {
        pgc.cluster.start();
      }
      await until(async () => (await call(b, 'station.status', {})).siteAttention?.current);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);

  it('a console opened for the first time while the store is away shows the site as this station last read it', async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = siteStation(tempDir());
    const b = siteStation(tempDir());
    const c = siteStation(tempDir());
    await Promise.all([a.start(), b.start(), c.start()]);
    /** When the station last read the console's picture of the site on its own (no console open). */
    const readAt = (s: Station) => s.context.siteConsole?.readAt(s.context.runtime()) ?? null;
    try {
      // A checks in first, so B's first check-in reads the site with both stations in it.
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      await until(() => readAt(a));
      await linkToSite(b, site.stationUrl, 'st-b', 'Station B');
      await until(() => readAt(b));
      // C has never reached the store: its address leads nowhere.
      const closedPort = site.stationUrl.replace(`:${pgc.cluster.port}/`, ':1/');
      await linkToSite(c, closedPort, 'st-c', 'Station C');

      pgc.cluster.stop();
      try {
        // Nobody has opened B's console: its first read, in the outage, is the site as last read.
        const away = await call(b, 'console.snapshot', {});
        expect(away).toMatchObject({
          reachable: false,
          thisStationId: 'st-b',
          readAt: readAt(b),
        });
        expect(away.note).toMatch(
          /^The site store at .+ does not answer \(.+\)\. The console shows the site again as soon as it answers; meanwhile every station packs on its own/,
        );
        expect(away.snapshot?.stations.map((s) => [s.stationId, s.stationName])).toEqual([
          ['st-a', 'Station A'],
          ['st-b', 'Station B'],
        ]);
        expect(away.brands).not.toEqual({});
        // C never read the site: it says so, rather than a blank page.
        const never = await call(c, 'console.snapshot', {});
        expect(never).toMatchObject({ reachable: false, snapshot: null, thisStationId: 'st-c' });
        expect(never.note).toMatch(
          /^The site store has not answered since this station started: The site store at .+ does not answer \(.+\)\. The console shows the site as soon as it answers;/,
        );
      } finally {
        pgc.cluster.start();
      }
      // The store answers again: the site now.
      const back = await until(async () => {
        const view = await call(b, 'console.snapshot', {});
        return view.reachable ? view : null;
      });
      expect(back.readAt).toBeUndefined();
      expect(back.snapshot?.stations.map((s) => s.stationId)).toEqual(['st-a', 'st-b']);
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  }, 60_000);
});
