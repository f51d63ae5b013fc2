import { describe, expect, it } from 'vitest';
import { importOrders } from '../../../src/core/orders/order-import.js';
import type { RateResult, ShipResult } from '../../../src/core/packing/types.js';
import type { LabelRequest } from '../../../src/core/packing/platform-port.js';
import { useSandbox } from '../../support/sandbox.js';
import { waitForLabels } from '../../support/virtual-printer.js';
import { lumenProfile, tenantPolicy } from './support/station.js';
import { ledgerFor, orderId, stationFor, type TestStation } from './support/harness.js';

const sb = useSandbox();

const address = {
  name: 'Ava Lindqvist',
  addressLine1: '42 Orchard Ln',
  city: 'Portland',
  stateProvince: 'ME',
  postalCode: '04101',
  countryCode: 'US',
};
const toronto = {
  name: 'Maya Chen',
  addressLine1: '200 Front St W',
  city: 'Toronto',
  stateProvince: 'ON',
  postalCode: 'M5V 3K2',
  countryCode: 'CA',
};
const candle = {
  sku: 'LUM-CEDAR-8',
  name: 'Cedar & Smoke Candle 8 oz',
  quantity: 2,
  valueUsd: 24,
  weightLbs: 0.9,
};
const customs = {
  description: 'Soy wax candle in a glass jar',
  harmonizedCode: '3406.00',
  countryOfOrigin: 'US',
};
const lampOil = {
  sku: 'LUM-LAMP-OIL',
  name: 'Lamp oil 16 oz',
  quantity: 1,
  valueUsd: 12,
  weightLbs: 1.2,
  hazmat: {
    unNumber: 'UN1223',
    hazardClass: '3',
    packingGroup: 'III',
    properShippingName: 'Kerosene',
  },
};

function order(orderNumber: string, extra: Record<string, unknown>, items: unknown[] = [candle]) {
  return { orderNumber, shipTo: address, packages: [{ weightLbs: 2.5, items }], ...extra };
}

async function station(orders: unknown[]): Promise<TestStation> {
  sb.clearFaults();
  const s = await stationFor((printers) => lumenProfile(sb.url, printers));
  const report = importOrders(
    s.workflow.orders,
    s.workflow.scope,
    tenantPolicy(s.workflow.profile),
    {
      text: JSON.stringify(orders),
      format: 'json',
      source: 'test.json',
    },
  );
  expect(report.problems).toEqual([]);
  return s;
}

function rated(result: RateResult): Extract<RateResult, { outcome: 'rated' }> {
  if (result.outcome !== 'rated') throw new Error(JSON.stringify(result));
  return result;
}
function printed(result: ShipResult): Extract<ShipResult, { outcome: 'printed' }> {
  if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
  return result;
}
function requestOf(s: TestStation, shipmentId: number): LabelRequest {
  return s.workflow.shipments.purchasesForShipment(shipmentId)[0]!.request as LabelRequest;
}
const groundOf = (r: Extract<RateResult, { outcome: 'rated' }>) =>
  r.rates.shipmentRates.find((x) => x.serviceLevel === 'UPS_GROUND')!.amount;

describe('shipment options', () => {
  it('the order asks for an adult signature and messages: sent as the spec names them, priced, printed on the label', async () => {
    const s = await station([
      order('OPT-1', {}),
      order('OPT-2', {
        options: {
          deliveryConfirmation: 'adult signature',
          customMessage1: 'Gift: do not open',
          customMessage2: 'PO 5521',
        },
      }),
    ]);
    const plain = rated(await s.workflow.rate(orderId(s, 'OPT-1')));
    const signed = rated(await s.workflow.rate(orderId(s, 'OPT-2')));
    expect(s.workflow.orders.findByNumber(s.workflow.scope, 'OPT-2')[0]!.options).toEqual({
      deliveryConfirmation: 'ADULT_SIGNATURE',
      customMessage1: 'Gift: do not open',
      customMessage2: 'PO 5521',
    });
    expect(signed.shipment.shipment.options).toEqual({
      deliveryConfirmation: 'ADULT_SIGNATURE',
      customMessage1: 'Gift: do not open',
      customMessage2: 'PO 5521',
    });
    // Same parcel, same route: the signature is what costs more.
    expect(groundOf(signed)).toBeCloseTo(groundOf(plain) + 6.65, 2);
    const bought = printed(await s.workflow.buy(signed.shipment.id, { stationUser: 'ana' }));
    expect(requestOf(s, signed.shipment.id).shipment.options).toMatchObject({
      deliveryConfirmation: 'ADULT_SIGNATURE',
    });
    expect(bought.label.zpl).toContain('^FDGift: do not open^FS');
    expect(bought.label.zpl).toContain('ADULT SIGNATURE');
  });

  it('the packer sets Saturday delivery and additional handling: only services that deliver on Saturday are offered', async () => {
    const s = await station([order('OPT-3', {})]);
    const r = rated(
      await s.workflow.rate(orderId(s, 'OPT-3'), {
        options: { deliveryOption: 'SATURDAY_DELIVERY', additionalHandling: true },
      }),
    );
    expect(r.shipment.shipment.options).toEqual({
      deliveryOption: 'SATURDAY_DELIVERY',
      additionalHandling: true,
    });
    const levels = r.rates.shipmentRates.map((x) => x.serviceLevel);
    expect(levels).not.toContain('UPS_GROUND');
    expect(levels).toContain('UPS_NEXT_DAY_AIR');
    const bought = printed(await s.workflow.buy(r.shipment.id));
    expect(bought.label.zpl).toMatch(/SATURDAY DELIVERY \/ ADDITIONAL HANDLING/);
  });
});

