import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hotFolderStation } from '../../support/hot-folder.js';
import { exportFile, exportStation, shipStationRow } from '../../support/order-exports.js';
import { waitUntil } from '../../support/virtual-printer.js';

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
    expect(report.problems).toEqual([]);
    expect(report.closed).toEqual([
      expect.objectContaining({
        orderNumber: '#2002',
        row: 3,
        field: '(items)',
        reason:
          'nothing left to ship: the export says no line of this order needs shipping (Lineitem fulfillment status is fulfilled); not imported',
      }),
    ]);
    // Not imported by the export's word, not for a problem of the file.
    expect(report.ordersLeftOut).toBeUndefined();
  });
});

const ssRow = (number: string, status: string, sku = 'DW-HOUSE-2LB') =>
  shipStationRow(number, { 'Order - Status': status, 'Item - SKU': sku, 'Item - Name': sku });

const wooLine = (number: string, status: string, sku: string, quantity = '1', refunded = '0') => ({
  order_id: number,
  order_number: number,
  order_number_formatted: number,
  status,
  shipping_full_name: 'Priya Natarajan',
  shipping_address_1: '905 W 6th St',
  shipping_postcode: '78703',
  shipping_city: 'Austin',
  shipping_state_code: 'TX',
  shipping_country: 'US',
  item_name: sku,
  item_sku: sku,
  item_quantity: quantity,
  item_subtotal: String(13 * Number(quantity)),
  item_refunded_qty: refunded,
});

const bigCommerceOrder = (id: string, status: string, shipped = '0') => ({
  'Order ID': id,
  'Order Status': status,
  'Total Quantity': '2',
  'Total Shipped': shipped,
  'Shipping First Name': 'Nadia',
  'Shipping Last Name': 'Haddad',
  'Shipping Street 1': '3150 N Lake Shore Dr',
  'Shipping Suburb': 'Chicago',
  'Shipping State': 'Illinois',
  'Shipping Zip': '60657',
  'Shipping Country': 'United States',
  'Product Details':
    'Product ID: 77, Product Qty: 2, Product SKU: LUM-FIG-8, Product Name: Fig Candle, Product Weight: 1.1000, Product Unit Price: 24.0000',
});

/** Each problem as [order, field, reason]. */
const said = (report: { closed?: { orderNumber?: string; field: string; reason: string }[] }) =>
  (report.closed ?? []).map((p) => [p.orderNumber, p.field, p.reason]);

