import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { call, demoStationsPerTest, packOrder, rateOrder } from './support.js';

/**
 * Independent probes of issue 13 (items 7–22) through the station's contract, beyond what
 * first-day-packer/shift-lead already pin: rows of hand-written order files as a spreadsheet
 * numbers them, and History's paging of a search.
 */

const stations = demoStationsPerTest();
const station = async (): Promise<Station> => (await stations.start()).s;

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs';

describe('import errors name the row a spreadsheet shows (#13.22)', () => {
  it('counts a blank line as the row it is in a spreadsheet', async () => {
    const s = await station();
    // Row 1 header, row 2 OK-1, row 3 left empty, row 4 OK-2, row 5 BAD-5.
    const content = [
      header,
      'OK-1,Ann,1 Main St,Austin,78701,US,1',
      '',
      'OK-2,Bob,2 Main St,Austin,78701,US,2',
      'BAD-5,Cy,3 Main St,Austin,78701,US,heavy',
    ].join('\n');
    const report = await call(s, 'orders.import', { fileName: 'gap.csv', content });
    expect(report.imported).toBe(2);
    expect(report.errors.map((e) => e.where)).toEqual(['row 5 (order BAD-5)']);
  });

  it('counts a record whose quoted address spans two lines as one row', async () => {
    const s = await station();
    // Row 2's address holds a line break inside quotes: a spreadsheet still shows one row 2.
    const content = [
      header,
      'OK-1,Ann,"1 Main St\nBuilding B",Austin,78701,US,1',
      'BAD-3,Cy,3 Main St,Austin,78701,US,heavy',
    ].join('\n');
    const report = await call(s, 'orders.import', { fileName: 'quoted.csv', content });
    expect(report.imported).toBe(1);
    expect(report.errors.map((e) => e.where)).toEqual(['row 3 (order BAD-3)']);
  });

  it('counts a malformed row as a row, so the rows after it keep their numbers', async () => {
    const s = await station();
    const content = [
      header,
      'OK-1,"Ann"x,1 Main St,Austin,78701,US,1',
      'BAD-3,Cy,3 Main St,Austin,78701,US,heavy',
    ].join('\n');
    const report = await call(s, 'orders.import', { fileName: 'broken.csv', content });
    // The broken row is named by its row and order too (it read as "line 2 of the file").
    expect(report.errors.map((e) => e.where)).toEqual([
      'row 2 (order OK-1)',
      'row 3 (order BAD-3)',
    ]);
  });
});

describe('History pages a search, not only the whole list (#13.13)', () => {
  it('a brand filter that matches several labels pages with offset and keeps its own total', async () => {
    const s = await station();
    for (const n of ['LUM-10421', 'LUM-10422', 'LUM-10423', 'LUM-10425']) await packOrder(s, n);
    const first = await call(s, 'labels.search', { tenantId: 'tnt_lumen', limit: 3, offset: 0 });
    const second = await call(s, 'labels.search', { tenantId: 'tnt_lumen', limit: 3, offset: 3 });
    expect([first.total, second.total]).toEqual([4, 4]);
    expect(first.labels).toHaveLength(3);
    expect(second.labels).toHaveLength(1);
    expect(new Set([...first.labels, ...second.labels].map((l) => l.orderNumber)).size).toBe(4);
    const past = await call(s, 'labels.search', { tenantId: 'tnt_lumen', limit: 3, offset: 9 });
    expect(past.labels).toEqual([]);
    expect(past.total).toBe(4);
    const other = await call(s, 'labels.search', { tenantId: 'tnt_driftwood', limit: 3 });
    expect([other.total, other.labels.length]).toEqual([0, 0]);
  });
});

describe('a failed rating is one Needs-attention entry per order (#13.17)', () => {
  it('the platform refusing the same order three times lists it once, with its code', async () => {
    const { s, sandbox } = await stations.start();
    // The sample orders' background ratings done first: they would take the refusals below,
    // and a rating at the file's weight would take over their rates without asking.
    await s.context.runtime().preRater.settled();
    sandbox().faults.add({
      method: 'POST',
      path: '/api/v1/rates',
      kind: 'status',
      status: 422,
      times: 3,
    });
    for (let i = 0; i < 3; i++) {
      const r = await rateOrder(s, 'LUM-10425', 0.3);
      expect(r.ok).toBe(false);
    }
    const failed = (await call(s, 'attention.list', {})).filter(
      (i) => i.kind === 'purchase-failed',
    );
    expect(failed.map((i) => i.orderNumber)).toEqual(['LUM-10425']);
    expect((await call(s, 'station.status', {})).needsAttention).toBe(1);
  });
});
