import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/core/orders/csv.js';
import { importOrders, type TenantPolicy } from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Trial J: a row of separators only (",,,,,,", what Excel writes for a row whose cells were
 * cleared) was read as an order: six problems ("order_number: is empty", "must not contain
 * spaces", …) and one more order "not imported". It is a blank row, skipped as one.
 */
const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };
const HEADER =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs';

describe('rows with nothing but separators', () => {
  it('are skipped as blank lines are, and still counted as rows', () => {
    expect(parseCsv('a,b,c\n,,\n , ,\n"",,\n1,2,3').records).toEqual([
      { line: 1, row: 1, fields: ['a', 'b', 'c'] },
      { line: 5, row: 5, fields: ['1', '2', '3'] },
    ]);
  });

  it('bring no problem into an import, and the rows after them keep their spreadsheet numbers', () => {
    const orders = new OrderRepository(openDatabase(join(tempDir(), 'station.db')));
    const report = importOrders(orders, scope, tenants, {
      text: [
        HEADER,
        'S-1,Ada Okafor,12 Elm St,Dayton,OH,45402,US,2',
        ',,,,,,,',
        ' , ,,,,,,',
        'S-2,Ben Tran,88 Pine Rd,Austin,TX,78701,US,abc',
      ].join('\r\n'),
      format: 'csv',
      source: 'excel.csv',
    });
    expect(report.imported).toEqual(['S-1']);
    // Data row 4 (the header is not counted here), line 5: the spreadsheet's row 5.
    expect(report.problems.map((p) => [p.row, p.line, p.orderNumber, p.field])).toEqual([
      [4, 5, 'S-2', 'weight_lbs'],
    ]);
  });
});
