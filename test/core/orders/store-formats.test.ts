import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chosenFileFormatOf,
  decodeOrderFile,
  importOrders,
  type TenantPolicy,
} from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

const fixture = (name: string) =>
  decodeOrderFile(readFileSync(join(import.meta.dirname, '../../fixtures/orders', name)));

const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };

function importFile(name: string, text = fixture(name), mappings = undefined as never) {
  const db = openDatabase(join(tempDir(), 'station.db'));
  const orders = new OrderRepository(db);
  const format = chosenFileFormatOf(name);
  expect(format).toBe('csv');
  const report = importOrders(
    orders,
    scope,
    tenants,
    { text, format: format!, source: name },
    mappings ? { mappings } : {},
  );
  const order = (n: string) => orders.findByNumber(scope, n)[0]!;
  return { report, order, orders };
}

describe('store exports, recognised by their header', () => {
  it('Shopify: one row per item becomes one order; a gift card is not packed; the ZIP keeps its zero', () => {
    const { report, order } = importFile('shopify-orders-export.csv');
    expect(report.format).toBe('Shopify orders export');
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['#1001', '#1002', '#1003']);
    const ava = order('#1001');
    expect(ava.shipTo).toMatchObject({
      name: 'Ava Lindqvist',
      addressLine1: '42 Orchard Ln',
      addressLine2: 'Apt 3',
      city: 'Portland',
      stateProvince: 'ME',
      postalCode: '04101',
      countryCode: 'US',
      email: 'ava@example.com',
    });
    expect(ava.packages).toHaveLength(1);
    expect(ava.packages[0]!.items).toEqual([
      expect.objectContaining({ sku: 'LUM-CEDAR-8', quantity: 2, valueCents: 2400 }),
      expect.objectContaining({ sku: 'LUM-TRIM-1', name: 'Wick Trimmer', quantity: 1 }),
    ]);
    expect(order('#1003').shipTo).toMatchObject({ city: 'Toronto', countryCode: 'CA' });
  });

  it('ShipStation: items of an order on several rows; the order weight in ounces becomes pounds', () => {
    const { report, order } = importFile('shipstation-orders-export.csv');
    expect(report.format).toBe('ShipStation orders export');
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['DW-60001', 'DW-60002', 'DW-60003']);
    expect(order('DW-60001').packages[0]!.items.map((i) => [i.sku, i.quantity])).toEqual([
      ['DW-HOUSE-2LB', 2],
      ['DW-MUG-12', 1],
    ]);
    expect(order('DW-60001').packages[0]!.weightLbs).toBe(5.13);
    expect(order('DW-60002').shipTo).toMatchObject({ company: 'Harbor Cafe', postalCode: '01930' });
    expect(order('DW-60003').packages[0]!.items[0]).toMatchObject({ valueCents: 2800 });
    expect(order('DW-60003').shipTo.countryCode).toBe('IT');
  });

  it('WooCommerce order export: line items grouped, unit value from the line subtotal', () => {
    const { report, order } = importFile('woocommerce-order-export.csv');
    expect(report.format).toBe('WooCommerce order export');
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['3117', '3118']);
    expect(order('3117').shipTo).toMatchObject({
      name: 'Priya Natarajan',
      addressLine2: 'Unit 210',
      stateProvince: 'TX',
      postalCode: '78703',
    });
    expect(order('3117').packages[0]!.items).toEqual([
      expect.objectContaining({ sku: 'PC-LAMP-300', quantity: 1, valueCents: 3900 }),
      expect.objectContaining({ sku: 'PC-SOCK-M', quantity: 3, valueCents: 1300 }),
    ]);
    expect(order('3118').shipTo.company).toBe('Baker Guides');
  });

  it('BigCommerce: products of the one "Product Details" cell become items; country names become codes', () => {
    const { report, order } = importFile('bigcommerce-orders-export.csv');
    expect(report.format).toBe('BigCommerce orders export');
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['214', '215']);
    expect(order('214').shipTo).toMatchObject({
      name: 'Nadia Haddad',
      city: 'Chicago',
      countryCode: 'US',
    });
    expect(order('214').packages[0]!.items).toEqual([
      expect.objectContaining({ sku: 'LUM-FIG-8', quantity: 2, valueCents: 2400, weightLbs: 1.1 }),
      expect.objectContaining({ sku: 'LUM-MATCH-XL', name: 'Long Matches', quantity: 1 }),
    ]);
    expect(order('215').shipTo).toMatchObject({ countryCode: 'GB', postalCode: 'W1T 1UF' });
  });

  it('Amazon unshipped orders report (.txt, tab-separated): order items grouped by order-id', () => {
    const { report, order } = importFile('amazon-unshipped-orders.txt');
    expect(report.format).toBe('Amazon unshipped orders report');
    expect(report.problems).toEqual([]);
    expect(report.imported).toEqual(['112-3456789-1234567', '114-9876543-7654321']);
    expect(order('112-3456789-1234567').packages[0]!.items.map((i) => [i.sku, i.quantity])).toEqual(
      [
        ['PC-LAMP-300', 1],
        ['PC-SOCK-M', 2],
      ],
    );
    expect(order('114-9876543-7654321').shipTo).toMatchObject({
      name: 'Ray Alvarez',
      addressLine2: 'Bldg C',
      postalCode: '78741',
    });
  });

  it('Amazon: a line with nothing left to ship is left out; an order with no line left is not imported, and said', () => {
    const lines = fixture('amazon-unshipped-orders.txt').split('\n');
    const cells = (line: string) => line.split('\t');
    const header = cells(lines[0]!);
    const at = (name: string) => header.indexOf(name);
    // The headlamp of 112-… shipped already (0 to ship); 115-… is one line, shipped already.
    const shipped = (line: string, order?: string) => {
      const c = cells(line);
      c[at('quantity-shipped')] = c[at('quantity-purchased')]!;
      c[at('quantity-to-ship')] = '0';
      if (order) c[at('order-id')] = order;
      return c.join('\t');
    };
    const text = [
      lines[0],
      shipped(lines[1]!),
      ...lines.slice(2).filter((l) => l.trim() !== ''),
      shipped(lines[1]!, '115-0000000-0000001'),
    ].join('\n');
    const { report, order } = importFile('amazon-unshipped-orders.txt', text);
    expect(report.imported).toEqual(['112-3456789-1234567', '114-9876543-7654321']);
    expect(order('112-3456789-1234567').packages[0]!.items.map((i) => i.sku)).toEqual([
      'PC-SOCK-M',
    ]);
    expect(report.problems).toEqual([]);
    expect(report.closed).toEqual([
      expect.objectContaining({
        orderNumber: '115-0000000-0000001',
        field: '(items)',
        reason: expect.stringMatching(
          /^nothing left to ship: .*quantity-to-ship is 0.*not imported$/,
        ),
      }),
    ]);
    expect(report.ordersLeftOut).toBeUndefined();
  });

  it("a bad row of a store export is named by the file's own column; the other orders come in", () => {
    const text = fixture('shopify-orders-export.csv')
      .split('\n')
      .map((line) =>
        line.startsWith('#1002,') ? line.replace(',1,Lavender', ',one,Lavender') : line,
      )
      .join('\n');
    const { report } = importFile('shopify-orders-export.csv', text);
    expect(report.imported).toEqual(['#1001', '#1003']);
    expect(report.problems).toEqual([
      expect.objectContaining({
        orderNumber: '#1002',
        row: 4,
        line: 5,
        field: 'Lineitem quantity',
        reason: '"one" is not a number',
      }),
    ]);
  });

  it('a Shopify export without its "Name" column is told in Shopify\'s words, not the station\'s column names', () => {
    const { report } = importFile('shopify-export-without-name.csv');
    expect(report.imported).toEqual([]);
    expect(report.problems).toEqual([
      expect.objectContaining({
        row: 0,
        field: '(header)',
        reason:
          'this looks like a Shopify orders export, but its column "Name" (the order number) is missing',
      }),
    ]);
    // Nothing the person never had in the file: no order_number, ship_to_address1, …
    expect(report.problems[0]!.reason).not.toMatch(/order_number|ship_to_/);
    // One a ShipStation export needs for the address, and one of its signature, both by name.
    const shipStation = fixture('shipstation-orders-export.csv');
    const header = shipStation.split('\n')[0]!;
    const without = (text: string, ...drop: string[]) => {
      const names = header.split(',');
      const keep = names.map((n) => !drop.includes(n));
      return text
        .split('\n')
        .map((line) =>
          line === ''
            ? line
            : line
                .split(',')
                .filter((_, i) => keep[i])
                .join(','),
        )
        .join('\n');
    };
    const { report: noCity } = importFile(
      'shipstation-orders-export.csv',
      without(header, 'Ship To - City', 'Item - SKU'),
    );
    expect(noCity.problems.map((p) => p.reason)).toEqual([
      'this looks like a ShipStation orders export, but its columns "Item - SKU" (the SKU) and "Ship To - City" (the city) are missing',
    ]);
  });

  it('a broken first row of a multi-row order is its one problem: no invented "is empty" for the rows after it', () => {
    // The first row of #1001 has an unquoted comma in the product name: one field too many.
    const { report } = importFile('shopify-export-broken-first-row.csv');
    expect(report.imported).toEqual(['#1002', '#1003']);
    expect(report.problems).toEqual([
      expect.objectContaining({
        orderNumber: '#1001',
        row: 1,
        line: 2,
        field: '(row)',
        reason: 'has 80 fields, the header has 79',
      }),
    ]);
  });

  it('a broken BigCommerce product cell refuses that order only, saying why', () => {
    const text = fixture('bigcommerce-orders-export.csv').replace(
      'Product ID: 79, Product Qty: 1',
      'ID 79 Qty 1',
    );
    const { report } = importFile('bigcommerce-orders-export.csv', text);
    expect(report.imported).toEqual(['214']);
    expect(report.problems).toEqual([
      expect.objectContaining({ orderNumber: '215', field: 'Product Details' }),
    ]);
  });
});

