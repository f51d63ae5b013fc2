import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { call, demoStationsPerTest, type Sandbox, harborProfile } from './support.js';

const stations = demoStationsPerTest();

const HEADER =
  'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,length_in,width_in,height_in,sku,item_name,quantity';
const row = (tenant: string, name: string) =>
  `DUP-1,${tenant},${name},12 Elm St,Newark,NJ,07102,US,2,10,8,6,SKU-1,Mug,1`;

/** The demo sandbox's 3PL (Harbor Fulfillment) with its brand Driftwood Coffee Co. */
async function harborStation(s: Station, sandbox: Sandbox) {
  await call(s, 'profiles.create', harborProfile(sandbox.url, ['tnt_driftwood', 'tnt_pinecrest']));
}

describe('one order number under a 3PL and one of its brands (QA trial)', () => {
  it('is said at import, said by brand name at a scan, and each opens from Orders by its id', async () => {
    const { s, sandbox } = await stations.start();
    await harborStation(s, sandbox());

    // One file: DUP-1 for the 3PL itself (no tenant) and DUP-1 for its brand.
    const report = await call(s, 'orders.import', {
      fileName: 'dup.csv',
      content: [HEADER, row('', 'Ana Harbor'), row('tnt_driftwood', 'Dee Drift')].join('\n'),
    });
    expect(report.imported).toBe(2);
    expect(report.sharedNumbers).toHaveLength(1);
    const shared = report.sharedNumbers![0]!;
    expect(shared.where).toBe('row 3 (order DUP-1)');
    expect(shared.reason).toBe(
      "DUP-1 is also the number of an order of Harbor Fulfillment (row 2 of this file): a scan of DUP-1 on Pack cannot tell them apart, so open each from Orders (Alt+8), on its brand's row",
    );

    // A scan cannot choose: it names the brands as people know them, and how to choose.
    const scanned = await s.dispatch('pack.scan', { value: 'DUP-1' });
    expect(scanned.ok).toBe(false);
    if (scanned.ok) return;
    expect(scanned.error.message).toBe(
      '2 orders are numbered DUP-1, one each of Harbor Fulfillment and Driftwood Coffee Co.: a scan cannot tell which one is in hand. Open it from Orders (Alt+8): search DUP-1, go to the row of the brand on the packing slip and press Enter.',
    );
    expect(scanned.error.message).not.toMatch(/tnt_/);

    // Orders lists both; each row opens that very order on Pack, and it can be rated.
    const rows = await call(s, 'orders.list', { search: 'DUP-1' });
    expect(rows.map((o) => o.brandName).sort()).toEqual([
      'Driftwood Coffee Co.',
      'Harbor Fulfillment',
    ]);
    for (const listed of rows) {
      const opened = await call(s, 'pack.scan', { value: listed.orderNumber, orderId: listed.id });
      expect(opened.kind).toBe('order');
      if (opened.kind !== 'order') return;
      expect(opened.order.id).toBe(listed.id);
      expect(opened.order.tenantId).toBe(listed.tenantId);
      expect(opened.order.shipTo.name).toBe(
        listed.tenantId === 'tnt_driftwood' ? 'Dee Drift' : 'Ana Harbor',
      );
      const quote = await call(s, 'pack.rate', {
        orderId: opened.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      expect(quote.orderId).toBe(listed.id);
      expect(quote.rates.length).toBeGreaterThan(0);
    }

    // An id of no order of this profile is refused, not answered with another order.
    const stranger = await s.dispatch('pack.scan', { value: 'DUP-1', orderId: '999999' });
    expect(stranger.ok).toBe(false);
    if (!stranger.ok) expect(stranger.error.code).toBe('not-found');
  });

  it('says a number another brand had from an earlier file, and says it once', async () => {
    const { s, sandbox } = await stations.start();
    await harborStation(s, sandbox());
    const first = await call(s, 'orders.import', {
      fileName: 'monday.csv',
      content: [HEADER, row('tnt_pinecrest', 'Pat Pine')].join('\n'),
    });
    expect(first.sharedNumbers).toBeUndefined();
    const second = await call(s, 'orders.import', {
      fileName: 'tuesday.csv',
      content: [HEADER, row('tnt_driftwood', 'Dee Drift')].join('\n'),
    });
    expect(second.sharedNumbers?.map((e) => e.reason)).toEqual([
      "DUP-1 is also the number of an order of Pinecrest Outdoor Supply (imported before): a scan of DUP-1 on Pack cannot tell them apart, so open each from Orders (Alt+8), on its brand's row",
    ]);
    // The same file again brings nothing new: nothing said twice.
    const again = await call(s, 'orders.import', {
      fileName: 'tuesday.csv',
      content: [HEADER, row('tnt_driftwood', 'Dee Drift')].join('\n'),
    });
    expect(again.sharedNumbers).toBeUndefined();
  });
});