describe('hazmat', () => {
  it('a flagged item goes with its UN number, class, packing group and proper shipping name', async () => {
    const s = await station([order('HAZ-1', {}, [lampOil])]);
    const r = rated(await s.workflow.rate(orderId(s, 'HAZ-1')));
    expect(r.shipment.shipment.packages[0]).toMatchObject({
      isHazmat: true,
      items: [
        {
          sku: 'LUM-LAMP-OIL',
          isHazmat: true,
          hazmatUnNumber: 'UN1223',
          hazmatTransportationRegulatoryClass: '3',
          hazmatPackingGroup: 'III',
          hazmatProperShippingName: 'Kerosene',
        },
      ],
    });
    const bought = printed(await s.workflow.buy(r.shipment.id));
    expect(bought.label.zpl).toContain('HAZMAT');
  });

  it('a hazmat item without its required fields is refused before anything is sent, naming them', async () => {
    const s = await station([
      order('HAZ-2', {}, [{ ...lampOil, hazmat: { unNumber: 'UN1223', hazardClass: '3' } }]),
    ]);
    const calls: string[] = [];
    s.client.observe((e) => calls.push(e.operation));
    const r = await s.workflow.rate(orderId(s, 'HAZ-2'));
    expect(r).toMatchObject({ outcome: 'invalid', failure: { code: 'hazmat-incomplete' } });
    const failure = (r as Extract<RateResult, { outcome: 'invalid' }>).failure;
    expect(failure.message).toContain(
      'Lamp oil 16 oz (LUM-LAMP-OIL) has no packing group, proper shipping name',
    );
    expect(failure.errors?.map((e) => e.field)).toEqual([
      'packages[0].items[0].hazmatPackingGroup',
      'packages[0].items[0].hazmatProperShippingName',
    ]);
    expect(calls).toEqual([]);
  });

  it('the order file is refused at import when a hazmat field is malformed (row and field named)', async () => {
    const s = await stationFor((printers) => lumenProfile(sb.url, printers));
    const report = importOrders(
      s.workflow.orders,
      s.workflow.scope,
      tenantPolicy(s.workflow.profile),
      {
        text: [
          'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,sku,item_name,quantity,hazmat,hazmat_un_number,hazmat_class,hazmat_packing_group,hazmat_proper_shipping_name',
          'HAZ-3,Ava,42 Orchard Ln,Portland,ME,04101,US,LUM-LAMP-OIL,Lamp oil,1,yes,1223,3,IV,Kerosene',
          'HAZ-4,Ava,42 Orchard Ln,Portland,ME,04101,US,LUM-LAMP-OIL,Lamp oil,1,yes,UN1223,3,III,Kerosene',
        ].join('\n'),
        format: 'csv',
        source: 'hazmat.csv',
      },
    );
    expect(report.imported).toEqual(['HAZ-4']);
    expect(report.problems.map((p) => [p.orderNumber, p.row, p.field])).toEqual([
      ['HAZ-3', 1, 'hazmat_un_number'],
      ['HAZ-3', 1, 'hazmat_packing_group'],
    ]);
  });
});

describe('international', () => {
  it('an order to Canada without customs data is refused, naming every missing field; nothing is sent', async () => {
    const s = await station([{ ...order('INT-1', {}), shipTo: toronto }]);
    const calls: string[] = [];
    s.client.observe((e) => calls.push(e.operation));
    const r = await s.workflow.rate(orderId(s, 'INT-1'));
    expect(r).toMatchObject({ outcome: 'invalid', failure: { code: 'customs-missing' } });
    const failure = (r as Extract<RateResult, { outcome: 'invalid' }>).failure;
    expect(failure.message).toBe(
      'Order INT-1 goes to CA, and customs need: Cedar & Smoke Candle 8 oz (LUM-CEDAR-8): description, harmonized code, country of origin; no incoterm (pick one, such as DAP or DDP). Nothing was bought; add them to the order file and import it again.',
    );
    expect(calls).toEqual([]);
    expect(await ledgerFor(sb.url, 'INT-1')).toEqual([]);
  });

  it('with customs per item and the incoterm the packer picked, it rates as international and the label says so', async () => {
    const s = await station([
      { ...order('INT-2', {}, [{ ...candle, ...customs }]), shipTo: toronto },
      order('INT-3', {}, [{ ...candle, ...customs }]),
    ]);
    const abroad = rated(
      await s.workflow.rate(orderId(s, 'INT-2'), { options: { incoTerm: 'DAP' } }),
    );
    const home = rated(await s.workflow.rate(orderId(s, 'INT-3')));
    expect(abroad.shipment.shipment.options).toEqual({ incoTerm: 'DAP' });
    expect(abroad.shipment.shipment.packages[0]).toMatchObject({
      contentsType: 'merchandise',
      items: [
        {
          description: 'Soy wax candle in a glass jar',
          quantity: 2,
          value: 24,
          weightLbs: 0.9,
          harmonizedCode: '3406.00',
          countryOfOrigin: 'US',
        },
      ],
    });
    // The incoterm of a domestic order is not sent at all.
    expect(home.shipment.shipment.options).toBeUndefined();
    expect(groundOf(abroad)).toBeGreaterThan(groundOf(home) * 2);
    const bought = printed(await s.workflow.buy(abroad.shipment.id));
    expect(bought.label.zpl).toContain('INCOTERM DAP');
  });
});

