// Issue #10, point 4: large order files are imported in slices, with bounded problem lists.
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importOrders,
  importOrdersInSlices,
  type TenantPolicy,
} from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { MAX_REPORTED_PROBLEMS, type ImportProgress } from '../../../src/core/orders/types.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };
const header =
  'order_number,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs';

/** A generated order file in a temp dir, read back as the station would get it. */
function orderFile(rows: number, row: (i: number) => string): string {
  const path = join(tempDir('station-import-'), 'orders.csv');
  const lines = [header];
  for (let i = 1; i <= rows; i++) lines.push(row(i));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return readFileSync(path, 'utf8');
}

function setup() {
  const db = openDatabase(join(tempDir(), 'station.db'));
  return { db, orders: new OrderRepository(db) };
}

describe('a 250,000-row file with a bad column', () => {
  it('a column of values that are not numbers: the first problems per row, and the count', async () => {
    const { orders } = setup();
    const text = orderFile(250_000, (i) => `BAD-${i},1 Main St,Springfield,62701,US,heavy`);
    const seen: ImportProgress[] = [];
    const report = await importOrdersInSlices(
      orders,
      scope,
      tenants,
      { text, format: 'csv', source: 'bad.csv' },
      { onProgress: (p) => seen.push(p) },
    );
    expect(report.imported).toEqual([]);
    expect(report.problemCount).toBe(250_000);
    expect(report.problems).toHaveLength(MAX_REPORTED_PROBLEMS);
    expect(report.problems[0]).toMatchObject({
      row: 1,
      line: 2,
      orderNumber: 'BAD-1',
      field: 'weight_lbs',
      reason: '"heavy" is not a number',
    });
    expect(report.problems.at(-1)).toMatchObject({ row: MAX_REPORTED_PROBLEMS });
    expect(seen.some((p) => p.phase === 'checking' && p.total === 250_000)).toBe(true);
  }, 120_000);

  it('an extra column on every row: reported per row, nothing imported, also when run at once', () => {
    const { orders } = setup();
    const text = orderFile(250_000, (i) => `X-${i},1 Main St,Springfield,62701,US,2,oops`);
    const report = importOrders(orders, scope, tenants, { text, format: 'csv', source: 'x.csv' });
    expect(report.imported).toEqual([]);
    expect(report.problemCount).toBe(250_000);
    expect(report.problems).toHaveLength(MAX_REPORTED_PROBLEMS);
    expect(report.problems[1]).toMatchObject({
      row: 2,
      orderNumber: 'X-2',
      field: '(row)',
      reason: 'has 7 fields, the header has 6',
    });
  }, 120_000);
});

describe('a large import in slices', () => {
  it('stores every order, reports progress, and lets other work run between slices', async () => {
    const { orders } = setup();
    const count = 20_000;
    const text = orderFile(count, (i) => `BIG-${i},1 Main St,Springfield,62701,US,2`);
    const seen: ImportProgress[] = [];
    let finished = false;
    const importing = importOrdersInSlices(
      orders,
      scope,
      tenants,
      { text, format: 'csv', source: 'big.csv' },
      { onProgress: (p) => seen.push(p) },
    ).then((report) => {
      finished = true;
      return report;
    });
    // Something else the station does gets its turn while the import runs.
    await new Promise((resolve) => setImmediate(resolve));
    const finishedWhenOtherWorkRan = finished;
    const report = await importing;
    expect(finishedWhenOtherWorkRan).toBe(false);
    expect(report.imported).toHaveLength(count);
    expect(report.problemCount).toBe(0);
    expect(seen.map((p) => p.phase)).toContain('storing');
    expect(seen.find((p) => p.phase === 'storing')?.total).toBe(count);
  }, 120_000);
});
