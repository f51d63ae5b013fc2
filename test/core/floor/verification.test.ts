import { describe, expect, it } from 'vitest';
import { importOrders } from '../../../src/core/orders/order-import.js';
import { countScan, sameBarcode, type VerifyLine } from '../../../src/core/packing/verification.js';
import { useSandbox } from '../../support/sandbox.js';
import { ledgerFor, orderId, stationFor } from '../packing/support/harness.js';
import { lumenProfile, tenantPolicy } from '../packing/support/station.js';

const sb = useSandbox();

const csv = [
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,package,weight_lbs,sku,item_name,quantity,barcode,image_url',
  'VER-1,Maya Okafor,418 Willow Lane,Evanston,IL,60201,US,1,1.8,CNDL-AMB-8,Amber candle,2,012345678905,https://img.example.com/amber.png',
  'VER-1,,,,,,,1,,WICK-TRIM,Wick trimmer,1,4006381333931,',
  'VER-2,Grace Liu,1650 Market St,San Francisco,CA,94103,US,1,0.9,CNDL-TRAVEL,Travel tin,12,,',
].join('\n');

async function station(require = true) {
  sb.clearFaults();
  const s = await stationFor((printers) =>
    lumenProfile(sb.url, printers, { requireItemVerification: require }),
  );
  const report = importOrders(
    s.workflow.orders,
    s.workflow.scope,
    tenantPolicy(s.workflow.profile),
    {
      text: csv,
      format: 'csv',
      source: 'verify.csv',
    },
  );
  expect(report.problems).toEqual([]);
  return s;
}

