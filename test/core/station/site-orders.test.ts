import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { call, orderIdOf, packOrder, until } from './support.js';

// Orders, Whole site: every station's imports, with where each stands, from the site store.

const { stationsAandB } = siteStations();

describe('Orders, whole site', () => {
  it('the same file imported again at a station that fetched its orders from the store: the same orders, no labelled one said changed', async () => {
    const { a, b } = await stationsAandB();
    try {
      const file = JSON.stringify([candleOrder('RE-201', 'Ada'), candleOrder('RE-202', 'Bo')]);
      await call(a, 'orders.import', { fileName: 'wave-r.json', content: file });
      await synced(a);
      // B fetches both at its scans (the store's JSONB gives their keys in its own order) and
      // labels one.
      expect((await packOrder(b, 'RE-201')).label?.trackingNumber).toBeTruthy();
      await call(b, 'pack.scan', { value: 'RE-202' });
      await synced(b);

      // The next wave's file: the same two orders and a new one.
      const next = JSON.stringify([
        candleOrder('RE-201', 'Ada'),
        candleOrder('RE-202', 'Bo'),
        candleOrder('RE-203', 'Cy'),
      ]);
      const again = await call(b, 'orders.import', { fileName: 'wave-r2.json', content: next });
      expect(again).toMatchObject({ imported: 1, skipped: 0, alreadyImported: 2, errors: [] });
      expect(again.labelledChanged ?? []).toEqual([]);
      await synced(b);
      // Which station imported them stays A (the new one is B's).
      const listed = await call(a, 'site.orders', { query: 'RE-20' });
      expect(Object.fromEntries(listed.orders.map((o) => [o.orderNumber, o.stationName]))).toEqual({
        'RE-201': 'Station A',
        'RE-202': 'Station A',
        'RE-203': 'Station B',
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("lists every station's orders with where each stands, searched by number and state", async () => {
    const { a, b } = await stationsAandB();
    try {
      const file = [
        candleOrder('WSO-101', 'Ada Rivera'),
        candleOrder('WSO-102', 'Bo Chen'),
        candleOrder('wso-103', 'Cy Diaz'),
      ];
      await call(a, 'orders.import', { fileName: 'wave-w.json', content: JSON.stringify(file) });
      await synced(a);

      // At B, which imported none of them: all three, from Station A, open.
      const atB = await call(b, 'site.orders', { query: 'wso-' });
      expect(atB.more).toBe(false);
      expect(atB.orders.map((o) => o.orderNumber).sort()).toEqual([
        'WSO-101',
        'WSO-102',
        'wso-103',
      ]);
      expect(atB.orders.find((o) => o.orderNumber === 'WSO-101')).toMatchObject({
        shipTo: 'Ada Rivera, Austin',
        stationName: 'Station A',
        here: false,
        state: 'open',
        stateText: 'Open',
        brandName: expect.any(String),
      });
      // At A they are its own.
      const atA = await call(a, 'site.orders', { query: 'WSO-101' });
      expect(atA.orders).toEqual([expect.objectContaining({ orderNumber: 'WSO-101', here: true })]);

      // B labels WSO-101 (fetched at its scan); A's lead cancels WSO-102.
      await call(b, 'settings.update', { userName: 'bea' });
      expect((await packOrder(b, 'WSO-101')).label?.trackingNumber).toBeTruthy();
      await call(a, 'orders.cancel', {
        orderIds: [await orderIdOf(a, 'WSO-102')],
        reason: 'customer called',
      });
      await Promise.all([synced(a), synced(b)]);

      // At A, which imported WSO-101, once it keeps B's label: labelled, not open (nothing to
      // buy; a batch skips it before asking), and where.
      const bought = a.context.db
        .prepare(`SELECT tracking_number FROM site_labelled_elsewhere WHERE order_number = ?`)
        .pluck();
      const trackingAtB = await until(() => bought.get('WSO-101') as string | undefined);
      const ownPage = await call(a, 'orders.page', { search: 'WSO-' });
      expect(ownPage.rows.find((o) => o.orderNumber === 'WSO-101')).toMatchObject({
        status: 'labelled',
        reason: `labelled at Station B by bea (${trackingAtB}): reprint it from Pack or History (whole site)`,
      });
      expect(ownPage.counts).toMatchObject({ open: 1, labelled: 1, cancelled: 1 });
      const openOnly = await call(a, 'orders.page', { search: 'WSO-', statuses: ['open'] });
      expect(openOnly.rows.map((o) => o.orderNumber)).toEqual(['wso-103']);

      const states = async (s: Station, q: Parameters<typeof call<'site.orders'>>[2]) =>
        Object.fromEntries(
          (await call(s, 'site.orders', q)).orders.map((o) => [o.orderNumber, o.stateText]),
        );
      expect(await states(a, { query: 'WSO' })).toEqual({
        'WSO-101': expect.stringMatching(/^Labelled at Station B by bea, \d\d:\d\d$/),
        'WSO-102': expect.stringMatching(/^Cancelled at Station A by .+: customer called$/),
        'wso-103': 'Open',
      });
      expect(Object.keys(await states(b, { state: 'cancelled' }))).toEqual(['WSO-102']);
      expect(Object.keys(await states(b, { query: 'wso-1', state: 'labelled' }))).toEqual([
        'WSO-101',
      ]);
      // A number's start is a prefix, not a part: "SO-1" finds none of them.
      expect(await states(b, { query: 'SO-1' })).toEqual({});
      // Another brand than the orders': none of them.
      expect(await states(b, { query: 'WSO', tenantId: 'tnt_nobody' })).toEqual({});

      // B's lead voids that label at the carrier (wrong address): A's row, from the label it
      // keeps of B's, says so and what next (asked of the store: the kept labels carry no marks).
      const labelAtB = (
        await call(b, 'labels.search', { query: trackingAtB, limit: 10, offset: 0 })
      ).labels[0]!;
      await call(b, 'labels.markVoided', {
        id: labelAtB.id,
        voided: true,
        reason: 'wrong address',
      });
      const rowAtA = async () => (await call(a, 'orders.page', { search: 'WSO-101' })).rows[0];
      await until(async () => (await rowAtA())?.reason?.includes('voided') === true);
      expect(await rowAtA()).toMatchObject({
        status: 'labelled',
        reason: `labelled at Station B by bea (${trackingAtB}), and that label was voided at the carrier there (wrong address): buy another at Pack (scan it, then Ctrl+Shift+A)`,
      });

      // The store away: said, in the station's words, not an empty list.
      await call(b, 'site.configure', {
        siteStore: {
          url: `postgres://shipping_station@127.0.0.1:1/none`,
          stationId: 'st-b',
          stationName: 'Station B',
        },
      });
      expect(await b.dispatch('site.orders', {})).toMatchObject({
        ok: false,
        error: {
          code: 'site-store-unreachable',
          message: expect.stringMatching(
            /does not answer .*: the site's orders cannot be listed now\. This station's own are under This station\.$/,
          ),
        },
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
