import { describe, expect, it } from 'vitest';
import {
  exportFile,
  exportHeader,
  exportStation,
  shipStationRow,
} from '../../support/order-exports.js';

// "1,024" in a comma-separated export is one thousand and twenty-four: a ShipStation export's
// 1,024 oz was once stored as 1.024 oz (0.06 lb), and a 1 lb label was bought for 64 lb.

function importText(text: string, source = 'export.csv') {
  const station = exportStation();
  return { report: station.importText(text, source), order: station.order };
}

const ssRow = (number: string, oz: string) =>
  shipStationRow(number, { 'Item - Price': '1,024.00', 'Weight - TotalOz': oz });

describe('a comma between thousands in a file that writes decimals with a point', () => {
  it('ShipStation: "1,024" oz is 64 lb; "1,02" and "2,5" are refused by row, the others imported', () => {
    const { report, order } = importText(
      exportFile('shipstation-orders-export.csv', [
        ssRow('S-1', '1,024'),
        ssRow('S-2', '1,040.8'),
        ssRow('S-3', '1,02'),
        ssRow('S-4', '2,5'),
      ]),
    );
    expect(report.format).toBe('ShipStation orders export');
    expect(report.imported).toEqual(['S-1', 'S-2']);
    expect(order('S-1')!.packages[0]!.weightLbs).toBe(64);
    expect(order('S-2')!.packages[0]!.weightLbs).toBe(65.05);
    expect(order('S-1')!.packages[0]!.items[0]!.valueCents).toBe(102400);
    expect(report.problems).toEqual([
      expect.objectContaining({
        orderNumber: 'S-3',
        field: 'Weight - TotalOz',
        reason:
          '"1,02" is not a number here: this file writes decimals with a point (1.02), and a comma only between thousands (1,024 or 12,500.5)',
      }),
      expect.objectContaining({ orderNumber: 'S-4', field: 'Weight - TotalOz' }),
    ]);
    expect(report.ordersLeftOut).toBe(2);
  });

  it('Shopify, WooCommerce and BigCommerce prices, and a BigCommerce weight, read the same way', () => {
    const address = { city: 'Austin', state: 'TX', zip: '78701' };
    const shopify = importText(
      exportFile('shopify-orders-export.csv', [
        {
          Name: '#2001',
          'Lineitem quantity': '1',
          'Lineitem name': 'Candle',
          'Lineitem price': '1,024.50',
          'Lineitem requires shipping': 'true',
          'Shipping Name': 'Ava',
          'Shipping Address1': '1 Main St',
          'Shipping City': address.city,
          'Shipping Province': address.state,
          'Shipping Zip': address.zip,
          'Shipping Country': 'US',
        },
      ]),
    );
    expect(shopify.report.problems).toEqual([]);
    expect(shopify.order('#2001')!.packages[0]!.items[0]!.valueCents).toBe(102450);

    const woo = importText(
      exportFile('woocommerce-order-export.csv', [
        {
          order_number: '3200',
          shipping_full_name: 'Priya',
          shipping_address_1: '1 Main St',
          shipping_city: address.city,
          shipping_state_code: address.state,
          shipping_postcode: address.zip,
          shipping_country: 'US',
          item_name: 'Lamp',
          item_quantity: '2',
          item_subtotal: '1,024.00', // the line, for both units
        },
      ]),
    );
    expect(woo.report.problems).toEqual([]);
    expect(woo.order('3200')!.packages[0]!.items[0]).toMatchObject({
      quantity: 2,
      valueCents: 51200,
    });

    const product = (price: string, weight: string) =>
      `Product ID: 77, Product Qty: 1, Product SKU: LUM-FIG-8, Product Name: Fig Candle, Product Weight: ${weight}, Product Unit Price: ${price}, Product Total Price: ${price}`;
    const bigCommerceRow = (id: string, details: string) => ({
      'Order ID': id,
      'Shipping First Name': 'Nadia',
      'Shipping Street 1': '1 Main St',
      'Shipping Suburb': address.city,
      'Shipping State': address.state,
      'Shipping Zip': address.zip,
      'Shipping Country': 'United States',
      'Product Details': details,
    });
    const big = importText(
      exportFile('bigcommerce-orders-export.csv', [
        bigCommerceRow('301', product('1,024.0000', '1.1000')),
        bigCommerceRow('302', product('24.0000', '1,5')),
      ]),
    );
    expect(big.report.imported).toEqual(['301']);
    expect(big.order('301')!.packages[0]!.items[0]!.valueCents).toBe(102400);
    expect(big.report.problems).toEqual([
      expect.objectContaining({
        orderNumber: '302',
        reason: expect.stringMatching(
          /^"1,5" is not a number here: this file writes decimals with a point \(1\.5\)/,
        ),
      }),
    ]);
  });

  it('Amazon (tab-separated): a line price of "1,024.00" says which mark is which', () => {
    const { header } = exportHeader('amazon-unshipped-orders.txt');
    const cells: Record<string, string> = {
      'order-id': '112-0000000-0000001',
      'order-item-id': '1',
      sku: 'PC-LAMP-300',
      'product-name': 'Headlamp',
      'quantity-purchased': '4',
      'quantity-to-ship': '4',
      'item-price': '1,024.00',
      'recipient-name': 'Hannah Moore',
      'ship-address-1': '4400 Massachusetts Ave NW',
      'ship-city': 'Washington',
      'ship-state': 'DC',
      'ship-postal-code': '20016',
      'ship-country': 'US',
    };
    // The "All orders" report adds item-price to the unshipped report's columns.
    const columns = [...header, 'item-price'];
    const text = [columns.join('\t'), columns.map((h) => cells[h] ?? '').join('\t')].join('\n');
    const { report, order } = importText(text, 'orders.txt');
    expect(report.problems).toEqual([]);
    expect(order('112-0000000-0000001')!.packages[0]!.items[0]!.valueCents).toBe(25600);
  });

  it("the station's own columns: 1,024.50 dollars is read, a weight of 1,024 lb is over the limit (not 1.024 lb)", () => {
    const text = [
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs,sku,quantity,unit_value_usd',
      'T-1,Ana,1 Main St,Austin,78701,US,1.5,MUG-1,"1,200","1,024.50"',
      'T-2,Bo,2 Main St,Austin,78701,US,"1,024",MUG-1,1,5',
    ].join('\n');
    const { report, order } = importText(text);
    expect(report.imported).toEqual(['T-1']);
    expect(order('T-1')!.packages[0]!.items[0]).toMatchObject({
      quantity: 1200,
      valueCents: 102450,
    });
    expect(report.problems).toEqual([
      expect.objectContaining({ orderNumber: 'T-2', field: 'weight_lbs' }),
    ]);
    expect(report.problems[0]!.reason).not.toMatch(/1\.024/);
  });

  it('a semicolon file keeps its decimal comma: ShipStation "1.024,5" oz and "16,0" oz', () => {
    const { header } = exportHeader('shipstation-orders-export.csv');
    const line = (r: Record<string, string>) => header.map((h) => r[h] ?? '').join(';');
    const text = [header.join(';'), line(ssRow('E-1', '1.024,5')), line(ssRow('E-2', '16,0'))]
      .join('\n')
      .replaceAll('1,024.00', '1.024,00');
    const { report, order } = importText(text);
    expect(report.problems).toEqual([]);
    expect(order('E-1')!.packages[0]!.weightLbs).toBe(64.04); // 64.03125 lb, rounded up (never declared lighter)
    expect(order('E-2')!.packages[0]!.weightLbs).toBe(1);
    expect(order('E-1')!.packages[0]!.items[0]!.valueCents).toBe(102400);
  });

  describe('"1.024" in a semicolon file: its other numbers say what a point is', () => {
    const header =
      'order_number;ship_to_name;ship_to_address1;ship_to_city;ship_to_postal_code;ship_to_country;weight_lbs;sku;quantity;unit_value_usd';
    const file = (...rows: string[]) => [header, ...rows].join('\r\n') + '\r\n';

    it('a file that writes decimal commas ("12,50" euros): "1.024" is one thousand and twenty-four', () => {
      const { report, order } = importText(
        file(
          'DE-1;Ana;Hauptstr. 5;Berlin;10115;DE;1.024;MUG-1;1;12,50',
          'DE-2;Bo;Hauptstr. 6;Berlin;10115;DE;2;MUG-1;1.200;3,99',
        ),
      );
      // 1,024 lb is over the station's weight limit: refused by row, never rated at 1 lb.
      expect(report.imported).toEqual(['DE-2']);
      expect(report.problems).toEqual([
        expect.objectContaining({ orderNumber: 'DE-1', field: 'weight_lbs' }),
      ]);
      expect(report.problems[0]!.reason).toBe('must be at most 150 lb for one parcel');
      expect(order('DE-2')!.packages[0]!.items[0]).toMatchObject({
        quantity: 1200,
        valueCents: 399,
      });
    });

    it('a file that writes decimal points ("12.50"): "1.024" is one and twenty-four thousandths', () => {
      const { report, order } = importText(
        file('US-1;Ana;1 Main St;Austin;78701;US;1.024;MUG-1;1;12.50'),
      );
      expect(report.problems).toEqual([]);
      expect(order('US-1')!.packages[0]!.weightLbs).toBe(1.024);
    });

    it('a file whose numbers do not tell: "1.024" is refused by its row, saying both readings', () => {
      const { report } = importText(
        file(
          'X-1;Ana;1 Main St;Austin;78701;US;1.024;MUG-1;1;12',
          'X-2;Bo;2 Main St;Austin;78701;US;2;MUG-1;1;5',
        ),
      );
      expect(report.imported).toEqual(['X-2']);
      expect(report.problems).toEqual([
        expect.objectContaining({
          orderNumber: 'X-1',
          field: 'weight_lbs',
          reason:
            '"1.024" could be 1024 or 1.024: no other number in this file shows whether it writes decimals with a comma or a point, so it is not guessed. Write 1024 if that is meant, or check the export\'s number format',
        }),
      ]);
    });
  });
});
