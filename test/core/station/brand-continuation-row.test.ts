import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest, threePl } from './support.js';
import { threePlWithWms, WMS_HEADER } from './wms-export.js';

/**
 * Trial of 2026-11-29 (late night): a 3PL's export writes an order's brand on its first row only
 * (row 1 "Driftwood Coffee Co.", its next rows blank). A blank brand cell was read as the
 * profile's own tenant, so one order became two (the brand's and the 3PL's own, each with part
 * of the items), said as a shared order number.
 */
const stations = demoStationsPerTest();

const HEADER =
  'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,package,weight_lbs,sku,quantity';
const ADDRESS = 'Ada Okafor,12 Elm St,Dayton,OH,45402,US';
const row = (order: string, brand: string, address: string, pkg: number, sku: string) =>
  `${order},${brand},${address},${pkg},1.5,${sku},1`;
const NO_ADDRESS = ',,,,,';

describe('a continuation row with a blank brand cell', () => {
  it("is the brand of its order's other rows: one order with all its packages and items", async () => {
    const { s, sandbox } = await stations.start();
    await threePl(s, sandbox().url);
    const report = await call(s, 'orders.import', {
      fileName: '3pl.csv',
      content: [
        HEADER,
        // The brand on the first row only, the address too.
        row('DW-1', 'Driftwood Coffee Co.', ADDRESS, 1, 'BEANS-1'),
        row('DW-1', '', NO_ADDRESS, 2, 'MUG-2'),
        row('DW-1', '', NO_ADDRESS, 2, 'FILTER-3'),
        // The brand on a later row, the address repeated on each.
        row('DW-2', '', ADDRESS, 1, 'BEANS-1'),
        row('DW-2', 'tnt_driftwood', ADDRESS, 1, 'MUG-2'),
        // No brand on any row: the 3PL's own order, as designed.
        row('HB-1', '', ADDRESS, 1, 'BOX-1'),
        row('HB-1', '', NO_ADDRESS, 1, 'TAPE-2'),
      ].join('\n'),
    });
    expect(report.errors).toEqual([]);
    expect(report.sharedNumbers).toBeUndefined();
    expect(report.imported).toBe(3);
    const one = await call(s, 'orders.list', { search: 'DW-1' });
    expect(one).toHaveLength(1);
    expect(one[0]!.brandName).toBe('Driftwood Coffee Co.');
    expect(one[0]!.packages.map((p) => p.items.map((i) => i.sku))).toEqual([
      ['BEANS-1'],
      ['MUG-2', 'FILTER-3'],
    ]);
    const two = await call(s, 'orders.list', { search: 'DW-2' });
    expect(two.map((o) => [o.brandName, o.items.map((i) => i.sku)])).toEqual([
      ['Driftwood Coffee Co.', ['BEANS-1', 'MUG-2']],
    ]);
    const own = await call(s, 'orders.list', { search: 'HB-1' });
    expect(own.map((o) => [o.brandName, o.items.map((i) => i.sku)])).toEqual([
      ['Harbor Fulfillment', ['BOX-1', 'TAPE-2']],
    ]);
  });

  it('stays the profile’s own tenant where the rows name two brands, or it names another person', async () => {
    const { s, sandbox } = await stations.start();
    await threePl(s, sandbox().url);
    const report = await call(s, 'orders.import', {
      fileName: '3pl.csv',
      content: [
        HEADER,
        row('MIX-1', 'Driftwood Coffee Co.', ADDRESS, 1, 'BEANS-1'),
        row('MIX-1', 'Pinecrest Outdoor Supply', ADDRESS, 1, 'TENT-1'),
        row('MIX-1', '', ADDRESS, 1, 'BOX-1'),
        row('OWN-1', 'Driftwood Coffee Co.', ADDRESS, 1, 'BEANS-1'),
        row('OWN-1', '', 'Ana Harbor,1 Dock Rd,Edison,NJ,08817,US', 1, 'BOX-1'),
      ].join('\n'),
    });
    expect(report.errors).toEqual([]);
    expect(report.imported).toBe(5);
    expect(report.sharedNumbers?.map((n) => n.orderNumber)).toEqual(['MIX-1', 'MIX-1', 'OWN-1']);
    const mixed = await call(s, 'orders.list', { search: 'MIX-1' });
    expect(mixed.map((o) => [o.brandName, o.items.map((i) => i.sku)]).sort()).toEqual([
      ['Driftwood Coffee Co.', ['BEANS-1']],
      ['Harbor Fulfillment', ['BOX-1']],
      ['Pinecrest Outdoor Supply', ['TENT-1']],
    ]);
    const own = await call(s, 'orders.list', { search: 'OWN-1' });
    expect(own.map((o) => [o.brandName, o.shipTo.name]).sort()).toEqual([
      ['Driftwood Coffee Co.', 'Ada Okafor'],
      ['Harbor Fulfillment', 'Ana Harbor'],
    ]);
  });

  it('in a mapped export (the brand column named by a saved mapping) is the same', async () => {
    const { s, sandbox } = await stations.start();
    await threePlWithWms(s, sandbox().url);
    const report = await call(s, 'orders.import', {
      fileName: 'wms.csv',
      content: [
        WMS_HEADER,
        'WM-1,Driftwood Coffee Co.,Ada Okafor,12 Elm St,Dayton,OH,45402,US,1,1.5,BEANS-1,1',
        'WM-1,,,,,,,,2,1.5,MUG-2,1',
      ].join('\n'),
    });
    expect(report.errors).toEqual([]);
    expect(report.sharedNumbers).toBeUndefined();
    expect(report.imported).toBe(1);
    const listed = await call(s, 'orders.list', { search: 'WM-1' });
    expect(listed.map((o) => [o.brandName, o.packages.length])).toEqual([
      ['Driftwood Coffee Co.', 2],
    ]);
  });
});
