import { describe, expect, it } from 'vitest';
import { importOrders } from '../../../src/core/orders/order-import.js';
import { OrderList } from '../../../src/core/orders/order-list.js';
import { BatchRunner } from '../../../src/core/packing/batch.js';
import { cancelOrders, reopenOrders } from '../../../src/core/packing/order-cancel.js';
import { OfflineQueueDrainer } from '../../../src/core/packing/offline-drainer.js';
import { PRE_RATE_CANDIDATES_SQL } from '../../../src/core/packing/pre-rating.js';
import { useSandbox } from '../../support/sandbox.js';
import { waitUntil } from '../../support/virtual-printer.js';
import { ledgerFor, orderId, stationFor, statusDrift } from '../packing/support/harness.js';
import { lumenProfile, tenantPolicy } from '../packing/support/station.js';

// An order the store cancelled: a shift lead cancels it at the station, and nothing buys it.

const sb = useSandbox();

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,package,weight_lbs,sku,item_name,quantity';
const rows = [
  'CAN-1,Ann Lee,1 Main St,Evanston,IL,60201,US,1,1.2,MUG,Mug,1',
  'CAN-2,Bo Diaz,2 Main St,Austin,TX,78702,US,1,2,MUG,Mug,1',
  'CAN-3,Cy Park,3 Main St,Boston,MA,02110,US,1,2.5,MUG,Mug,1',
];

async function station() {
  sb.clearFaults();
  const s = await stationFor((printers) => lumenProfile(sb.url, printers));
  const importFile = (lines: string[]) =>
    importOrders(s.workflow.orders, s.workflow.scope, tenantPolicy(s.workflow.profile), {
      text: [header, ...lines].join('\n'),
      format: 'csv',
      source: 'cancel.csv',
    });
  importFile(rows);
  return { ...s, importFile, list: new OrderList(s.db) };
}

