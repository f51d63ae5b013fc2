import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { siteStations } from './site-stations.js';
import { call, packOrder, scanOrder, until } from './support.js';

// An order another station was buying when this station last asked the store, then the store
// goes away: the site's offline rule (allow) must not buy it here too (a second charge found
// only when the store answers again).

const { sandbox, stationsAandB, bThroughRelay } = siteStations();

async function buyAtB(b: Station, orderNumber: string, confirmed = false) {
  const scan = await scanOrder(b, orderNumber);
  const quote = await call(b, 'pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs: 1.8, boxId: null }],
  });
  return b.dispatch('pack.buy', {
    shipmentId: quote.shipmentId,
    ...(confirmed ? { confirmAnother: true } : {}),
  });
}

const labelsFor = (order: string) =>
  sandbox()
    .ledger()
    .filter((e) => e.orderReference?.startsWith(order));

describe('an order another station was buying, the store then away', () => {
  it('is refused offline from what the store said, not bought a second time; the packer may still choose to', async () => {
    const { site, a, b } = await stationsAandB();
    const proxy = await bThroughRelay(site, b);
    try {
      await call(a, 'settings.update', { userName: 'ana' });
      // A's label request takes its time at the platform: A holds the order's claim meanwhile.
      const held = sandbox().faults.add({
        method: 'POST',
        path: '/api/v1/labels',
        kind: 'delay',
        delayMs: 4000,
        times: 1,
      });
      const atA = packOrder(a, 'LUM-10423');
      // A's label request is at the platform (its claim taken) before B's packer tries.
      await until(() => held.hits === 1);
      let first;
      await until(async () => {
        first = await buyAtB(b, 'LUM-10423');
        return !first.ok && /being labelled at Station A right now/.test(first.error.message);
      });

      // The store goes away before A's label reaches it; B's packer presses Ctrl+Enter again.
      await proxy.cut();
      const again = await buyAtB(b, 'LUM-10423');
      expect(again.ok).toBe(false);
      if (again.ok) return;
      expect(again.error).toMatchObject({
        code: 'order-claimed-elsewhere',
        message: expect.stringMatching(
          /^Order LUM-10423 was being labelled at Station A \(since \d\d:\d\d by ana\), as the site store said at \d\d:\d\d: whether that label was bought is not known here while the store is away\. Nothing was bought\. The site store at .* does not answer \(connection refused\)\..* Ctrl\+Shift\+A buys another label all the same\.$/,
        ),
      });
      await atA;
      expect(labelsFor('LUM-10423')).toHaveLength(1);

      // The packer chooses to buy another all the same: bought offline, said so.
      const chosen = await buyAtB(b, 'LUM-10423', true);
      expect(chosen.ok).toBe(true);
      expect(labelsFor('LUM-10423')).toHaveLength(2);
      // An order the store said nothing about is bought offline as before.
      expect((await packOrder(b, 'LUM-10424')).label).toBeTruthy();
    } finally {
      await proxy.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