describe('a saved column mapping', () => {
  const text = [
    'Ref,Customer,Street,Town,Region,Post code,Country,Article,Pieces',
    'K-1,Lea Roth,Hauptstr. 5,Berlin,BE,10115,Germany,LUM-CEDAR-8,2',
    'K-1,,,,,,,LUM-TRIM-1,1',
    'K-2,Jon Park,88 Vine St,Seattle,WA,98121,US,LUM-LAV-16,1',
  ].join('\n');

  it('reads a file in no known format once its columns are mapped', () => {
    const { report: unmapped } = importFile('our-erp.csv', text);
    expect(unmapped.imported).toEqual([]);
    expect(unmapped.problems[0]!.reason).toMatch(/its header has the columns "Ref", "Customer"/);

    const mappings = [
      {
        name: 'Our ERP',
        columns: {
          order_number: 'Ref',
          ship_to_name: 'Customer',
          ship_to_address1: 'Street',
          ship_to_city: 'Town',
          ship_to_state: 'Region',
          ship_to_postal_code: 'Post code',
          ship_to_country: 'Country',
          sku: 'Article',
          quantity: 'Pieces',
        },
      },
    ];
    const { report, order } = importFile('our-erp.csv', text, mappings as never);
    expect(report.format).toBe('saved mapping "Our ERP"');
    // A country name is read as its code; one the station does not know is named by column.
    expect(report.imported).toEqual(['K-1', 'K-2']);
    expect(report.problems).toEqual([]);
    expect(order('K-1').shipTo.countryCode).toBe('DE');
    const { report: odd } = importFile(
      'our-erp.csv',
      text.replace('Germany', 'Germania'),
      mappings as never,
    );
    expect(odd.imported).toEqual(['K-2']);
    expect(odd.problems).toEqual([
      expect.objectContaining({ orderNumber: 'K-1', field: 'Country', row: 1 }),
    ]);
    expect(order('K-2').packages[0]!.items[0]).toMatchObject({ sku: 'LUM-LAV-16', quantity: 1 });
  });
});