describe('cancelling an order the store cancelled', () => {
  it('nothing buys a cancelled order: a scan, a batch, a re-import; reopened, it ships', async () => {
    const s = await station();
    const id = orderId(s, 'CAN-1');
    const soldBefore = (await ledgerFor(sb.url, 'CAN-1')).length;
    expect(cancelOrders(s.workflow, [id], 'lee', 'customer cancelled in Shopify')).toEqual({
      done: ['CAN-1'],
      left: [],
    });
    // The Orders view counts it apart, with who and why.
    const page = s.list.page(s.workflow.scope, { statuses: ['cancelled'] });
    expect(page.counts).toMatchObject({ cancelled: 1, open: 2 });
    expect(page.rows.map((r) => [r.orderNumber, r.reason])).toEqual([
      ['CAN-1', 'Cancelled by lee: customer cancelled in Shopify'],
    ]);
    expect(statusDrift(s.db)).toEqual([]);

    // A packer's scan and buy: refused, saying who cancelled it and how to reopen it.
    const shipped = await s.workflow.ship(id, { stationUser: 'ana' });
    expect(shipped).toMatchObject({
      outcome: 'invalid',
      failure: {
        code: 'order-cancelled',
        message:
          'Order CAN-1 was cancelled by lee (customer cancelled in Shopify): nothing is bought for it. If it ships after all, a shift lead reopens it in Orders (Alt+8).',
      },
    });
    expect(await s.workflow.rate(id, { stationUser: 'ana' })).toMatchObject({
      outcome: 'invalid',
      failure: { code: 'order-cancelled' },
    });

    // A batch of every order skips it (not a failure) and buys the others.
    const runner = new BatchRunner(s.workflow, s.db);
    const every = s.list.ids(s.workflow.scope, {}, 500);
    const batch = runner.create({ orderIds: every, description: 'all', createdBy: 'lee' });
    const done = await runner.run(batch.id);
    expect(done).toMatchObject({ bought: 2, skipped: 1, failed: 0 });
    expect(done.items.find((i) => i.orderNumber === 'CAN-1')!.reason).toMatch(
      /^Order CAN-1 was cancelled by lee/,
    );
    expect(await ledgerFor(sb.url, 'CAN-1')).toHaveLength(soldBefore);

    // The store's file again, with a new street: still cancelled (the lead's word stands), and
    // the import says so; the same file once more is nothing new, and says nothing.
    const again = s.importFile(['CAN-1,Ann Lee,9 Elm St,Evanston,IL,60201,US,1,1.2,MUG,Mug,1']);
    expect(again.updated).toEqual(['CAN-1']);
    expect(again.stillCancelled).toEqual([
      expect.objectContaining({
        orderNumber: 'CAN-1',
        reason: expect.stringMatching(/^updated from the file, and still cancelled here/),
      }),
    ]);
    expect(
      s.importFile(['CAN-1,Ann Lee,9 Elm St,Evanston,IL,60201,US,1,1.2,MUG,Mug,1']).stillCancelled,
    ).toBeUndefined();
    expect(s.workflow.orders.get(id)!.cancelled).toMatchObject({ by: 'lee' });
    expect(s.list.statusOf([id]).get(id)).toBe('cancelled');

    // Reopened: open again, and it ships.
    expect(reopenOrders(s.workflow, [id])).toEqual({ done: ['CAN-1'], left: [] });
    expect(s.list.statusOf([id]).get(id)).toBe('open');
    expect((await s.workflow.ship(id, { stationUser: 'ana' })).outcome).toBe('printed');
    expect(await ledgerFor(sb.url, 'CAN-1')).toHaveLength(soldBefore + 1);
    expect(statusDrift(s.db)).toEqual([]);
  });

  it('an order with a label, or with a purchase of unknown outcome, is left and said', async () => {
    const s = await station();
    expect((await s.workflow.ship(orderId(s, 'CAN-2'), { stationUser: 'ana' })).outcome).toBe(
      'printed',
    );
    sb.fault({ method: 'POST', path: '/api/v1/labels', kind: 'reset', times: 1 });
    expect((await s.workflow.ship(orderId(s, 'CAN-3'), { stationUser: 'ana' })).outcome).toBe(
      'unknown',
    );
    const out = cancelOrders(
      s.workflow,
      [orderId(s, 'CAN-1'), orderId(s, 'CAN-2'), orderId(s, 'CAN-3')],
      'lee',
      'store cancelled',
    );
    expect(out.done).toEqual(['CAN-1']);
    expect(out.left).toEqual([
      {
        orderNumber: 'CAN-2',
        reason: expect.stringMatching(
          /^has label \w+: the station cannot void it; void it at the carrier$/,
        ),
      },
      {
        orderNumber: 'CAN-3',
        reason: 'a purchase of it has an unknown outcome: settle it under Needs attention first',
      },
    ]);
    expect(s.list.statusOf([orderId(s, 'CAN-2')]).get(orderId(s, 'CAN-2'))).toBe('labelled');
  });

  it('an order whose label is being bought right now is left, said as that', async () => {
    const s = await station();
    const id = orderId(s, 'CAN-3');
    sb.fault({ method: 'POST', path: '/api/v1/labels', kind: 'delay', delayMs: 800, times: 1 });
    const shipping = s.workflow.ship(id, { stationUser: 'ana' });
    await waitUntil(() =>
      s.workflow.shipments.purchasesForOrder(id).some((p) => p.state === 'purchasing'),
    );
    expect(cancelOrders(s.workflow, [id], 'lee', 'store cancelled')).toEqual({
      done: [],
      left: [
        {
          orderNumber: 'CAN-3',
          reason:
            'a label is being bought for it right now: once it is bought, void it at the carrier, or cancel it again if it was not',
        },
      ],
    });
    expect((await shipping).outcome).toBe('printed');
  });

  it('a cancelled order waiting in the offline queue leaves it, and is not pre-rated', async () => {
    const s = await station();
    const id = orderId(s, 'CAN-1');
    const soldBefore = (await ledgerFor(sb.url, 'CAN-1')).length;
    // The platform is away: the order waits in the offline queue.
    sb.fault({ path: '/api/v1/rates', kind: 'status', status: 503 });
    expect((await s.workflow.ship(id, { stationUser: 'ana' })).outcome).toBe('queued');
    expect(s.list.statusOf([id]).get(id)).toBe('queued');
    expect(cancelOrders(s.workflow, [id], 'lee', 'store cancelled').done).toEqual([
      'CAN-1 (taken out of the offline queue)',
    ]);
    expect(s.list.statusOf([id]).get(id)).toBe('cancelled');
    expect(s.workflow.queue.forShipment(s.workflow.shipments.forOrder(id)[0]!.id)).toMatchObject({
      state: 'failed',
    });
    // The platform answers again: the queue buys nothing for it.
    sb.clearFaults();
    await new OfflineQueueDrainer(s.workflow).drain(true);
    expect(await ledgerFor(sb.url, 'CAN-1')).toHaveLength(soldBefore);

    // The pre-rater leaves it too (the others it rates).
    const candidates = s.db
      .prepare<[string, string, string, number], { orderId: number }>(PRE_RATE_CANDIDATES_SQL)
      .all(s.workflow.scope.profileId, s.workflow.scope.environment, '2000-01-01', 100)
      .map((c) => c.orderId);
    expect(candidates).not.toContain(id);
    expect(candidates).toContain(orderId(s, 'CAN-2'));

    // Labelled at another station of the site (as this station keeps their labels): left too.
    s.db
      .prepare(
        `INSERT INTO site_labelled_elsewhere (profile_id, environment, tenant_id, order_number,
           station_id, station_name, packer, claimed_at, label_local_id, tracking_number, learnt_at)
         SELECT profile_id, environment, tenant_id, order_number, 'st-b', 'Station B', 'bea',
                ?, 7, '1ZELSEWHERE', ? FROM orders WHERE id = ?`,
      )
      .run(new Date().toISOString(), Date.now(), orderId(s, 'CAN-2'));
    expect(
      s.db
        .prepare<[string, string, string, number], { orderId: number }>(PRE_RATE_CANDIDATES_SQL)
        .all(s.workflow.scope.profileId, s.workflow.scope.environment, '2000-01-01', 100)
        .map((c) => c.orderId),
    ).not.toContain(orderId(s, 'CAN-2'));
  });
});
