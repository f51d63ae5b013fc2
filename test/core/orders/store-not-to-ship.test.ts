import { describe, expect, it } from 'vitest';
import { exportFile, exportStation } from '../../support/order-exports.js';

// What a store export says is not to ship (a line fulfilled already, an order cancelled,
// refunded or shipped) must never reach the floor as an open order: a label bought for it is
// money lost.

/** A Shopify line item: the order's columns on its first row only, as Shopify writes them. */
const shopifyLine = (
  name: string,
  sku: string,
  lineStatus: string,
  order: Record<string, string> | null = {},
) => ({
  Name: name,
  'Lineitem quantity': '1',
  'Lineitem name': sku,
  'Lineitem price': '24.00',
  'Lineitem sku': sku,
  'Lineitem requires shipping': 'true',
  'Lineitem fulfillment status': lineStatus,
  ...(order && {
    'Financial Status': 'paid',
    'Fulfillment Status': 'partial',
    'Shipping Name': 'Ava Lindqvist',
    'Shipping Address1': '42 Orchard Ln',
    'Shipping City': 'Portland',
    'Shipping Zip': "'04101",
    'Shipping Province': 'ME',
    'Shipping Country': 'US',
    ...order,
  }),
});

describe('Shopify: a partly fulfilled order', () => {
  it('its fulfilled lines are left out; an order whose every line is fulfilled is not imported, and said', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('shopify-orders-export.csv', [
        shopifyLine('#2001', 'LUM-CEDAR-8', 'fulfilled'),
        shopifyLine('#2001', 'LUM-TRIM-1', 'pending', null),
        shopifyLine('#2002', 'LUM-LAV-16', 'fulfilled'),
        shopifyLine('#2002', 'LUM-FIG-8', 'fulfilled', null),
      ]),
    );
    expect(report.imported).toEqual(['#2001']);
    expect(station.order('#2001')!.packages[0]!.items.map((i) => i.sku)).toEqual(['LUM-TRIM-1']);
    expect(station.order('#2002')).toBeUndefined();
    expect(report.problems).toEqual([
      expect.objectContaining({
        orderNumber: '#2002',
        row: 3,
        field: '(items)',
        reason:
          'nothing left to ship: the export says no line of this order needs shipping (Lineitem fulfillment status is fulfilled); not imported',
      }),
    ]);
    expect(report.ordersLeftOut).toBe(1);
  });
});
