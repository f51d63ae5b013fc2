import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { call, orderIdOf } from './support.js';

// An order a shift lead cancelled at one station of a site: the site store's order claim refuses
// it at every station (the cancel travels with the order), until it is reopened.

const { sandbox, stationsAandB } = siteStations();

/** Scans, rates and buys at the station; the buy's reply as it comes. */
async function buy(s: Station, orderNumber: string) {
  const scan = await call(s, 'pack.scan', { value: orderNumber });
  if (scan.kind !== 'order') throw new Error(`${orderNumber}: ${scan.kind}`);
  const quote = await s.dispatch('pack.rate', {
    orderId: scan.order.id,
    packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 2, boxId: null })),
  });
  if (!quote.ok) return quote;
  return s.dispatch('pack.buy', { shipmentId: (quote.value as { shipmentId: string }).shipmentId });
}

const sold = (orderNumber: string) =>
  sandbox()
    .ledger()
    .filter((e) => e.orderReference?.startsWith(orderNumber)).length;

describe('an order cancelled at one station of a site', () => {
  it('is refused at the other station by the site store, saying where and why; reopened, it ships', async () => {
    const { a, b } = await stationsAandB();
    try {
      await Promise.all([synced(a), synced(b)]);
      const id = await orderIdOf(a, 'LUM-10423');
      expect(await call(a, 'orders.cancel', { orderIds: [id], reason: 'store cancelled' })).toEqual(
        { done: ['LUM-10423'], left: [] },
      );
      await synced(a);

      const refused = await buy(b, 'LUM-10423');
      expect(refused).toMatchObject({
        ok: false,
        error: {
          message: expect.stringMatching(
            /^Order LUM-10423 was cancelled at Station A by packer \(store cancelled\): nothing (was|is) bought/,
          ),
        },
      });
      expect(sold('LUM-10423')).toBe(0);

      // Reopened at A: B buys it.
      await call(a, 'orders.reopen', { orderIds: [id], reason: 'Customer asked again' });
      await synced(a);
      expect(await buy(b, 'LUM-10423')).toMatchObject({ ok: true });
      expect(sold('LUM-10423')).toBe(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('an order fetched from the store, cancelled there, is refused at the station that imported it, and said as cancelled elsewhere', async () => {
    const { a, b } = await stationsAandB();
    try {
      const file = JSON.stringify([candleOrder('CAN-9001'), candleOrder('CAN-9002')]);
      await call(a, 'orders.import', { fileName: 'wave-c.json', content: file });
      await synced(a);
      // B fetches CAN-9001 at a scan (its copy is the store's), and a lead there cancels it.
      const id = await orderIdOf(b, 'CAN-9001');
      await call(b, 'orders.cancel', { orderIds: [id], reason: 'customer called' });
      await synced(b);
      expect(await buy(a, 'CAN-9001')).toMatchObject({
        ok: false,
        error: {
          message: expect.stringMatching(
            /^Order CAN-9001 was cancelled at Station B by packer \(customer called\): nothing was bought\./,
          ),
        },
      });
      expect(sold('CAN-9001')).toBe(0);

      // A lead at A cancels CAN-9002; B, fetching it after, has it cancelled, said at the scan's
      // rating with where it was cancelled.
      await call(a, 'orders.cancel', {
        orderIds: [await orderIdOf(a, 'CAN-9002')],
        reason: 'address fraud',
      });
      await synced(a);
      const scan = await call(b, 'pack.scan', { value: 'CAN-9002' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      expect(
        await b.dispatch('pack.rate', {
          orderId: scan.order.id,
          packages: [{ weightLbs: 2, boxId: null }],
        }),
      ).toMatchObject({
        ok: false,
        error: {
          message:
            'Order CAN-9002 was cancelled at Station A by packer (address fraud): nothing is bought for it. If it ships after all, a shift lead reopens it in Orders (Alt+8), here or at Station A.',
        },
      });
      const page = await call(b, 'orders.page', { statuses: ['cancelled'] });
      expect(page.rows.map((r) => r.orderNumber)).toContain('CAN-9002');
      expect(sold('CAN-9002')).toBe(0);

      // B fetched CAN-9003 at a scan while it was open; A's lead cancels it after. B's next scan
      // asks the store again and has it cancelled there and then, not first at the buy.
      await call(a, 'orders.import', {
        fileName: 'wave-d.json',
        content: JSON.stringify([candleOrder('CAN-9003')]),
      });
      await synced(a);
      const first = await call(b, 'pack.scan', { value: 'CAN-9003' });
      if (first.kind !== 'order') throw new Error(first.kind);
      const rate = (orderId: string) =>
        b.dispatch('pack.rate', { orderId, packages: [{ weightLbs: 2, boxId: null }] });
      expect(await rate(first.order.id)).toMatchObject({ ok: true });
      await call(a, 'orders.cancel', {
        orderIds: [await orderIdOf(a, 'CAN-9003')],
        reason: 'out of stock',
      });
      await synced(a);
      const again = await call(b, 'pack.scan', { value: 'CAN-9003' });
      if (again.kind !== 'order') throw new Error(again.kind);
      expect(await rate(again.order.id)).toMatchObject({
        ok: false,
        error: {
          code: 'order-cancelled',
          message: expect.stringMatching(
            /^Order CAN-9003 was cancelled at Station A by packer \(out of stock\): nothing is bought/,
          ),
        },
      });
      const cancelledAtB = await call(b, 'orders.page', { statuses: ['cancelled'] });
      expect(cancelledAtB.rows.map((r) => r.orderNumber)).toContain('CAN-9003');

      // A's lead reopens it: B's next scan has it open there and then (no lead needed at B),
      // and B sends nothing back to the store for it.
      await call(a, 'orders.reopen', {
        orderIds: [await orderIdOf(a, 'CAN-9003')],
        reason: 'back in stock',
      });
      await synced(a);
      await synced(b);
      const third = await call(b, 'pack.scan', { value: 'CAN-9003' });
      if (third.kind !== 'order') throw new Error(third.kind);
      const cancelledNow = async () =>
        (await call(b, 'orders.page', { statuses: ['cancelled'] })).rows.map((r) => r.orderNumber);
      expect(await cancelledNow()).not.toContain('CAN-9003');
      expect((await call(b, 'site.status', {})).header?.depth ?? 0).toBe(0);
      expect(await buy(b, 'CAN-9003')).toMatchObject({ ok: true });
      expect(sold('CAN-9003')).toBe(1);

      // B's own lead's cancel is not taken back by a store that has not heard of it yet.
      const mine = await orderIdOf(b, 'CAN-9001');
      await call(b, 'orders.reopen', { orderIds: [mine], reason: 'mistake' });
      await synced(b);
      await call(b, 'orders.cancel', { orderIds: [mine], reason: 'fraud check' });
      const rescan = await call(b, 'pack.scan', { value: 'CAN-9001' });
      if (rescan.kind !== 'order') throw new Error(rescan.kind);
      expect(await cancelledNow()).toContain('CAN-9001');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
