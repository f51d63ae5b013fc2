import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { call, demoStationsPerTest, scanOrder, type Sandbox, harborProfile } from './support.js';

/**
 * Trial J: a 3PL's own order file, read through a saved mapping. Its "Brand" column and its
 * weights in kilograms and ounces could not be mapped: every order came in as the 3PL's own
 * (no carrier account of its own: "No rates") and 1.2 kg was read as 1.2 lb, 14 oz as 14 lb.
 */
const stations = demoStationsPerTest();

async function harborStation(s: Station, sandbox: Sandbox) {
  await call(s, 'profiles.create', harborProfile(sandbox.url, ['tnt_driftwood', 'tnt_pinecrest']));
}

const FILE = [
  '\uFEFFRef #,Brand,Customer,Street,Town,St,Zip,Ctry,Parcel,Box,Parcel Wt,Wt Unit,Item Code,Qty',
  'BR-1,tnt_driftwood,"Okafor, Ada",12 Elm St,Dayton,OH,45402,US,1,BOX-M,1.2,kg,DW-EARL,2',
  'BR-2,tnt_pinecrest,Ben Tran,88 Pine Rd,Austin,TX,78701,US,1,,14,oz,PC-SOCK,1',
  'BR-2,tnt_pinecrest,Ben Tran,88 Pine Rd,Austin,TX,78701,US,2,,500,G,PC-BOOT,1',
  'BR-3,tnt_driftwood,Sam Lee,7 Harbor Way,Boston,MA,02110,US,1,,2.5,,DW-GIFT,1',
  'BR-4,tnt_driftwood,Ana Ruiz,77 Bay St,Miami,FL,33101,US,1,,3,stone,DW-MINT,1',
].join('\n');

const COLUMNS = {
  order_number: 'Ref #',
  tenant_id: 'Brand',
  ship_to_name: 'Customer',
  ship_to_address1: 'Street',
  ship_to_city: 'Town',
  ship_to_state: 'St',
  ship_to_postal_code: 'Zip',
  ship_to_country: 'Ctry',
  package: 'Parcel',
  box: 'Box',
  weight_lbs: 'Parcel Wt',
  sku: 'Item Code',
  quantity: 'Qty',
} as const;

const weights = async (s: Station, order: string) =>
  (await scanOrder(s, order)).order.packages.map((p) => p.weightLbs);

describe('a saved mapping of a 3PL file with brands and weights in kg and oz (trial J)', () => {
  it('reads the brand column, the parcel and box, and each row weight in its own unit', async () => {
    const { s, sandbox } = await stations.start();
    await harborStation(s, sandbox());
    await call(s, 'orders.saveMapping', {
      name: 'Our WMS',
      columns: COLUMNS,
      weightUnitColumn: 'Wt Unit',
    });
    const report = await call(s, 'orders.import', { fileName: 'wms.csv', content: FILE });
    expect(report.format).toBe('saved mapping "Our WMS"');
    expect(report.imported).toBe(3);
    expect(report.errors).toEqual([
      expect.objectContaining({
        orderNumber: 'BR-4',
        field: 'Parcel Wt',
        reason:
          '"stone" in Wt Unit is not a weight unit the station knows: write lb, oz, kg or g (or leave it empty for lb)',
      }),
    ]);
    const listed = await call(s, 'orders.list', { search: 'BR-' });
    expect(Object.fromEntries(listed.map((o) => [o.orderNumber, o.brandName]))).toEqual({
      'BR-1': 'Driftwood Coffee Co.',
      'BR-2': 'Pinecrest Outdoor Supply',
      'BR-3': 'Driftwood Coffee Co.',
    });
    // 1.2 kg = 2.65 lb, 14 oz = 0.88 lb, 500 g = 1.11 lb (rounded up, as Pack rounds a typed weight).
    expect(await weights(s, 'BR-1')).toEqual([2.65]);
    expect(await weights(s, 'BR-2')).toEqual([0.88, 1.11]);
    expect(await weights(s, 'BR-3')).toEqual([2.5]);
    expect((await scanOrder(s, 'BR-1')).order.packages[0]!.box).toBe('BOX-M');
    // The brand's own carrier accounts rate it (the 3PL has none that would).
    const scan = await scanOrder(s, 'BR-1');
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs, boxId: null })),
    });
    expect(quote.rates.length).toBeGreaterThan(0);
  });

  it('reads every weight of a file in the one unit the mapping names', async () => {
    const { s, sandbox } = await stations.start();
    await harborStation(s, sandbox());
    const { package: _p, box: _b, ...columns } = COLUMNS;
    await call(s, 'orders.saveMapping', { name: 'Grams', columns, weightUnit: 'g' });
    const report = await call(s, 'orders.import', {
      fileName: 'wms.csv',
      content: [
        FILE.split('\n')[0],
        'G-1,tnt_driftwood,Al,1 Main St,Reno,NV,89501,US,1,,907,,DW,1',
      ].join('\n'),
    });
    expect(report).toMatchObject({ imported: 1, errorCount: 0 });
    expect(await weights(s, 'G-1')).toEqual([2]);
  });
});
