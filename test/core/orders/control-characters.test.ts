import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { importOrders, type TenantPolicy } from '../../../src/core/orders/order-import.js';
import { OrderRepository } from '../../../src/core/orders/order-repository.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { renderPackingSlip } from '../../../src/core/printing/packing-slip.js';
import { testLabel } from '../../../src/core/printing/zpl.js';
import { tempDir } from '../../support/tmp.js';

const scope = { profileId: 'lumen', environment: 'sandbox' } as const;
const tenants: TenantPolicy = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };
const ESC = '\u001b';
const GS = '\u001d';
const drawer = `${ESC}p\u0000\u0019\u00fa`; // ESC p: open the cash drawer
const cut = `${GS}V\u0000`; // GS V: cut the paper
const csi = '\u009b2J'; // C1 CSI

const header =
  'order_number,tenant_id,ship_to_name,ship_to_company,ship_to_address1,ship_to_address2,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,ship_to_phone,ship_to_email,residential,service_levels,package,box,weight_lbs,length_in,width_in,height_in,sku,item_name,quantity,unit_value_usd';

function setup() {
  const db = openDatabase(join(tempDir(), 'station.db'));
  return new OrderRepository(db);
}

describe('10. control characters never reach a printer', () => {
  it('a CSV import strips C0/C1 control characters from every field and reports each row', () => {
    const orders = setup();
    const csv = [
      header,
      `LUM-1,tnt_lumen,Maya${drawer} Okafor,,418 Willow Lane,,Evanston,IL,60201,US,,,yes,,1,BOX-S,1.8,8,6,4,CNDL-1,Amber candle${cut},2,24.00`,
      `LUM-2,tnt_lumen,Dan Reyes,,2210 E 6th St${csi},,Austin,TX,78702,US,,,yes,,1,BOX-M,3.4,12,9,6,CNDL-2,Sea Salt candle,3,32.00`,
      `LUM-3,tnt_lumen,Clean Name,,1 Main St,,Austin,TX,78702,US,,,yes,,1,BOX-M,3.4,12,9,6,CNDL-3,Plain candle,1,10.00`,
    ].join('\n');
    const report = importOrders(orders, scope, tenants, {
      text: csv,
      format: 'csv',
      source: 'x.csv',
    });
    expect(report.imported).toEqual(['LUM-1', 'LUM-2', 'LUM-3']);
    const stored = JSON.stringify(
      ['LUM-1', 'LUM-2', 'LUM-3'].map((n) => orders.findByNumber(scope, n)),
    );
    // eslint-disable-next-line no-control-regex
    expect(stored).not.toMatch(/[\u0000-\u001f\u007f-\u009f]|\\u00[01]/);
    expect(orders.findByNumber(scope, 'LUM-1')[0]!.shipTo.name).toBe('Mayap\u00fa Okafor');
    expect(orders.findByNumber(scope, 'LUM-1')[0]!.packages[0]!.items[0]!.name).toBe(
      'Amber candleV',
    );
    const cleaned = (report.cleaned ?? []).map((c) => [c.orderNumber, c.field]);
    expect(cleaned).toEqual([
      ['LUM-1', 'shipTo.name'],
      ['LUM-1', 'packages[0].items[0].name'],
      ['LUM-2', 'shipTo.addressLine1'],
    ]);
    expect(report.cleaned![0]!.row).toBe(1);
    expect(report.cleaned![0]!.reason).toMatch(/control character/);
  });

  it('a row refused for another reason names its order without the control characters', () => {
    const orders = setup();
    const csv = [
      header,
      // A weight nobody can read, and a printer escape in the order number.
      `LUM-${ESC}9,tnt_lumen,Maya Okafor,,418 Willow Lane,,Evanston,IL,60201,US,,,yes,,1,BOX-S,heavy,8,6,4,CNDL-1,Amber candle,2,24.00`,
    ].join('\n');
    const report = importOrders(orders, scope, tenants, {
      text: csv,
      format: 'csv',
      source: 'x.csv',
    });
    expect(report.imported).toEqual([]);
    expect(report.problems.map((p) => p.orderNumber)).toEqual(['LUM-9']);
    // eslint-disable-next-line no-control-regex
    expect(JSON.stringify(report)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]|\\u00[01]/);
  });

  it('a JSON import does the same', () => {
    const orders = setup();
    const json = JSON.stringify([
      {
        orderNumber: 'J-1',
        shipTo: {
          name: `Ada${ESC}@`,
          addressLine1: '1 Main St',
          city: 'Austin',
          postalCode: '78702',
          countryCode: 'US',
        },
        packages: [{ weightLbs: 1, items: [{ sku: 'S', name: `Mug${cut}`, quantity: 1 }] }],
      },
    ]);
    const report = importOrders(orders, scope, tenants, {
      text: json,
      format: 'json',
      source: 'j.json',
    });
    expect(report.imported).toEqual(['J-1']);
    const order = orders.findByNumber(scope, 'J-1')[0]!;
    expect(order.shipTo.name).toBe('Ada@');
    expect(order.packages[0]!.items[0]!.name).toBe('MugV');
    expect(report.cleaned?.map((c) => c.field)).toEqual([
      'shipTo.name',
      'packages[0].items[0].name',
    ]);
  });

  it('a packing slip never carries control bytes from order text (no drawer kick, no extra cut)', () => {
    const clean = renderPackingSlip({
      orderNumber: 'ORD-1',
      shipTo: { name: 'Dana' },
      items: [{ sku: 'A', name: 'Tent', quantity: 1 }],
      footer: 'Thanks',
    }).toString('latin1');
    const hostile = renderPackingSlip({
      orderNumber: 'ORD-1',
      brand: `Acme${drawer}`,
      shipTo: { name: `Dana${drawer}`, city: `Austin${cut}` },
      items: [{ sku: `A${cut}`, name: `Tent${drawer}${csi}`, quantity: 1 }],
      packedBy: `pat${cut}`,
      footer: `Thanks${cut}`,
    }).toString('latin1');
    expect(hostile).not.toContain(`${ESC}p`);
    const count = (text: string, what: string) => text.split(what).length - 1;
    expect(count(hostile, `${GS}V`)).toBe(count(clean, `${GS}V`));
    expect(hostile).not.toContain('\u009b');
  });

  it('text the station puts into ZPL is ^FH-escaped and free of control characters', () => {
    const zpl = testLabel({
      id: 'p',
      name: `ZD421^XZ^XA~JR_x${ESC}\n`,
      kind: 'network',
      host: '10.0.0.5',
    });
    const fields = zpl.split('\n').filter((l) => l.includes('^FD'));
    for (const field of fields) expect(field).toContain('^FH^FD');
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).not.toContain('~JR');
    expect(zpl).toContain('ZD421_5eXZ_5eXA_7eJR_5fx');
    // eslint-disable-next-line no-control-regex
    expect(zpl.replaceAll('\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