describe('a file in no format the station knows', () => {
  const german = [
    'Auftrag,Kunde,Strasse,Ort,PLZ,Land,Artikel,Menge',
    'A-7,Lea Roth,Hauptstr. 5,Berlin,10115,DE,LUM-CEDAR-8,2',
  ].join('\r\n');

  it("names the file's own headers and where to map them, never the station's column names", () => {
    const { report } = importFile('auftraege.csv', german);
    expect(report.imported).toEqual([]);
    expect(report.unmappedHeader).toEqual([
      'Auftrag',
      'Kunde',
      'Strasse',
      'Ort',
      'PLZ',
      'Land',
      'Artikel',
      'Menge',
    ]);
    expect(report.problems).toEqual([
      expect.objectContaining({
        field: '(header)',
        reason:
          'the station does not know this file\'s columns: its header has the columns "Auftrag", "Kunde", "Strasse", "Ort", "PLZ", "Land", "Artikel", "Menge", which is neither the station\'s order file, a store export it recognises, nor a column mapping saved in this profile. Import the file from Orders (Alt+8) or Settings → Orders (Alt+7) and map its columns once (which one is the order number, the street, …); then import it again, and files like it are read from then on',
      }),
    ]);
    expect(report.problems[0]!.reason).not.toMatch(/order_number|ship_to_/);
  });

  it("a file of the station's own columns with one misspelt still names the column it lacks", () => {
    const { report } = importFile(
      'typo.csv',
      'order_number,ship_to_adress1,ship_to_city,ship_to_postal_code,ship_to_country\nA-1,1 Main St,Austin,78701,US\n',
    );
    expect(report.problems[0]!.reason).toBe('missing column: ship_to_address1');
  });
});
