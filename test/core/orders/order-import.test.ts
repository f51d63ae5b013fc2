import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeOrderFile,
  importOrders,
  type TenantPolicy,
} from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { StationScope } from '../../../src/core/storage/scope.js';
import { tempDir } from '../../support/tmp.js';

const corpus = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../fixtures/orders', name), 'utf8');
const resources = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../../resources/orders', name), 'utf8');

const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };

function setup() {
  const db = openDatabase(join(tempDir(), 'station.db'));
  return { db, orders: new OrderRepository(db) };
}

describe('order import', () => {
  it('imports the good rows of a bad CSV and reports each bad row with its row, line, field and reason', () => {
    const { orders } = setup();
    const report = importOrders(orders, scope, tenants, {
      text: corpus('bad-rows.csv'),
      format: 'csv',
      source: 'bad-rows.csv',
    });
    expect(report.imported).toEqual(['A-1', 'A-9']);
    const where = report.problems.map((p) => [p.orderNumber, p.row, p.field]);
    expect(where).toEqual(
      expect.arrayContaining([
        ['A-2', 2, 'weight_lbs'],
        ['A-3', 3, 'ship_to_country'],
        ['A-4', 4, 'weight_lbs'],
        ['A-4', 4, 'quantity'],
        ['A-5', 5, 'residential'],
        ['A-6', 6, 'ship_to_address1'],
        ['A-7', 7, '(row)'],
        ['A-8', 8, 'tenant_id'],
        ['A-10', 12, 'package'],
      ]),
    );
    const a4 = report.problems.find((p) => p.orderNumber === 'A-4')!;
    expect(a4.line).toBe(5);
    expect(
      report.problems.find((p) => p.orderNumber === 'A-5' && p.field === 'weight_lbs'),
    ).toMatchObject({ reason: expect.stringMatching(/at most 150 lb/) });
    expect(report.problems.find((p) => p.orderNumber === 'A-8')!.reason).toMatch(
      /tnt_somebody_else is not one this profile ships for/,
    );
    // Nothing of a bad order was stored.
    expect(orders.findByNumber(scope, 'A-2')).toEqual([]);
  });

  it('a file with a header and no orders under it says so, not just "0 imported"', () => {
    const { orders } = setup();
    const text =
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs,sku,item_name,quantity\n';
    const report = importOrders(orders, scope, tenants, {
      text,
      format: 'csv',
      source: 'empty.csv',
    });
    expect(report.imported).toEqual([]);
    expect(report.problems).toEqual([
      expect.objectContaining({
        field: '(file)',
        reason: 'the file has a header row but no orders under it',
      }),
    ]);
  });

  it('an order whose rows repeat a line or name another person is not imported, and says which rows', () => {
    const { orders } = setup();
    const header =
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs,sku,item_name,quantity';
    const text = [
      header,
      'D-1,Ada,1 Main St,Austin,78701,US,2,C-1,Candle,1',
      'D-1,,,,,,,C-2,Wick,1',
      'D-2,Bo,2 Main St,Austin,78701,US,2,C-1,Candle,1',
      'D-1,Ada,1 Main St,Austin,78701,US,2,C-1,Candle,1',
      'D-3,First Version,3 Main St,Austin,78701,US,2,C-1,Candle,1',
      'D-3,Second Version,,,,,,C-3,Soap,1',
    ].join('\n');
    const report = importOrders(orders, scope, tenants, { text, format: 'csv', source: 'dup.csv' });
    expect(report.imported).toEqual(['D-2']);
    expect(report.problems.find((p) => p.orderNumber === 'D-1')).toMatchObject({
      row: 4,
      field: '(row)',
      // Rows named in the reason as the spreadsheet numbers them (the header is row 1), as the
      // station shows the problem's own row (`row` + 1): the first D-1 is on row 2.
      reason: expect.stringMatching(/^repeats row 2 exactly: its items would be counted twice/),
    });
    expect(report.problems.find((p) => p.orderNumber === 'D-3')).toMatchObject({
      row: 6,
      field: 'ship_to_name',
      reason: expect.stringMatching(
        /"Second Version" differs from the order's first row \(row 6: "First Version"\)/,
      ),
    });
    expect(orders.findByNumber(scope, 'D-1')).toEqual([]);
    expect(orders.findByNumber(scope, 'D-3')).toEqual([]);
  });

  it('a picture saved under .csv is one problem that says what the file is, not a problem per line', () => {
    const { orders } = setup();
    const png = readFileSync(join(import.meta.dirname, '../../../resources/icons/256x256.png'));
    const report = importOrders(orders, scope, tenants, {
      text: decodeOrderFile(png),
      format: 'csv',
      source: 'picture.csv',
    });
    expect(report.imported).toEqual([]);
    expect(report.problemCount).toBe(1);
    expect(report.problems[0]).toMatchObject({
      row: 0,
      field: '(file)',
      reason: expect.stringMatching(
        /^This is not a text file: it looks like a PNG picture\. Export the orders as CSV/,
      ),
    });
  });

  it('stores a multi-package order with its weights and items, quoted text intact', () => {
    const { orders } = setup();
    importOrders(orders, scope, tenants, {
      text: corpus('bad-rows.csv'),
      format: 'csv',
      source: 'f',
    });
    const [a9] = orders.findByNumber(scope, 'A-9');
    expect(a9!.packages.map((p) => [p.weightLbs, p.items.map((i) => i.sku)])).toEqual([
      [4, ['MUG-1']],
      [3.5, ['MUG-2', 'MUG-3']],
    ]);
    const [a1] = orders.findByNumber(scope, 'A-1');
    expect(a1!.shipTo).toMatchObject({ addressLine1: '1 Main St, Apt 2', isResidential: true });
    expect(a1!.packages[0]!.items[0]).toMatchObject({ name: 'Candle "Amber"', valueCents: 1800 });
    expect(a1!.tenantId).toBe('tnt_lumen');
  });

  it('a US ZIP code that is not one, and a US state code that does not exist, are said by row; labels for them are never bought', () => {
    const { orders } = setup();
    const text = [
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
      'Z-1,Ann,1 Main St,Austin,TX,ABCDE,US,1',
      'Z-2,Bob,2 Main St,Austin,ZZ,78701,US,1',
      'Z-3,Cy,3 Main St,Austin,TX,78701-1234,US,1',
      'Z-4,Di,4 Main St,Chicago,Illinois,60607 1234,US,1',
      'Z-5,Ed,5 King St,Toronto,ON,M5H 2N2,CA,1',
    ].join('\n');
    const report = importOrders(orders, scope, tenants, { text, format: 'csv', source: 'z.csv' });
    expect(report.imported).toEqual(['Z-3', 'Z-4', 'Z-5']);
    expect(report.problems.map((p) => [p.orderNumber, p.field, p.reason])).toEqual([
      [
        'Z-1',
        'ship_to_postal_code',
        '"ABCDE" is not a US ZIP code (5 digits, or ZIP+4 such as 60607-1234)',
      ],
      ['Z-2', 'ship_to_state', '"ZZ" is not a US state code (such as TX or IL)'],
    ]);
    expect(report.ordersLeftOut).toBe(2);
  });

  it('a stray quote in a semicolon file costs its own order only, named by row and order number and counted as left out', () => {
    const { orders } = setup();
    const header =
      'order_number;ship_to_name;ship_to_address1;ship_to_city;ship_to_state;ship_to_postal_code;ship_to_country;weight_lbs';
    const text = [
      header,
      'E-1;Ann;"1 Main St";Austin;TX;78701;US;1,5',
      'E-2;Unclosed;"2 Oak St;Austin;TX;78701;US;2',
      'E-3;Bob;"3 Elm St; Unit 4";Austin;TX;78701;US;2,25',
      'E-4;Cy;4 Pine St;Austin;TX;78701;US;3',
    ].join('\r\n');
    const report = importOrders(orders, scope, tenants, { text, format: 'csv', source: 'eu.csv' });
    expect(report.imported).toEqual(['E-1', 'E-3', 'E-4']);
    expect(orders.findByNumber(scope, 'E-3')[0]!.shipTo.addressLine1).toBe('3 Elm St; Unit 4');
    expect(report.problems).toEqual([
      // The second order under the header (row 3 of the sheet, as the report shows it), line 3.
      expect.objectContaining({
        row: 2,
        line: 3,
        orderNumber: 'E-2',
        reason: expect.stringMatching(/never closed/),
      }),
    ]);
    expect(report.ordersLeftOut).toBe(1);
  });

  it.each([
    ['unterminated-quote.csv', 'csv', /never closed/],
    [
      'missing-columns.csv',
      'csv',
      /does not know this file's columns: its header has the columns "order", "addr"/,
    ],
    ['empty.csv', 'csv', /no header row/],
    [
      'truncated.json',
      'json',
      /^not valid JSON: it ends in the middle, at line \d+: the file looks cut short/,
    ],
    ['wrong-shape.json', 'json', /expected an array of orders/],
  ] as const)(
    'reports a broken file (%s) without importing or throwing',
    (name, format, reason) => {
      const { orders } = setup();
      const report = importOrders(orders, scope, tenants, {
        text: corpus(name),
        format,
        source: name,
      });
      expect(report.imported).toEqual([]);
      expect(report.problems.map((p) => p.reason).join('\n')).toMatch(reason);
    },
  );

  it('a JSON item with only a SKU or only a name takes it for both; a cut-short JSON file says at which line it stops', () => {
    const { orders } = setup();
    const address = {
      name: 'Ana',
      addressLine1: '1 Main St',
      city: 'Austin',
      postalCode: '78701',
      countryCode: 'US',
    };
    const list = [
      {
        orderNumber: 'J-1',
        shipTo: address,
        packages: [{ weightLbs: 2, items: [{ sku: 'MUG-1', quantity: 1 }] }],
      },
      {
        orderNumber: 'J-2',
        shipTo: address,
        packages: [{ weightLbs: 2, items: [{ name: 'Amber candle', sku: ' ', quantity: 2 }] }],
      },
      {
        orderNumber: 'J-3',
        shipTo: address,
        packages: [{ weightLbs: 2, items: [{ quantity: 2 }] }],
      },
    ];
    const text = JSON.stringify(list, null, 2);
    const report = importOrders(orders, scope, tenants, {
      text,
      format: 'json',
      source: 'shop.json',
    });
    expect(report.imported).toEqual(['J-1', 'J-2']);
    expect(orders.findByNumber(scope, 'J-1')[0]!.packages[0]!.items[0]).toMatchObject({
      sku: 'MUG-1',
      name: 'MUG-1',
    });
    expect(orders.findByNumber(scope, 'J-2')[0]!.packages[0]!.items[0]).toMatchObject({
      sku: 'Amber candle',
      name: 'Amber candle',
    });
    // Neither: the order is refused for it, with the field named.
    expect(report.problems.filter((p) => p.orderNumber === 'J-3').map((p) => p.field)).toEqual(
      expect.arrayContaining(['packages.0.items.0.sku', 'packages.0.items.0.name']),
    );

    const lines = text.split('\n');
    const cut = lines.slice(0, 30).join('\n');
    const broken = importOrders(setup().orders, scope, tenants, {
      text: cut,
      format: 'json',
      source: 'cut.json',
    });
    expect(broken.imported).toEqual([]);
    expect(broken.problems[0]!.reason).toBe(
      'not valid JSON: it ends in the middle, at line 30: the file looks cut short (copied or saved only in part)',
    );
    const inString = `${lines.slice(0, 12).join('\n')}\n      "city": "Aus`;
    expect(
      importOrders(setup().orders, scope, tenants, {
        text: inString,
        format: 'json',
        source: 'cut.json',
      }).problems[0]!.reason,
    ).toMatch(/ends in the middle, at line 13:/);
  });

  it('a decimal comma in a file that writes decimals with a point is refused with the number it may mean', () => {
    const { orders } = setup();
    const text = [
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country,weight_lbs,sku,quantity',
      'DC-1,Ana,1 Main St,Austin,78701,US,1.5,MUG-1,1',
      'DC-2,Bo,2 Main St,Austin,78701,US,"2,5",MUG-1,1',
    ].join('\n');
    const report = importOrders(orders, scope, tenants, { text, format: 'csv', source: 'c.csv' });
    expect(report.imported).toEqual(['DC-1']);
    expect(report.problems[0]).toMatchObject({
      orderNumber: 'DC-2',
      reason:
        '"2,5" is not a number here: this file writes decimals with a point (2.5), and a comma only between thousands (1,024 or 12,500.5)',
    });
  });

  it('reads what Excel saves: semicolons with decimal commas, Windows-1252, UTF-16 tab-separated', () => {
    const { orders } = setup();
    const header =
      'order_number;ship_to_name;ship_to_address1;ship_to_city;ship_to_postal_code;ship_to_country;weight_lbs;sku;quantity';
    // "CSV (semicolon)" from Excel in a European locale, as UTF-8 with a BOM and CRLF.
    const semicolons = [
      '\uFEFF' + header,
      'EU-1;"Zoë Brandt";"Hauptstr. 5; Hinterhaus";Berlin;10115;DE;14,6;MUG-1;2',
      'EU-2;Ana;Rua 1;Lisboa;1000-001;PT;0x10;MUG-2;1',
      '',
    ].join('\r\n');
    const report = importOrders(orders, scope, tenants, {
      text: decodeOrderFile(new TextEncoder().encode(semicolons)),
      format: 'csv',
      source: 'excel.csv',
    });
    expect(report.imported).toEqual(['EU-1']);
    const [eu1] = orders.findByNumber(scope, 'EU-1');
    expect(eu1!.shipTo).toMatchObject({
      name: 'Zoë Brandt',
      addressLine1: 'Hauptstr. 5; Hinterhaus',
    });
    expect(eu1!.packages[0]).toMatchObject({
      weightLbs: 14.6,
      items: [{ sku: 'MUG-1', quantity: 2 }],
    });
    // A hex number from a garbled cell is not a weight.
    expect(report.problems).toEqual([
      expect.objectContaining({
        orderNumber: 'EU-2',
        row: 2,
        field: 'weight_lbs',
        reason: '"0x10" is not a number',
      }),
    ]);

    // Excel's plain "CSV" on Windows is Windows-1252: é is one byte, 0xE9.
    const latin = Buffer.from(
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_postal_code,ship_to_country\r\nW-1,Ren\xe9e,1 Main St,Austin,78701,US\r\n',
      'latin1',
    );
    const text = decodeOrderFile(latin);
    expect(text).toContain('Renée');
    importOrders(orders, scope, tenants, { text, format: 'csv', source: 'w.csv' });
    expect(orders.findByNumber(scope, 'W-1')[0]!.shipTo.name).toBe('Renée');

    // "Unicode text": UTF-16LE with a BOM, tab-separated.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(
        'order_number\tship_to_address1\tship_to_city\tship_to_postal_code\tship_to_country\nU-1\t2 Elm St\tAustin\t78701\tUS\n',
        'utf16le',
      ),
    ]);
    const tabbed = importOrders(orders, scope, tenants, {
      text: decodeOrderFile(utf16),
      format: 'csv',
      source: 'u.txt',
    });
    expect(tabbed).toMatchObject({ imported: ['U-1'], problems: [] });
  });

  it('puts back the leading zeros a spreadsheet took from US ZIP codes, and only those', () => {
    const { orders } = setup();
    const csv = [
      'order_number,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country',
      'Z-1,5 Harbor View Rd,Portland,ME,4101,US',
      'Z-2,1 Elm St,Boston,MA,2108-1234,us',
      'Z-3,Hauptstr. 5,Berlin,,10115,DE',
      'Z-4,1 Rue X,Luxembourg,,1234,LU',
    ].join('\n');
    importOrders(orders, scope, tenants, { text: csv, format: 'csv', source: 'zip.csv' });
    const zip = (n: string) => orders.findByNumber(scope, n)[0]!.shipTo.postalCode;
    expect([zip('Z-1'), zip('Z-2'), zip('Z-3'), zip('Z-4')]).toEqual([
      '04101',
      '02108-1234',
      '10115',
      '1234',
    ]);
    const json = JSON.stringify([
      {
        orderNumber: 'Z-5',
        shipTo: { addressLine1: '1 A St', city: 'Hoboken', postalCode: 7030, countryCode: 'US' },
        packages: [{ weightLbs: 1 }],
      },
    ]);
    const report = importOrders(orders, scope, tenants, {
      text: json,
      format: 'json',
      source: 'j',
    });
    expect(report.problems).toEqual([]);
    expect(zip('Z-5')).toBe('07030');
  });

  it('imports the good orders of a bad JSON file and names each bad field by path', () => {
    const { orders } = setup();
    const report = importOrders(orders, scope, tenants, {
      text: corpus('bad-orders.json'),
      format: 'json',
      source: 'bad-orders.json',
    });
    expect(report.imported).toEqual(['J-1']);
    const where = report.problems.map((p) => [p.row, p.field]);
    expect(where).toEqual(
      expect.arrayContaining([
        [2, 'shipTo.countryCode'],
        [2, 'packages.0.weightLbs'],
        [3, 'packages'],
        [4, '(order)'],
        [5, 'orderNumber'],
        [6, 'serviceLevels.0'],
        [6, 'packages.0.items.0.quantity'],
      ]),
    );
    expect(orders.findByNumber(scope, 'J-1')[0]!.packages[0]!.items[0]!.valueCents).toBe(1800);
  });

  it('a file that gives no items for an order keeps the items the station has (an address correction)', () => {
    const { orders } = setup();
    const header =
      'order_number,ship_to_name,ship_to_company,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,package,weight_lbs';
    importOrders(orders, scope, tenants, {
      text: `${header},sku,item_name,quantity\nK-1,Ann Lee,Lee Co,1 Main St,Austin,TX,78701,US,1,2,MUG,Mug,2\nK-1,,,,,,,,2,3,CUP,Cup,1\n`,
      format: 'csv',
      source: 'store.csv',
    });
    // The corrected street, in a file with no item columns and one package only.
    const fix = `${header}\nK-1,Ann Lee,Lee Co,9 Elm St,Austin,TX,78701,US,1,4\n`;
    const again = importOrders(orders, scope, tenants, {
      text: fix,
      format: 'csv',
      source: 'fix.csv',
    });
    expect(again.updated).toEqual(['K-1']);
    const order = orders.findByNumber(scope, 'K-1')[0]!;
    expect(order.shipTo.addressLine1).toBe('9 Elm St');
    expect(order.packages).toHaveLength(1);
    expect(order.packages[0]!.weightLbs).toBe(4);
    expect(order.packages[0]!.items.map((i) => [i.sku, i.quantity])).toEqual([
      ['MUG', 2],
      ['CUP', 1],
    ]);
    // The same correction once more is nothing new.
    expect(
      importOrders(orders, scope, tenants, { text: fix, format: 'csv', source: 'fix.csv' }).same,
    ).toEqual(['K-1']);
  });

  it('updates an order imported again, but leaves one that has a label purchase alone', () => {
    const { db, orders } = setup();
    const text = (city: string) =>
      JSON.stringify([
        {
          orderNumber: 'R-1',
          shipTo: { addressLine1: '1 A St', city, postalCode: '10001', countryCode: 'US' },
          packages: [{ weightLbs: 1 }],
        },
      ]);
    importOrders(orders, scope, tenants, { text: text('New York'), format: 'json', source: 'a' });
    const again = importOrders(orders, scope, tenants, {
      text: text('Brooklyn'),
      format: 'json',
      source: 'b',
    });
    expect(again.updated).toEqual(['R-1']);
    const order = orders.findByNumber(scope, 'R-1')[0]!;
    expect(order.shipTo.city).toBe('Brooklyn');
    const now = new Date().toISOString();
    const shipment = db
      .prepare(
        `INSERT INTO shipments (profile_id, environment, tenant_id, order_id, state, shipment, created_at, updated_at)
         VALUES ('lumen', 'sandbox', 'tnt_lumen', ?, 'purchased', '{}', ?, ?)`,
      )
      .run(order.id, now, now).lastInsertRowid;
    db.prepare(
      `INSERT INTO label_purchases (id, shipment_id, profile_id, environment, tenant_id, order_reference, state, request, created_at, updated_at)
       VALUES ('lp_1', ?, 'lumen', 'sandbox', 'tnt_lumen', 'R-1-X', 'purchased', '{}', ?, ?)`,
    ).run(shipment, now, now);
    const third = importOrders(orders, scope, tenants, {
      text: text('Queens'),
      format: 'json',
      source: 'c',
    });
    expect(third.unchanged).toEqual(['R-1']);
    expect(orders.findByNumber(scope, 'R-1')[0]!.shipTo.city).toBe('Brooklyn');
    // Said, with what differs: the label went to the address the order had.
    expect(third.labelledChanged).toEqual([
      expect.objectContaining({
        orderNumber: 'R-1',
        reason: expect.stringMatching(
          /^already has a label, bought for the order as it was; the file now gives the ship-to city "Queens" \(was "Brooklyn"\)\. Neither the order nor its label was changed: check that parcel\./,
        ),
      }),
    ]);
    // The labelled order imported again as it is stored: already here, not "skipped".
    const fourth = importOrders(orders, scope, tenants, {
      text: text('Brooklyn'),
      format: 'json',
      source: 'd',
    });
    expect(fourth).toMatchObject({ same: ['R-1'], unchanged: [] });
    expect(fourth.labelledChanged).toBeUndefined();
  });

  it('imports the shipped samples for the demo brand and the 3PL brands without a problem', () => {
    const { orders } = setup();
    const threePl: TenantPolicy = {
      defaultTenantId: 'tnt_harbor',
      allowedTenantIds: ['tnt_harbor', 'tnt_driftwood', 'tnt_pinecrest'],
    };
    const lumen: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };
    const csv = importOrders(orders, scope, lumen, {
      text: resources('sample-orders.csv'),
      format: 'csv',
      source: 'sample-orders.csv',
    });
    const json = importOrders(orders, { ...scope, profileId: 'harbor' }, threePl, {
      text: resources('sample-orders.json'),
      format: 'json',
      source: 'sample-orders.json',
    });
    expect(csv.problems).toEqual([]);
    expect(json.problems).toEqual([]);
    expect(csv.imported.length + json.imported.length).toBeGreaterThanOrEqual(12);
    const multi = orders.recent(scope).find((o) => o.packages.length > 1);
    expect(multi).toBeDefined();
  });

  it("a brand's orders refused by a 3PL profile that does not list the brand say where to add it, not to fix the file", () => {
    const { orders } = setup();
    // A 3PL profile created with none of its brands ticked ships for its own tenant only.
    const harborOnly: TenantPolicy = {
      defaultTenantId: 'tnt_harbor',
      allowedTenantIds: ['tnt_harbor'],
    };
    const report = importOrders(orders, { ...scope, profileId: 'harbor' }, harborOnly, {
      text: resources('sample-orders.json'),
      format: 'json',
      source: 'sample-orders.json',
    });
    const refused = report.problems.filter((p) => p.field === 'tenantId');
    expect(refused.length).toBeGreaterThan(0);
    const driftwood = refused.find((p) => p.reason.includes('tnt_driftwood'))!;
    // Until 2026-11-29 it said only "tenant tnt_driftwood is not one this profile ships for
    // (tnt_harbor)", and the report told site IT to put the file right.
    expect(driftwood.reason).toBe(
      'tenant tnt_driftwood is not one this profile ships for (it ships for tnt_harbor). If it is a brand this station packs for, the profile must list it: Settings → New profile, tick it under "Brands this station ships for" (or brandTenants in a provisioning file); otherwise the row names the wrong tenant.',
    );
  });
});
