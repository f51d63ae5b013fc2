import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { call, demoStationsPerTest, harborProfile, type Sandbox } from './support.js';

/**
 * Trial of 2026-11-29 (night): a 3PL's export names each order's brand by name ("Kettle & Ash
 * Teas"), as people know it, in the column its saved mapping takes as the brand. Every row was
 * refused: a brand column took tenant ids only.
 */
const stations = demoStationsPerTest();

const HEADER = 'Ref #,Brand,Customer,Street,Town,St,Zip,Ctry,Parcel Wt,Item Code,Qty';
const row = (ref: string, brand: string) =>
  `${ref},${brand},Ada Okafor,12 Elm St,Dayton,OH,45402,US,1.5,SKU-1,1`;

const COLUMNS = {
  order_number: 'Ref #',
  tenant_id: 'Brand',
  ship_to_name: 'Customer',
  ship_to_address1: 'Street',
  ship_to_city: 'Town',
  ship_to_state: 'St',
  ship_to_postal_code: 'Zip',
  ship_to_country: 'Ctry',
  weight_lbs: 'Parcel Wt',
  sku: 'Item Code',
  quantity: 'Qty',
} as const;

async function harborWithMapping(s: Station, sandbox: Sandbox) {
  await call(s, 'profiles.create', harborProfile(sandbox.url, ['tnt_driftwood', 'tnt_pinecrest']));
  await call(s, 'orders.saveMapping', { name: 'Our WMS', columns: COLUMNS });
}

const brandsOf = async (s: Station, search: string) =>
  Object.fromEntries(
    (await call(s, 'orders.list', { search })).map((o) => [o.orderNumber, o.brandName]),
  );

describe("a mapped brand column that names the profile's brands by name", () => {
  it('takes a name in any case and spacing, or a tenant id; a name of no brand is that row alone', async () => {
    const { s, sandbox } = await stations.start();
    await harborWithMapping(s, sandbox());
    const report = await call(s, 'orders.import', {
      fileName: 'wms.csv',
      content: [
        HEADER,
        row('BN-1', 'Driftwood Coffee Co.'),
        row('BN-2', '"  pinecrest   OUTDOOR supply "'),
        row('BN-3', 'Kettle & Ash Teas'),
        row('BN-4', 'tnt_driftwood'),
        row('BN-5', 'Driftwood Coffee'),
      ].join('\n'),
    });
    expect(report.imported).toBe(3);
    expect(report.errors).toEqual([
      expect.objectContaining({
        orderNumber: 'BN-3',
        reason: expect.stringMatching(
          /^"Kettle & Ash Teas" is neither the name nor the tenant id of a brand this profile ships for \(it ships for .*Driftwood Coffee Co\. \(tnt_driftwood\), Pinecrest Outdoor Supply \(tnt_pinecrest\).*\)\. If it is a brand this station packs for, the profile must list it: Settings → Brands/,
        ),
      }),
      expect.objectContaining({
        orderNumber: 'BN-5',
        reason: expect.stringMatching(/^"Driftwood Coffee" is neither the name nor the tenant id/),
      }),
    ]);
    expect(await brandsOf(s, 'BN-')).toEqual({
      'BN-1': 'Driftwood Coffee Co.',
      'BN-2': 'Pinecrest Outdoor Supply',
      'BN-4': 'Driftwood Coffee Co.',
    });
  });

  it('refuses a name two brands of the profile have, naming both', async () => {
    const { s, sandbox } = await stations.start();
    await harborWithMapping(s, sandbox());
    // Two brands under one name (as a provisioning file may name them).
    const harbor = s.context.profiles.list().find((p) => p.tenantId === 'tnt_harbor')!;
    await s.context.saveProfile({
      ...harbor,
      brandTenants: harbor.brandTenants.map((b) => ({ ...b, name: 'Coastal Goods' })),
    });
    const report = await call(s, 'orders.import', {
      fileName: 'wms.csv',
      content: [HEADER, row('BT-1', 'coastal goods'), row('BT-2', 'tnt_pinecrest')].join('\n'),
    });
    expect(report.imported).toBe(1);
    expect(report.errors).toEqual([
      expect.objectContaining({
        orderNumber: 'BT-1',
        reason:
          '"coastal goods" is the name of 2 brands of this profile: Coastal Goods (tnt_driftwood), Coastal Goods (tnt_pinecrest). Write the brand\'s tenant id in that column for these orders (or give the brands names of their own in Settings → Brands).',
      }),
    ]);
  });
});
