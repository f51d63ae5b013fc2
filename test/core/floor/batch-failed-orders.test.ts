import { describe, expect, it } from 'vitest';
import { importOrders } from '../../../src/core/orders/order-import.js';
import { OrderList } from '../../../src/core/orders/order-list.js';
import { BatchRunner } from '../../../src/core/packing/batch.js';
import { attentionList, workCounts } from '../../../src/core/packing/attention.js';
import { cancelOrders } from '../../../src/core/packing/order-cancel.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { useSandbox } from '../../support/sandbox.js';
import { orderId, stationFor, type TestStation } from '../packing/support/harness.js';
import { lumenProfile, tenantPolicy } from '../packing/support/station.js';

// A batch's orders that fail before a shipment exists (no weight, customs data missing) are
// *failed* in the Orders view, with the batch's reason, until something puts them right.

const sb = useSandbox();

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,package,weight_lbs,sku,item_name,quantity';
const rows = {
  one: 'BF-1,Ann Lee,1 Main St,Evanston,IL,60201,US,1,1.2,MUG,Mug,1',
  noWeight: 'BF-2,Bo Diaz,2 Main St,Austin,TX,78702,US,1,,MUG,Mug,1',
  weighed: 'BF-2,Bo Diaz,2 Main St,Austin,TX,78702,US,1,2.5,MUG,Mug,1',
  // To Canada without customs data (description, harmonized code, origin).
  noCustoms: 'BF-3,Cy Park,3 King St W,Toronto,ON,M5H 1A1,CA,1,1.5,MUG,Mug,1',
  typedLater: 'BF-4,Di Wu,4 Main St,Portland,ME,04101,US,1,,MUG,Mug,1',
};

function importRows(s: TestStation, lines: string[], source: string) {
  return importOrders(s.workflow.orders, s.workflow.scope, tenantPolicy(s.workflow.profile), {
    text: [header, ...lines].join('\n'),
    format: 'csv',
    source,
  });
}

describe('a batch order that failed before a shipment existed, in the Orders view', () => {
  it('is failed with its reason until a re-import or a newer shipment puts it right', async () => {
    sb.clearFaults();
    const s = await stationFor((printers) => lumenProfile(sb.url, printers));
    importRows(s, [rows.one, rows.noWeight, rows.noCustoms, rows.typedLater], 'wave.csv');
    const list = new OrderList(s.db);
    const scope = s.workflow.scope;
    const ids = ['BF-1', 'BF-2', 'BF-3', 'BF-4'].map((n) => orderId(s, n));
    const [, two, three, four] = ids as [number, number, number, number];

    const runner = new BatchRunner(s.workflow, s.db);
    const summary = await runner.run(
      runner.create({ orderIds: ids, description: 'wave', createdBy: 'lee' }).id,
    );
    // What the batch reports is its own, as before.
    expect(summary).toMatchObject({ state: 'done', bought: 1, failed: 3 });
    const reason = (n: string) => summary.items.find((i) => i.orderNumber === n)!.reason;
    expect(reason('BF-2')).toBe('Package 1 of 1 has no weight; weigh it or type its weight.');
    expect(reason('BF-3')).toMatch(/^Order BF-3 goes to CA, and customs need: /);

    // The Orders view: failed, with the batch's reason, under the Failed filter too.
    const failed = list.page(scope, { statuses: ['failed'] });
    expect(failed.rows.map((r) => [r.orderNumber, r.status, r.reason])).toEqual([
      ['BF-4', 'failed', reason('BF-4')],
      ['BF-3', 'failed', reason('BF-3')],
      ['BF-2', 'failed', reason('BF-2')],
    ]);
    expect(failed.counts).toMatchObject({ open: 0, labelled: 1, failed: 3 });
    expect(list.ids(scope, { statuses: ['failed'] }, 500)).toEqual([four, three, two]);
    expect(list.page(scope, { statuses: ['labelled'] }).rows[0]).toMatchObject({
      orderNumber: 'BF-1',
      reason: null,
    });

    // Needs attention lists them too, as one entry for the batch (nothing to decide there: each
    // is put right at Pack or cancelled), and the header counts that entry.
    const batchItems = () =>
      attentionList(s.workflow, [], () => '').filter((a) => a.kind === 'batch-failed');
    expect(batchItems()).toEqual([
      expect.objectContaining({
        title: 'Batch (wave): 3 orders not bought',
        reasons: [`BF-2: ${reason('BF-2')}`, `BF-3: ${reason('BF-3')}`, `BF-4: ${reason('BF-4')}`],
        actions: [],
      }),
    ]);
    expect(workCounts(s.workflow, 0).needsAttention).toBe(1);

    // The same file imported again changes nothing: its orders are already here as they are.
    const same = importRows(s, [rows.noWeight, rows.noCustoms], 'wave.csv');
    expect(same.same).toEqual(['BF-2', 'BF-3']);
    expect(list.statusOf([two, three])).toEqual(
      new Map([
        [two, 'failed'],
        [three, 'failed'],
      ]),
    );

    // Re-imported with a weight (a new version of the order, as for scan to verify): open.
    importRows(s, [rows.weighed], 'wave-fixed.csv');
    expect(list.statusOf([two]).get(two)).toBe('open');

    // The weight typed at Pack and rated there: a newer shipment, so open again too.
    const rated = await s.workflow.rate(four, { packages: [{ weightLbs: 2 }], stationUser: 'ana' });
    expect(rated.outcome).toBe('rated');
    expect(list.statusOf([four]).get(four)).toBe('open');

    // Only BF-3 is left under Needs attention.
    expect(batchItems().map((a) => [a.title, a.orderNumber, a.reasons])).toEqual([
      ['Batch (wave): 1 order not bought', 'BF-3', [`BF-3: ${reason('BF-3')}`]],
    ]);

    // Nothing put BF-3 right: it stays failed, read from the file alone (as after a restart).
    const again = openDatabase(s.dbFile);
    try {
      const page = new OrderList(again).page(scope, { statuses: ['failed'] });
      expect(page.rows.map((r) => [r.orderNumber, r.reason])).toEqual([['BF-3', reason('BF-3')]]);
      expect(page.counts).toMatchObject({ open: 2, labelled: 1, failed: 1 });
    } finally {
      again.close();
    }

    // Cancelled (it will not ship): it leaves Needs attention, and the header's count.
    expect(cancelOrders(s.workflow, [three], 'lee', 'customer cancelled').done).toEqual(['BF-3']);
    expect(batchItems()).toEqual([]);
    expect(workCounts(s.workflow, 0).needsAttention).toBe(0);
  });
});
