import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { austin, call, labelBody, rateBody, seattle } from './helpers.js';

const sbx = useSandbox();

const toronto = {
  name: 'Maya Chen',
  addressLine1: '200 Front St W',
  city: 'Toronto',
  stateProvince: 'ON',
  postalCode: 'M5V 3K2',
  countryCode: 'CA',
};
const candle = {
  sku: 'LUM-CANDLE-8OZ',
  name: 'Cedar candle 8 oz',
  description: 'Soy wax candle in a glass jar',
  quantity: 2,
  value: 24,
  weightLbs: 0.9,
  harmonizedCode: '3406.00',
  countryOfOrigin: 'US',
};
const pkg = (items: unknown[]) => [{ weightLbs: 2.5, items }];

async function rate(body: unknown) {
  const headers = await sbx.headers('demo-lumen-full');
  return call(sbx.url, 'POST', '/api/v1/rates', { headers, body });
}
const ground = (res: {
  body: { shipmentRates: { serviceLevel: string; amount: number; transitDays: number }[] };
}) => res.body.shipmentRates.find((r) => r.serviceLevel === 'UPS_GROUND')!;

describe('international shipments', () => {
  it('refuse rating without customs items and incoterm, naming every missing field', async () => {
    const res = await rate(rateBody({ shipTo: toronto, packages: [{ weightLbs: 2 }] }));
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe('VALIDATION_ERROR');
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'shipment.packages[0].options.incoTerm',
        'shipment.packages[0].items',
      ]),
    );

    const partial = await rate(
      rateBody({
        shipTo: toronto,
        options: { incoTerm: 'DAP' },
        packages: pkg([{ sku: 'X', quantity: 1, value: 5 }]),
      }),
    );
    expect(partial.status).toBe(400);
    expect(partial.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'shipment.packages[0].items[0].countryOfOrigin',
      'shipment.packages[0].items[0].description',
      'shipment.packages[0].items[0].harmonizedCode',
      'shipment.packages[0].items[0].weightLbs',
    ]);
  });

  it('rate higher and slower than domestic once customs are complete; a bad code is named', async () => {
    const domestic = await rate(rateBody({ packages: pkg([candle]) }));
    const abroad = await rate(
      rateBody({ shipTo: toronto, options: { incoTerm: 'DAP' }, packages: pkg([candle]) }),
    );
    expect(abroad.status).toBe(200);
    expect(ground(abroad).amount).toBeGreaterThan(ground(domestic).amount * 2);
    expect(ground(abroad).transitDays).toBeGreaterThan(ground(domestic).transitDays);

    const bad = await rate(
      rateBody({
        shipTo: toronto,
        options: { incoTerm: 'FOB' },
        packages: pkg([{ ...candle, harmonizedCode: 'candles', countryOfOrigin: 'usa' }]),
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'shipment.options.incoTerm' }),
        expect.objectContaining({ field: 'shipment.packages[0].items[0].harmonizedCode' }),
        expect.objectContaining({ field: 'shipment.packages[0].items[0].countryOfOrigin' }),
      ]),
    );
  });

  it('a domestic shipment needs no customs data', async () => {
    const res = await rate(rateBody({ shipTo: austin, packages: [{ weightLbs: 2 }] }));
    expect(res.status).toBe(200);
  });
});

describe('options and hazmat', () => {
  it('signature, additional handling and hazmat each add to the price; Saturday keeps fast services only', async () => {
    const plain = ground(await rate(rateBody({ packages: pkg([candle]) })));
    const signed = ground(
      await rate(
        rateBody({ packages: pkg([candle]), options: { deliveryConfirmation: 'ADULT_SIGNATURE' } }),
      ),
    );
    expect(signed.amount).toBeCloseTo(plain.amount + 6.65, 2);
    const handled = ground(
      await rate(
        rateBody({
          packages: [{ weightLbs: 2.5, items: [candle], options: { additionalHandling: true } }],
        }),
      ),
    );
    expect(handled.amount).toBeCloseTo(plain.amount + 14.5, 2);
    const saturday = await rate(rateBody({ options: { deliveryOption: 'SATURDAY_DELIVERY' } }));
    expect(saturday.status).toBe(200);
    const levels = saturday.body.shipmentRates.map((r: { serviceLevel: string }) => r.serviceLevel);
    expect(levels).not.toContain('UPS_GROUND');
    expect(levels).toContain('UPS_NEXT_DAY_AIR');

    const hazmat = {
      sku: 'LUM-LAMP-OIL',
      name: 'Lamp oil 16 oz',
      quantity: 1,
      isHazmat: true,
      hazmatUnNumber: 'UN1223',
      hazmatTransportationRegulatoryClass: '3',
      hazmatPackingGroup: 'III',
      hazmatProperShippingName: 'Kerosene',
    };
    const dangerous = ground(await rate(rateBody({ packages: pkg([hazmat]) })));
    expect(dangerous.amount).toBeGreaterThan(plain.amount - 0.01 + 40);

    const missing = await rate(
      rateBody({
        packages: pkg([{ sku: 'X', quantity: 1, isHazmat: true, hazmatUnNumber: 'UN1223' }]),
      }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'shipment.packages[0].items[0].hazmatPackingGroup',
      'shipment.packages[0].items[0].hazmatProperShippingName',
      'shipment.packages[0].items[0].hazmatTransportationRegulatoryClass',
    ]);
    const wrong = await rate(rateBody({ options: { deliveryConfirmation: 'YES' } }));
    expect(wrong.body.errors[0]).toMatchObject({ field: 'shipment.options.deliveryConfirmation' });
  });

  it('a label prints custom messages and option marks, costs what was quoted, and echoes returnType', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const shipment = {
      packages: pkg([candle]),
      options: {
        deliveryConfirmation: 'SIGNATURE',
        customMessage1: 'Gift: do not open',
        customMessage2: 'PO 5521',
      },
      returnType: 'LABEL',
      // A return leaves from the customer: the site fills nothing of this address.
      shipFrom: seattle,
    };
    const quotes = await rate(rateBody(shipment));
    const quote = ground(quotes) as { amount: number; serviceLevel: string; rateQuoteId?: string };
    const res = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody('ca_lumen_ups', 'UPS_GROUND', { rateQuoteId: quote.rateQuoteId }, shipment),
    });
    expect(res.status).toBe(201);
    expect(res.body.cost.amount).toBe(quote.amount);
    expect(res.body.returnType).toBe('LABEL');
    const zpl = Buffer.from(res.body.labelData, 'base64').toString('utf8');
    expect(zpl).toContain('^FDGift: do not open^FS');
    expect(zpl).toContain('^FDPO 5521^FS');
    expect(zpl).toMatch(/RETURN \(LABEL\) \/ SIGNATURE/);
    const from = zpl.split('SHIP TO')[0]!;
    expect(from).toContain('^FDOkafor Design^FS');
    expect(from).not.toContain('Lumen Candle Works');
    expect(from).not.toContain('Unit 210');
  });

  it("a return whose shipFrom lacks the customer's address is refused, never completed with the site's", async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const res = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody(
        'ca_lumen_ups',
        'UPS_GROUND',
        {},
        {
          packages: pkg([candle]),
          returnType: 'LABEL',
          shipFrom: { siteId: 'site_lumen_chicago' },
        },
      ),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(
      expect.objectContaining({ field: 'shipment.shipFrom.postalCode' }),
    );
  });
});