describe('scan to verify (#15.1)', () => {
  it('counts SKU and barcode scans against each line, refuses a wrong item and one too many', async () => {
    const s = await station();
    const order = s.workflow.orders.get(orderId(s, 'VER-1'))!;
    expect(order.packages[0]!.items[0]).toMatchObject({
      barcode: '012345678905',
      imageUrl: 'https://img.example.com/amber.png',
    });
    const v = s.workflow.verification;

    // The EAN-13 form of the UPC-A (a leading 0) is the same item; a scanner's Enter is dropped.
    const first = v.scan(order, '0012345678905\r', { stationUser: 'ana' });
    expect(first).toMatchObject({ kind: 'counted', line: { sku: 'CNDL-AMB-8', scanned: 1 } });
    expect(first.state.complete).toBe(false);

    const wrong = v.scan(order, 'CNDL-SEA-12', { stationUser: 'ana' });
    expect(wrong).toMatchObject({ kind: 'wrong-item', value: 'CNDL-SEA-12' });
    expect(wrong.kind === 'wrong-item' && wrong.message).toMatch(
      /CNDL-SEA-12 is not in this order/,
    );

    expect(v.scan(order, 'cndl-amb-8')).toMatchObject({ kind: 'counted', line: { scanned: 2 } });
    const tooMany = v.scan(order, 'CNDL-AMB-8');
    expect(tooMany.kind).toBe('too-many');
    expect(tooMany.kind === 'too-many' && tooMany.message).toBe(
      'One too many: CNDL-AMB-8 (Amber candle). The order has 2, all 2 already scanned. Take it out of the box.',
    );
    const done = v.scan(order, '4006381333931');
    expect(done.state).toMatchObject({ complete: true, verified: true, override: null });

    // Survives a reopen of the repository (SQLite), and the history has every scan and refusal.
    expect(s.workflow.verification.state(order).complete).toBe(true);
    expect(v.history(order.id).map((e) => e.kind)).toEqual([
      'counted',
      'wrong-item',
      'counted',
      'too-many',
      'counted',
    ]);
  });

  it('a quantity key counts many of one item at once, and never past the quantity', async () => {
    const s = await station();
    const order = s.workflow.orders.get(orderId(s, 'VER-2'))!;
    const v = s.workflow.verification;
    const over = v.scan(order, 'CNDL-TRAVEL', { quantity: 13 });
    expect(over.kind === 'too-many' && over.message).toMatch(/only 12 more are in the order/);
    expect(v.state(order).lines[0]!.scanned).toBe(0);
    expect(v.scan(order, 'CNDL-TRAVEL', { quantity: 11 })).toMatchObject({
      kind: 'counted',
      quantity: 11,
      line: { scanned: 11 },
    });
    expect(v.scan(order, 'CNDL-TRAVEL').state.complete).toBe(true);
    expect(() => v.scan(order, 'CNDL-TRAVEL', { quantity: 0 })).toThrow(RangeError);
  });

  it('no label is bought until the order is verified; a shift lead may override with a reason', async () => {
    const s = await station();
    const id = orderId(s, 'VER-1');
    const order = s.workflow.orders.get(id)!;
    const quote = await s.workflow.rate(id, { stationUser: 'ana' });
    expect(quote.outcome).toBe('rated');
    const shipmentId = quote.outcome === 'rated' ? quote.shipment.id : -1;
    s.workflow.verification.scan(order, 'CNDL-AMB-8');
    const refused = await s.workflow.buy(shipmentId, { stationUser: 'ana' });
    expect(refused).toMatchObject({
      outcome: 'invalid',
      failure: {
        code: 'not-verified',
        message:
          'Order VER-1 is not verified: scan every item first (CNDL-AMB-8 1 of 2, WICK-TRIM 0 of 1), or a shift lead overrides with a reason.',
      },
    });
    expect(await ledgerFor(sb.url, 'VER-1')).toHaveLength(0);

    expect(() => s.workflow.verification.override(order, 'lee', '  ')).toThrow(/reason/);
    const overridden = s.workflow.verification.override(order, 'lee', 'trimmer out of stock');
    expect(overridden).toMatchObject({
      complete: false,
      verified: true,
      override: { by: 'lee', reason: 'trimmer out of stock' },
    });
    const bought = await s.workflow.buy(shipmentId, { stationUser: 'ana' });
    expect(bought.outcome).toBe('printed');
    expect(await ledgerFor(sb.url, 'VER-1')).toHaveLength(1);
    expect(s.workflow.verification.history(id).at(-1)).toMatchObject({
      kind: 'override',
      stationUser: 'lee',
      detail: 'trimmer out of stock',
    });
  });

  it('a corrected order starts its verification again, the same file again does not; a profile without the rule buys as before', async () => {
    const s = await station(false);
    const id = orderId(s, 'VER-2');
    const before = s.workflow.orders.get(id)!;
    s.workflow.verification.scan(before, 'CNDL-TRAVEL', { quantity: 12 });
    expect(s.workflow.verification.state(before).complete).toBe(true);
    await new Promise((r) => setTimeout(r, 5)); // a later updated_at for the second import
    const again = (text: string) =>
      importOrders(s.workflow.orders, s.workflow.scope, tenantPolicy(s.workflow.profile), {
        text,
        format: 'csv',
        source: 'verify-again.csv',
      });
    // The same file again (a second click, a hot folder's copy): the same version, still verified.
    const same = again(csv);
    expect(same.same).toEqual(['VER-1', 'VER-2']);
    expect([...same.imported, ...same.updated]).toEqual([]);
    expect(s.workflow.orders.get(id)!.updatedAt).toBe(before.updatedAt);
    expect(s.workflow.verification.state(s.workflow.orders.get(id)!).complete).toBe(true);
    // Corrected (one tin fewer): a new version, its items scanned again.
    const corrected = again(csv.replace('Travel tin,12', 'Travel tin,11'));
    expect(corrected.updated).toEqual(['VER-2']);
    expect(corrected.same).toEqual(['VER-1']);
    const after = s.workflow.orders.get(id)!;
    expect(after.updatedAt).not.toBe(before.updatedAt);
    expect(s.workflow.verification.state(after).lines[0]!.scanned).toBe(0);
    // Verification not required: the unverified order is bought.
    expect((await s.workflow.ship(id, { stationUser: 'ana' })).outcome).toBe('printed');
  });
});

describe('matching scans to items', () => {
  const line = (over: Partial<VerifyLine>): VerifyLine => ({
    key: '0:0',
    packageIndex: 0,
    sku: 'A',
    name: 'A',
    barcode: null,
    imageUrl: null,
    quantity: 1,
    scanned: 0,
    ...over,
  });
  it('UPC-A, EAN-13 and GTIN-14 of one item are the same barcode; other digits are not', () => {
    expect(sameBarcode('012345678905', '0012345678905')).toBe(true);
    expect(sameBarcode('012345678905', '00012345678905')).toBe(true);
    expect(sameBarcode('012345678905', '112345678905')).toBe(false);
    expect(sameBarcode('ABC', 'abc')).toBe(false);
  });
  it('two lines of the same item fill in order', () => {
    const lines = [
      line({ key: '0:0', quantity: 1 }),
      line({ key: '1:0', packageIndex: 1, quantity: 2 }),
    ];
    const r = countScan(lines, 'A', 2);
    expect(r.kind === 'counted' && r.lines.map((l) => l.scanned)).toEqual([1, 1]);
  });
});
