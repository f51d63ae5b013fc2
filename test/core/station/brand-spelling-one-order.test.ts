import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest, threePl } from './support.js';
import { threePlWithWms, WMS_HEADER } from './wms-export.js';

/**
 * Trial of 2026-11-29 (late): a 3PL's export spells one order's brand differently on its rows
 * ("Driftwood Coffee Co." on one, "driftwood coffee co." or its tenant id on another). The rows
 * were grouped into orders by the raw brand cell before the brand was read, so one order became
 * two of the same brand and number, and the second replaced the first: a package lost without a
 * word.
 */
const stations = demoStationsPerTest();

const row = (ref: string, brand: string, pkg: number, sku: string) =>
  `${ref},${brand},Ada Okafor,12 Elm St,Dayton,OH,45402,US,${pkg},1.5,${sku},1`;

describe('one order whose rows spell its brand differently', () => {
  it('is one order with every package and item of its rows', async () => {
    const { s, sandbox } = await stations.start();
    await threePlWithWms(s, sandbox().url);
    const report = await call(s, 'orders.import', {
      fileName: 'wms.csv',
      content: [
        WMS_HEADER,
        row('DW-1', 'Driftwood Coffee Co.', 1, 'BEANS-1'),
        row('DW-1', 'driftwood coffee co.', 2, 'MUG-2'),
        row('DW-1', 'tnt_driftwood', 2, 'FILTER-3'),
        row('DW-2', 'Driftwood Coffee Co.', 1, 'BEANS-1'),
        row('DW-2', 'tnt_driftwood', 1, 'MUG-2'),
        row('PC-1', 'Pinecrest Outdoor Supply', 1, 'TENT-1'),
      ].join('\n'),
    });
    expect(report.errors).toEqual([]);
    expect(report.imported).toBe(3);
    const listed = await call(s, 'orders.list', { search: 'DW-1' });
    expect(listed).toHaveLength(1);
    expect(listed[0]!.brandName).toBe('Driftwood Coffee Co.');
    expect(listed[0]!.packages.map((p) => p.items.map((i) => i.sku))).toEqual([
      ['BEANS-1'],
      ['MUG-2', 'FILTER-3'],
    ]);
    const two = await call(s, 'orders.list', { search: 'DW-2' });
    expect(two.map((o) => o.items.map((i) => i.sku))).toEqual([['BEANS-1', 'MUG-2']]);
  });

  it('in a JSON file, a second order of one brand and number spelled another way is said, not stored over the first', async () => {
    const { s, sandbox } = await stations.start();
    await threePl(s, sandbox().url);
    const order = (tenantId: string, sku: string) => ({
      orderNumber: 'DJ-1',
      tenantId,
      shipTo: {
        name: 'Ada Okafor',
        addressLine1: '12 Elm St',
        city: 'Dayton',
        stateProvince: 'OH',
        postalCode: '45402',
        countryCode: 'US',
      },
      packages: [{ weightLbs: 1.5, items: [{ sku, quantity: 1 }] }],
    });
    const report = await call(s, 'orders.import', {
      fileName: 'orders.json',
      content: JSON.stringify([
        order('Driftwood Coffee Co.', 'BEANS-1'),
        order('tnt_driftwood', 'MUG-2'),
      ]),
    });
    expect(report.imported).toBe(1);
    expect(report.errors).toEqual([
      expect.objectContaining({
        orderNumber: 'DJ-1',
        reason: expect.stringMatching(/^appears twice in the file/),
      }),
    ]);
    const listed = await call(s, 'orders.list', { search: 'DJ-1' });
    expect(listed.map((o) => o.items.map((i) => i.sku))).toEqual([['BEANS-1']]);
  });
});
