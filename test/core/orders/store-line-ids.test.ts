import { describe, expect, it } from 'vitest';
import { exportFile, exportStation } from '../../support/order-exports.js';

// Amazon's unshipped orders report gives every line its own order-item-id: two lines of one
// order with the same SKU and quantity (bought as two lines) were refused as "repeats row 2
// exactly", keeping a real order out of the station.

const amazonLine = (itemId: string): Record<string, string> => ({
  'order-id': '113-1000010-7654331',
  'order-item-id': itemId,
  sku: 'LUM-TEA-12',
  'product-name': 'Tea lights, 12-pack',
  'quantity-purchased': '2',
  'quantity-shipped': '0',
  'quantity-to-ship': '2',
  'recipient-name': 'Taro Yamada',
  'ship-address-1': '110 Main St',
  'ship-city': 'Brooklyn',
  'ship-state': 'NY',
  'ship-postal-code': '11201',
  'ship-country': 'US',
});

const units = (station: ReturnType<typeof exportStation>, n: string) =>
  station
    .order(n)!
    .packages.flatMap((p) => p.items)
    .reduce((sum, i) => sum + i.quantity, 0);

describe('store exports whose lines have ids of their own', () => {
  it('Amazon: two alike lines with their own order-item-ids are both imported', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('amazon-unshipped-orders.txt', [
        amazonLine('40000000000100'),
        amazonLine('40000000000102'),
      ]),
      'UnshippedOrders.txt',
    );
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['113-1000010-7654331']);
    expect(units(station, '113-1000010-7654331')).toBe(4);
  });

  it('Amazon: the same order-item-id twice is still a line repeated, and said', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('amazon-unshipped-orders.txt', [
        amazonLine('40000000000100'),
        amazonLine('40000000000100'),
      ]),
      'UnshippedOrders.txt',
    );
    expect(report.imported).toEqual([]);
    expect(report.problems.map((p) => p.reason)).toEqual([
      'repeats row 2 exactly: its items would be counted twice; remove one copy and import the file again',
    ]);
  });

  it('WooCommerce: two alike lines with their own item_ids are both imported', () => {
    const station = exportStation();
    const line = (itemId: string) => ({
      order_number: '4402',
      status: 'processing',
      shipping_full_name: 'Jamal Reed',
      shipping_address_1: '1600 Pennsylvania Ave NW',
      shipping_postcode: '20500',
      shipping_city: 'Washington',
      shipping_state_code: 'DC',
      shipping_country: 'US',
      item_id: itemId,
      item_name: 'Lavender 16 oz',
      item_sku: 'LUM-LAV-16',
      item_quantity: '1',
      item_subtotal: '38.00',
    });
    const report = station.importText(
      exportFile('woocommerce-order-export.csv', [line('2'), line('3')]),
    );
    expect(report.problems).toEqual([]);
    expect(units(station, '4402')).toBe(2);
  });
});
