import { describe, expect, it } from 'vitest';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { call, until } from './support.js';

// A shift lead's trial (2026-11-29, evening): an order imported at Station A, rated there, then
// a corrected file with a new address imported at Station B. A bought the label to the old
// address (the store held B's version; A never looked), and a scan at A showed the old one too.

const { sandbox, stationsAandB } = siteStations();

const sold = (orderNumber: string) =>
  sandbox()
    .ledger()
    .filter((e) => e.orderReference?.startsWith(orderNumber)).length;

const corrected = {
  ...candleOrder('COR-7001'),
  shipTo: { ...candleOrder('COR-7001').shipTo, addressLine1: '77 Lake Shore Dr' },
};

describe('an order corrected at another station of the site', () => {
  it('is not bought at its old address where it was first imported, and the next scan shows the new one', async () => {
    const { a, b } = await stationsAandB();
    try {
      await call(a, 'orders.import', {
        fileName: 'wave-1.json',
        content: JSON.stringify([candleOrder('COR-7001'), candleOrder('COR-7002')]),
      });
      await synced(a);
      const scan = await call(a, 'pack.scan', { value: 'COR-7001' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      expect(scan.order.shipTo.addressLine1).toBe('1 Main St');
      const quote = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });

      // The correction comes in at B while A's packer has the rates on screen.
      await call(b, 'orders.import', {
        fileName: 'wave-1-fixed.json',
        content: JSON.stringify([corrected]),
      });
      await synced(b);

      expect(await a.dispatch('pack.buy', { shipmentId: quote.shipmentId })).toMatchObject({
        ok: false,
        error: {
          // Its own code, and what changed: Pack shows the order as it is now and rates it again.
          code: 'order-changed',
          message: expect.stringMatching(
            /^Order COR-7001 was imported again after it was rated \(its ship-to is now Ada, 77 Lake Shore Dr, Austin, TX, 78701, US\): those rates are for its old version, so nothing was bought\./,
          ),
          details: { changed: 'its ship-to is now Ada, 77 Lake Shore Dr, Austin, TX, 78701, US' },
        },
      });
      expect(sold('COR-7001')).toBe(0);

      // Scanned again: the new address, bought there.
      const again = await call(a, 'pack.scan', { value: 'COR-7001' });
      if (again.kind !== 'order') throw new Error(again.kind);
      expect(again.order.shipTo.addressLine1).toBe('77 Lake Shore Dr');
      const rated = await call(a, 'pack.rate', {
        orderId: again.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      expect(await a.dispatch('pack.buy', { shipmentId: rated.shipmentId })).toMatchObject({
        ok: true,
      });
      expect(sold('COR-7001')).toBe(1);

      // An order nobody corrected stays A's own (its scan asked the store and found A's own
      // version there): A still sends its changes, so a cancel there reaches B.
      const other = await call(a, 'pack.scan', { value: 'COR-7002' });
      if (other.kind !== 'order') throw new Error(other.kind);
      expect(other.order.shipTo.addressLine1).toBe('1 Main St');
      await call(a, 'orders.cancel', { orderIds: [other.order.id], reason: 'store cancelled' });
      await synced(a);
      const atB = await call(b, 'pack.scan', { value: 'COR-7002' });
      if (atB.kind !== 'order') throw new Error(atB.kind);
      expect(
        await b.dispatch('pack.rate', {
          orderId: atB.order.id,
          packages: [{ weightLbs: 2, boxId: null }],
        }),
      ).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/^Order COR-7002 was cancelled at Station A/) },
      });
      expect(sold('COR-7002')).toBe(0);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('is bought at its new address by a batch at the station that first imported it', async () => {
    const { a, b } = await stationsAandB();
    try {
      await call(a, 'orders.import', {
        fileName: 'wave-2.json',
        content: JSON.stringify([candleOrder('COR-7101')]),
      });
      await synced(a);
      await call(b, 'orders.import', {
        fileName: 'wave-2-fixed.json',
        content: JSON.stringify([{ ...corrected, orderNumber: 'COR-7101' }]),
      });
      await synced(b);

      // Picked in Orders (no scan: a scan would take the new version first).
      const row = (await call(a, 'orders.page', { search: 'COR-7101' })).rows[0]!;
      const batch = await call(a, 'batch.start', { orderIds: [row.id] });
      await until(async () =>
        (await call(a, 'batch.list', {})).find((x) => x.id === batch.id && x.state === 'done'),
      );
      expect(sold('COR-7101')).toBe(1);
      const bought = a.context.db
        .prepare<[], { shipment: string }>(
          `SELECT s.shipment FROM shipments s JOIN orders o ON o.id = s.order_id
            WHERE o.order_number = 'COR-7101' AND s.state IN ('purchased', 'print-queued')`,
        )
        .all()
        .map((r) => (JSON.parse(r.shipment) as { shipTo: { addressLine1: string } }).shipTo);
      expect(bought.map((t) => t.addressLine1)).toEqual(['77 Lake Shore Dr']);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('is not bought at its old address by the offline queue where it was first imported', async () => {
    const { a, b } = await stationsAandB();
    try {
      await call(a, 'orders.import', {
        fileName: 'wave-3.json',
        content: JSON.stringify([candleOrder('COR-7201')]),
      });
      await synced(a);
      const scan = await call(a, 'pack.scan', { value: 'COR-7201' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      // The platform does not answer: the packer queues the order (Ctrl+Enter on "Queue for
      // the platform"); it waits in A's offline queue.
      await a.context.runtime().drainer.stop();
      sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'reset' });
      try {
        const queued = await call(a, 'pack.rate', {
          orderId: scan.order.id,
          packages: [{ weightLbs: 2, boxId: null }],
          queue: true,
        });
        expect(queued.queued).toBe(true);
      } finally {
        sandbox().faults.clear();
      }

      await call(b, 'orders.import', {
        fileName: 'wave-3-fixed.json',
        content: JSON.stringify([{ ...corrected, orderNumber: 'COR-7201' }]),
      });
      await synced(b);

      const [drained] = await a.context.runtime().drainer.drain(true);
      expect(drained?.message).toMatch(
        /^Order COR-7201 was imported again after it was rated \(its ship-to is now Ada, 77 Lake Shore Dr, /,
      );
      expect(sold('COR-7201')).toBe(0);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
