import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOrders, type TenantPolicy } from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Trial J: a line of text in an order file (a note someone typed under the orders) was said as
 * "row 6 (order totally garbage line with no commas): has 1 fields, the header has 14", and
 * counted among the orders not imported: a line with spaces in its "order number" names none.
 */
const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };

describe('a line of text among the rows of an order file', () => {
  it('is said as a row that is no order row, naming no order and counting none left out', () => {
    const orders = new OrderRepository(openDatabase(join(tempDir(), 'station.db')));
    const report = importOrders(orders, scope, tenants, {
      text: [
        'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
        'G-1,Ada Okafor,12 Elm St,Dayton,OH,45402,US,2',
        'totally garbage line with no commas',
        'G-2,Ben Tran,88 Pine Rd,Austin,TX,78701,US',
        '',
      ].join('\n'),
      format: 'csv',
      source: 'notes.csv',
    });
    expect(report.imported).toEqual(['G-1']);
    expect(report.problems.map((p) => [p.line, p.orderNumber, p.reason])).toEqual([
      [3, undefined, 'has 1 field, the header has 8'],
      [4, 'G-2', 'has 7 fields, the header has 8'],
    ]);
    expect(report.ordersLeftOut).toBe(1);
  });
});