describe('return labels', () => {
  it('buys a label with returnType LABEL from the customer back to the site, printed and linked to the original', async () => {
    const s = await station([order('RET-1', {})]);
    const original = printed(await s.workflow.ship(orderId(s, 'RET-1'), { stationUser: 'ana' }));
    await waitForLabels(s.printer, 1);

    const back = printed(await s.workflow.returnLabel(original.label.id, { stationUser: 'ana' }));
    expect(back.label.returnOfLabelId).toBe(original.label.id);
    expect(back.label.trackingNumber).not.toBe(original.label.trackingNumber);
    const request = requestOf(s, back.shipment.id);
    expect(request.shipment).toMatchObject({
      returnType: 'LABEL',
      shipTo: { company: 'Lumen Candle Works', postalCode: '60607' },
      shipFrom: { name: 'Ava Lindqvist', postalCode: '04101', siteId: 'site_lumen_chicago' },
    });
    // Recorded like any purchase: a purchase row, then the label, then the print job.
    expect(s.workflow.shipments.purchasesForShipment(back.shipment.id)[0]!.state).toBe('purchased');
    const labels = await waitForLabels(s.printer, 2);
    expect(labels[1]!.zpl).toContain('RETURN (LABEL)');
    expect(await ledgerFor(sb.url, 'RET-1')).toHaveLength(2);
    expect(s.workflow.labels.returnsOf([original.label.id]).get(original.label.id)).toEqual([
      { id: back.label.id, trackingNumber: back.label.trackingNumber },
    ]);

    // A second one only on purpose; a return label of a return label makes no sense.
    expect(await s.workflow.returnLabel(original.label.id)).toMatchObject({
      outcome: 'already-labelled',
      labels: [{ id: back.label.id }],
    });
    expect(await s.workflow.returnLabel(back.label.id)).toMatchObject({
      outcome: 'invalid',
      failure: { code: 'is-a-return-label' },
    });
    expect(await ledgerFor(sb.url, 'RET-1')).toHaveLength(2);
  });

  it("a return label's FROM is the customer's address alone: the site's company and suite are not added to it", async () => {
    const s = await station([order('RET-ADDR', {})]);
    const original = printed(await s.workflow.ship(orderId(s, 'RET-ADDR')));
    await waitForLabels(s.printer, 1);
    printed(await s.workflow.returnLabel(original.label.id));
    const labels = await waitForLabels(s.printer, 2);
    // The demo site is "Lumen Candle Works, 1550 W Carroll Ave, Unit 210"; the customer (Ava
    // Lindqvist, 42 Orchard Ln) has neither a company nor a second address line.
    const from = labels[1]!.zpl.split('SHIP TO')[0]!;
    expect(from).toContain('^FDAva Lindqvist^FS');
    expect(from).toContain('^FD42 Orchard Ln^FS');
    expect(from).not.toContain('Lumen Candle Works');
    expect(from).not.toContain('Unit 210');
    expect(from).not.toContain('312-555-0143');
    // The outbound label still names the site in full.
    expect(labels[0]!.zpl.split('SHIP TO')[0]).toContain('^FDLumen Candle Works^FS');
  });

  it('a return purchase whose answer is lost is unknown, and blocks another return until a shift lead looks', async () => {
    const s = await station([order('RET-2', {})]);
    const original = printed(await s.workflow.ship(orderId(s, 'RET-2')));
    sb.fault({ method: 'POST', path: '/api/v1/labels', kind: 'reset', times: 1, after: true });
    const lost = await s.workflow.returnLabel(original.label.id);
    expect(lost).toMatchObject({ outcome: 'unknown' });
    expect(
      await s.workflow.returnLabel(original.label.id, { confirmAnotherLabel: true }),
    ).toMatchObject({
      outcome: 'needs-attention',
    });
    // The shift lead finds it on the platform: it is stored as the return label of the original.
    const purchase = (lost as Extract<ShipResult, { outcome: 'unknown' }>).purchase;
    await s.attention.lookUp(purchase.id, 'lead');
    expect(s.workflow.labels.returnsOf([original.label.id]).get(original.label.id)).toHaveLength(1);
  });
});