describe('an order the export says is cancelled, refunded or shipped', () => {
  it('ShipStation: Shipped and Cancelled orders are not imported, each said by its Order - Status', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('shipstation-orders-export.csv', [
        ssRow('S-1', 'Awaiting Shipment'),
        ssRow('S-2', 'Shipped'),
        ssRow('S-3', 'Cancelled'),
        ssRow('S-3', 'Cancelled', 'DW-MUG-12'),
        ssRow('S-4', 'On Hold'),
      ]),
    );
    expect(report.imported).toEqual(['S-1', 'S-4']);
    expect(station.order('S-2')).toBeUndefined();
    expect(station.order('S-3')).toBeUndefined();
    expect(said(report)).toEqual([
      [
        'S-2',
        '(order)',
        'nothing left to ship: the export says the order has shipped already (Order - Status is Shipped); not imported',
      ],
      [
        'S-3',
        '(order)',
        'nothing to ship: the export says the order is cancelled or refunded (Order - Status is Cancelled); not imported',
      ],
    ]);
    expect(report.problems).toEqual([]);
    expect(report.ordersLeftOut).toBeUndefined();
  });

  it('WooCommerce: cancelled, refunded, failed, trash and completed orders are not imported; refunded units are not packed', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('woocommerce-order-export.csv', [
        // Two of three socks refunded, the headlamp refunded whole: one pair of socks ships.
        wooLine('4001', 'processing', 'PC-SOCK-M', '3', '-2'),
        wooLine('4001', 'processing', 'PC-LAMP-300', '1', '-1'),
        // Its one line refunded whole, the order still "processing".
        wooLine('4002', 'processing', 'PC-TENT-2P', '1', '-1'),
        wooLine('4003', 'cancelled', 'PC-TENT-2P'),
        wooLine('4004', 'refunded', 'PC-TENT-2P'),
        wooLine('4005', 'failed', 'PC-TENT-2P'),
        wooLine('4006', 'trash', 'PC-TENT-2P'),
        wooLine('4007', 'completed', 'PC-TENT-2P'),
        wooLine('4008', 'on-hold', 'PC-TENT-2P'),
      ]),
    );
    expect(report.imported).toEqual(['4001', '4008']);
    expect(
      station.order('4001')!.packages[0]!.items.map((i) => [i.sku, i.quantity, i.valueCents]),
    ).toEqual([['PC-SOCK-M', 1, 1300]]);
    expect(said(report)).toEqual([
      [
        '4002',
        '(items)',
        'nothing left to ship: the export says no line of this order needs shipping (item_refunded_qty is -1, every unit of its item_quantity 1); not imported',
      ],
      ...['cancelled', 'refunded', 'failed', 'trash'].map((status, i) => [
        `${4003 + i}`,
        '(order)',
        `nothing to ship: the export says the order is cancelled or refunded (status is ${status}); not imported`,
      ]),
      [
        '4007',
        '(order)',
        'nothing left to ship: the export says the order has shipped already (status is completed); not imported',
      ],
    ]);
  });

  it('BigCommerce: Shipped, Cancelled and Refunded orders, and one with all of it shipped, are not imported', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('bigcommerce-orders-export.csv', [
        bigCommerceOrder('501', 'Awaiting Fulfillment'),
        bigCommerceOrder('502', 'Shipped', '2'),
        bigCommerceOrder('503', 'Cancelled'),
        bigCommerceOrder('504', 'Refunded'),
        bigCommerceOrder('505', 'Awaiting Fulfillment', '2'),
      ]),
    );
    expect(report.imported).toEqual(['501']);
    expect(said(report).map(([n, , reason]) => [n, reason])).toEqual([
      ['502', expect.stringMatching(/^nothing left to ship: .*\(Order Status is Shipped\)/)],
      ['503', expect.stringMatching(/^nothing to ship: .*\(Order Status is Cancelled\)/)],
      ['504', expect.stringMatching(/^nothing to ship: .*\(Order Status is Refunded\)/)],
      [
        '505',
        'nothing left to ship: the export says the order has shipped already (Total Shipped is 2, all of its Total Quantity); not imported',
      ],
    ]);
  });

  it('BigCommerce and Shopify: an order partly shipped, the export not saying which items, is not imported, and said', () => {
    const station = exportStation();
    // An earlier export brought 506 in whole; it is open here.
    station.importText(
      exportFile('bigcommerce-orders-export.csv', [
        bigCommerceOrder('506', 'Awaiting Fulfillment'),
      ]),
    );
    expect(station.order('506')).toBeDefined();
    const big = station.importText(
      exportFile('bigcommerce-orders-export.csv', [
        bigCommerceOrder('506', 'Partially Shipped', '1'),
        bigCommerceOrder('507', 'Awaiting Fulfillment', '1'),
        bigCommerceOrder('508', 'Awaiting Fulfillment'),
      ]),
    );
    expect(big.imported).toEqual(['508']);
    expect(big.problems).toEqual([]);
    expect(said(big)).toEqual([
      [
        '506',
        '(order)',
        expect.stringMatching(
          /^not all of it to ship: the export says part of the order has shipped already, and not which items \(Order Status is Partially Shipped; Total Shipped is 1 of its Total Quantity 2\); not imported, since a label for all of it would ship those items twice: ship what is left from the store's own order screen, or import a file that lists only what is left; it is open here: a shift lead cancels it in Orders \(Alt\+8\)$/,
        ),
      ],
      ['507', '(order)', expect.stringContaining('(Total Shipped is 1 of its Total Quantity 2)')],
    ]);

    // Shopify: a line fulfilled in part (how many units left is not in the export).
    const shop = station.importText(
      exportFile('shopify-orders-export.csv', [
        shopifyLine('#2101', 'LUM-CEDAR-8', 'partial'),
        shopifyLine('#2101', 'LUM-TRIM-1', 'pending', null),
        shopifyLine('#2102', 'LUM-FIG-8', 'pending'),
      ]),
    );
    expect(shop.imported).toEqual(['#2102']);
    expect(said(shop)).toEqual([
      [
        '#2101',
        '(order)',
        expect.stringContaining('(Lineitem fulfillment status of LUM-CEDAR-8 is partial)'),
      ],
    ]);
    expect(station.order('#2101')).toBeUndefined();
  });

  it('Shopify: an order with a "Cancelled at", or refunded, is not imported', () => {
    const station = exportStation();
    const report = station.importText(
      exportFile('shopify-orders-export.csv', [
        shopifyLine('#3001', 'LUM-CEDAR-8', 'pending', {
          'Fulfillment Status': 'unfulfilled',
          'Cancelled at': '2026-11-23 12:01:09 -0600',
        }),
        shopifyLine('#3001', 'LUM-TRIM-1', 'pending', null),
        shopifyLine('#3002', 'LUM-LAV-16', 'pending', {
          'Fulfillment Status': 'unfulfilled',
          'Financial Status': 'refunded',
        }),
        shopifyLine('#3003', 'LUM-LAV-16', 'pending', { 'Fulfillment Status': 'unfulfilled' }),
      ]),
    );
    expect(report.imported).toEqual(['#3003']);
    expect(said(report)).toEqual([
      [
        '#3001',
        '(order)',
        'nothing to ship: the export says the order is cancelled or refunded (Cancelled at is 2026-11-23 12:01:09 -0600); not imported',
      ],
      [
        '#3002',
        '(order)',
        'nothing to ship: the export says the order is cancelled or refunded (Financial Status is refunded); not imported',
      ],
    ]);
  });

  it('an order open here that a later export says is cancelled: said, and left for a shift lead when the import cannot cancel it', () => {
    const station = exportStation();
    const first = station.importText(
      exportFile('shipstation-orders-export.csv', [ssRow('S-9', 'Awaiting Shipment')]),
    );
    expect(first.imported).toEqual(['S-9']);
    const later = station.importText(
      exportFile('shipstation-orders-export.csv', [ssRow('S-9', 'Cancelled')]),
    );
    expect(later.imported).toEqual([]);
    expect(said(later)).toEqual([
      [
        'S-9',
        '(order)',
        'nothing to ship: the export says the order is cancelled or refunded (Order - Status is Cancelled); not imported; it is open here: a shift lead cancels it in Orders (Alt+8)',
      ],
    ]);
    expect(station.order('S-9')!.cancelled).toBeUndefined();
  });
});

describe('an export of every order in the hot folder', () => {
  it('is processed: its open orders come in, the closed ones are said apart, not as the file failing', async () => {
    const { inbox, folder, results } = hotFolderStation({ stableMs: 100 });
    await folder.start();
    writeFileSync(
      join(inbox, 'all-orders.csv'),
      exportFile('shipstation-orders-export.csv', [
        shipStationRow('ALL-1'),
        shipStationRow('ALL-2', { 'Order - Status': 'Shipped' }),
        shipStationRow('ALL-3', { 'Order - Status': 'Cancelled' }),
      ]),
    );
    await waitUntil(() => results.length === 1);
    await folder.stop();
    const [result] = results;
    expect(result!.outcome).toBe('processed');
    expect(result!.report.imported).toEqual(['ALL-1']);
    const file = JSON.parse(readFileSync(`${result!.movedTo}.report.json`, 'utf8')) as {
      problems: unknown[];
      closed: { orderNumber: string }[];
    };
    expect(file.problems).toEqual([]);
    expect(file.closed.map((c) => c.orderNumber)).toEqual(['ALL-2', 'ALL-3']);
  });
});
