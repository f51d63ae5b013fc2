import { describe, expect, it } from 'vitest';
import { exportFile, exportStation, shipStationRow } from '../../support/order-exports.js';

// ShipStation writes 0 in "Weight - TotalOz" for an order nobody weighed: it was refused ("must
// be more than 0 lb", of a column in ounces) and the order never reached the floor.

const ssRow = (number: string, oz: string) => shipStationRow(number, { 'Weight - TotalOz': oz });

describe('a store export with no weight written as 0', () => {
  it('ShipStation: 0 oz is imported with no weight (weighed at Pack); a weight it cannot be is said in ounces', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('shipstation-orders-export.csv', [
        ssRow('S-0', '0'),
        ssRow('S-1', '0.00'),
        ssRow('S-2', '32'),
        ssRow('S-3', '-16'),
        ssRow('S-4', '2500'),
      ]),
    );
    expect(report.imported).toEqual(['S-0', 'S-1', 'S-2']);
    expect(station.order('S-0')!.packages[0]!.weightLbs).toBeUndefined();
    expect(station.order('S-1')!.packages[0]!.weightLbs).toBeUndefined();
    expect(station.order('S-2')!.packages[0]!.weightLbs).toBe(2);
    expect(report.problems.map((p) => [p.orderNumber, p.field, p.reason])).toEqual([
      ['S-3', 'Weight - TotalOz', 'must be more than 0 oz'],
      ['S-4', 'Weight - TotalOz', 'must be at most 2400 oz (150 lb) for one parcel'],
    ]);
  });

  it('ShipStation: ounces become pounds rounded up to the hundredth, never declared lighter', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('shipstation-orders-export.csv', [
        ssRow('S-5', '13.5'), // 0.84375 lb: 0.84 would be 13.44 oz
        ssRow('S-6', '32.05'), // 2.003 lb: 2.00 would be priced as 2 lb
        ssRow('S-7', '1'),
        ssRow('S-8', '16'),
      ]),
    );
    expect(report.imported).toEqual(['S-5', 'S-6', 'S-7', 'S-8']);
    const lbs = (n: string) => station.order(n)!.packages[0]!.weightLbs;
    expect([lbs('S-5'), lbs('S-6'), lbs('S-7'), lbs('S-8')]).toEqual([0.85, 2.01, 0.07, 1]);
  });

  it('BigCommerce: a product whose weight is 0.0000 is imported with no weight', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('bigcommerce-orders-export.csv', [
        {
          'Order ID': '301',
          'Order Status': 'Awaiting Fulfillment',
          'Shipping First Name': 'Nadia',
          'Shipping Last Name': 'Haddad',
          'Shipping Street 1': '3150 N Lake Shore Dr',
          'Shipping Suburb': 'Chicago',
          'Shipping State': 'Illinois',
          'Shipping Zip': '60657',
          'Shipping Country': 'United States',
          'Product Details':
            'Product ID: 77, Product Qty: 2, Product SKU: LUM-FIG-8, Product Name: Fig Candle, Product Weight: 0.0000, Product Unit Price: 24.0000|Product ID: 81, Product Qty: 1, Product SKU: LUM-MATCH-XL, Product Name: Long Matches, Product Weight: 0.2000, Product Unit Price: 4.0000',
        },
      ]),
    );
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['301']);
    const items = station.order('301')!.packages[0]!.items;
    expect(items.map((i) => [i.sku, i.weightLbs])).toEqual([
      ['LUM-FIG-8', undefined],
      ['LUM-MATCH-XL', 0.2],
    ]);
  });
});
