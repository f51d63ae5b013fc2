import { describe, expect, it } from 'vitest';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { call, scanOrder, until } from './support.js';

// A site store that answers but cannot take a claim in time (a lock held by maintenance, a long
// migration): not an outage. Buying under the site's offline rule there bought one order at two
// stations; nothing is bought until the store takes the claim.

const { stationsAandB, sandbox } = siteStations();

describe('a site store that answers but is busy', () => {
  it('buys nothing while a lock holds the order claims, says so, and buys once it is free', async () => {
    const { site, a, b } = await stationsAandB();
    const locker = await site.owner.pool.connect();
    try {
      const file = JSON.stringify([candleOrder('BUSY-1', 'Ada')]);
      await call(a, 'orders.import', { fileName: 'busy.json', content: file });
      await synced(a);
      const scan = await scanOrder(a, 'BUSY-1');
      const quote = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      const ledger = sandbox().ledger().length;

      // Site IT's maintenance holds the claims table longer than a station's statements may run.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE site_order_claims IN ACCESS EXCLUSIVE MODE');
      const refused = await a.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'site-store-unreachable',
          message: expect.stringMatching(
            /^The site store at .+ answers, but did not finish in time \(canceling statement due to statement timeout\): it is busy .+ Nothing was bought: without the site's answer another station may be buying this order right now\. Press Ctrl\+Enter again in a moment/,
          ),
        },
      });
      expect(sandbox().ledger()).toHaveLength(ledger);
      await locker.query('COMMIT');

      // Free again: the same rates are bought, once.
      const again = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      const bought = await call(a, 'pack.buy', { shipmentId: again.shipmentId });
      expect(bought.label?.trackingNumber).toBeTruthy();
      expect(sandbox().ledger()).toHaveLength(ledger + 1);
    } finally {
      locker.release();
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 30_000);

  it('an order waiting in the offline queue waits on while the claims are held, and is bought once they are free', async () => {
    const { site, a, b } = await stationsAandB();
    const locker = await site.owner.pool.connect();
    try {
      const file = JSON.stringify([candleOrder('BUSY-2', 'Bo')]);
      await call(a, 'orders.import', { fileName: 'busy2.json', content: file });
      await synced(a);
      const scan = await scanOrder(a, 'BUSY-2');
      // Queued while the platform's rates fail (Ctrl+Enter queues).
      sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 503 });
      const queued = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
        queue: true,
      });
      expect(queued.queued).toBe(true);
      const ledger = sandbox().ledger().length;

      // The platform is back while site IT's maintenance holds the claims.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE site_order_claims IN ACCESS EXCLUSIVE MODE');
      sandbox().faults.clear();
      const entry = () =>
        call(a, 'queue.list', {}).then((q) => q.shipments.find((x) => x.orderNumber === 'BUSY-2'));
      await call(a, 'queue.retry', { kind: 'shipment', id: (await entry())!.id });
      const waiting = await until(async () => {
        const e = await entry();
        return e && /did not finish in time/.test(e.lastError ?? '') ? e : null;
      });
      expect(waiting.state).toBe('waiting');
      expect(sandbox().ledger()).toHaveLength(ledger);
      await locker.query('COMMIT');

      await call(a, 'queue.retry', { kind: 'shipment', id: waiting.id });
      await until(async () => ((await entry()) ? null : true));
      expect(sandbox().ledger()).toHaveLength(ledger + 1);
    } finally {
      locker.release();
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 40_000);
});
