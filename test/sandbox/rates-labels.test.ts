/* eslint-disable @typescript-eslint/no-explicit-any -- black-box responses */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { austin, call, expectEnvelope, labelBody, rateBody, seattle } from './helpers.js';
import {
  buyer,
  conformanceSandbox,
  envelope,
  fields,
  http,
  labelRequest,
  shipment,
} from './spec-world.js';

const sbx = useSandbox();

describe('rates', () => {
  it('rates every authorized account of the tenant; a PENDING one shows in rateErrors', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const res = await call(sbx.url, 'POST', '/api/v1/rates', { headers, body: rateBody() });
    expect(res.status).toBe(200);
    const levels = res.body.shipmentRates
      .map((r: { serviceLevel: string }) => r.serviceLevel)
      .sort();
    expect(levels).toEqual([
      'UPS_2ND_DAY_AIR',
      'UPS_GROUND',
      'UPS_NEXT_DAY_AIR',
      'USPS_FIRST_CLASS',
      'USPS_GROUND_ADVANTAGE',
      'USPS_PRIORITY',
    ]);
    for (const rate of res.body.shipmentRates) {
      expect(rate).toMatchObject({
        rateQuoteId: expect.stringMatching(/^rq_/),
        carrierAccount: { id: expect.stringMatching(/^ca_lumen_/) },
        currency: 'USD',
        transitDays: expect.any(Number),
        billableWeightLbs: 3,
      });
      expect(rate.amount).toBeGreaterThan(0);
      expect(Math.abs(Math.round(rate.amount * 100) - rate.amount * 100)).toBeLessThan(1e-6);
    }
    expect(res.body.rateErrors).toEqual([
      expect.objectContaining({
        carrierAccount: expect.objectContaining({ id: 'ca_lumen_fedex' }),
        errorCode: 'CONNECTION_NOT_AUTHORIZED',
        authorizationStatus: 'PENDING',
      }),
    ]);
  });

  it('prices deterministically from weight, dimensions, distance, service and residential flag', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const ground = async (overrides: Record<string, unknown>) => {
      const res = await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: rateBody(overrides, { serviceLevels: ['UPS_GROUND'] }),
      });
      expect(res.status).toBe(200);
      expect(res.body.shipmentRates).toHaveLength(1);
      return res.body.shipmentRates[0] as {
        amount: number;
        transitDays: number;
        billableWeightLbs: number;
      };
    };
    const base = await ground({});
    expect((await ground({})).amount).toBe(base.amount);
    const heavier = await ground({ packages: [{ weightLbs: 12 }] });
    expect(heavier.amount).toBeGreaterThan(base.amount);
    const bulky = await ground({
      packages: [{ weightLbs: 1, lengthIn: 24, widthIn: 18, heightIn: 18 }],
    });
    expect(bulky.billableWeightLbs).toBe(Math.ceil((24 * 18 * 18) / 139));
    const far = await ground({ shipTo: seattle });
    const farResidential = await ground({ shipTo: { ...seattle, isResidential: true } });
    expect(farResidential.amount).toBeGreaterThan(far.amount);
    const near = await ground({
      shipTo: { ...seattle, postalCode: '60614', isResidential: false },
    });
    expect(far.amount).toBeGreaterThan(near.amount);
    expect(far.transitDays).toBeGreaterThan(near.transitDays);
    const sameDay = await call(sbx.url, 'POST', '/api/v1/rates', {
      headers,
      body: rateBody({}, { serviceLevels: ['UPS_NEXT_DAY_AIR', 'UPS_GROUND'] }),
    });
    const [cheap, dear] = sameDay.body.shipmentRates;
    expect(cheap.serviceLevel).toBe('UPS_GROUND');
    expect(dear.serviceLevel).toBe('UPS_NEXT_DAY_AIR');
    expect(dear.transitDays).toBe(1);
  });

  it('fails an explicitly named account whose connection is not AUTHORIZED', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const env = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: rateBody({}, { carrierAccountIds: ['ca_lumen_usps', 'ca_lumen_fedex'] }),
      }),
      400,
      'CONNECTION_NOT_AUTHORIZED',
    );
    expect(env.errors).toEqual([
      expect.objectContaining({
        field: 'options.carrierAccountIds[1]',
        code: 'CONNECTION_NOT_AUTHORIZED',
      }),
    ]);
    expect(env.message).toContain('PENDING');
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: rateBody({}, { carrierAccountIds: ['ca_harbor_dhl'] }),
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('stops rating accounts on an EXPIRED connection (shared BYOC included)', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    const asBrand = { ...harbor, 'x-tenant-id': 'tnt_driftwood' };
    const body = rateBody({ shipFrom: { siteId: 'site_harbor_edison' } });
    const res = await call(sbx.url, 'POST', '/api/v1/rates', { headers: asBrand, body });
    expect(res.status).toBe(200);
    const accounts = new Set(
      res.body.shipmentRates.map((r: { carrierAccount: { id: string } }) => r.carrierAccount.id),
    );
    expect([...accounts].sort()).toEqual(['ca_driftwood_dhl', 'ca_driftwood_fedex']);
    expect(res.body.rateErrors).toEqual([
      expect.objectContaining({
        authorizationStatus: 'EXPIRED',
        carrierAccount: expect.objectContaining({ id: 'ca_driftwood_ups' }),
      }),
    ]);
    // When the shared connection lapses, every account on it stops rating.
    await call(sbx.url, 'POST', '/sandbox/connections/conn_harbor_fedex/status', {
      body: { authorizationStatus: 'EXPIRED' },
    });
    const after = await call(sbx.url, 'POST', '/api/v1/rates', { headers: asBrand, body });
    expect(after.body.shipmentRates.every((r: { carrier: string }) => r.carrier === 'DHL')).toBe(
      true,
    );
    await call(sbx.url, 'POST', '/sandbox/connections/conn_harbor_dhl/status', {
      body: { authorizationStatus: 'EXPIRED' },
    });
    const none = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', { headers: asBrand, body }),
      400,
      'NO_RATES',
    );
    expect(none.message).toContain('EXPIRED');
    // Re-authorizing (the owner renews) brings them back.
    for (const id of ['conn_harbor_fedex', 'conn_harbor_dhl']) {
      sbx.sandbox.setConnectionStatus(id, 'AUTHORIZED');
    }
    expect((await call(sbx.url, 'POST', '/api/v1/rates', { headers: asBrand, body })).status).toBe(
      200,
    );
  });

  it('requires a site when the tenant has several, and refuses a foreign site', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    const env = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', { headers: harbor, body: rateBody() }),
      400,
      'VALIDATION_ERROR',
    );
    expect(env.errors[0]?.field).toBe('shipment.shipFrom.siteId');
    const alias = await call(sbx.url, 'POST', '/api/v1/rates', {
      headers: harbor,
      body: { ...rateBody(), shippingSiteId: 'site_harbor_reno' },
    });
    expect(alias.status).toBe(200);
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers: harbor,
        body: rateBody({ shipFrom: { siteId: 'site_lumen_chicago' } }),
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('rejects bad input with each bad field listed', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const env = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: {
          shipment: {
            shipTo: { postalCode: 78701 },
            packages: [{ weightLbs: 'heavy' }, { weightLbs: -1 }],
          },
          options: { serviceLevels: ['ground'] },
        },
      }),
      400,
      'VALIDATION_ERROR',
    );
    const fields = env.errors.map((e) => e.field).sort();
    expect(fields).toEqual([
      'options.serviceLevels[0]',
      'shipment.packages[0].weightLbs',
      'shipment.packages[1].weightLbs',
      'shipment.shipTo.countryCode',
      'shipment.shipTo.postalCode',
    ]);
    const empty = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: { shipment: { shipTo: {}, shipFrom: {}, packages: [] } },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(empty.errors.map((e) => e.field).sort()).toEqual([
      'shipment.packages',
      'shipment.shipTo.countryCode',
      'shipment.shipTo.postalCode',
    ]);
    const noPostal = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: rateBody({ shipTo: { name: 'x' } }),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(noPostal.errors.map((e) => e.field).sort()).toEqual([
      'shipment.shipTo.countryCode',
      'shipment.shipTo.postalCode',
    ]);
  });

  it('lets a fixture world bring its own carriers', async () => {
    // Carriers outside the catalogue are rated with the generic model (see fixtures test too).
    const headers = await sbx.headers('demo-lumen-full');
    const created = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers,
      body: {
        name: 'Acme',
        serviceLevels: ['ACME_OVERNIGHT', 'ACME_SAVER'],
        carrierAccountConnection: {
          name: 'Acme',
          ownershipType: 'BRAND',
          connectionDetails: { carrier: 'ACME', accountNumber: '1' },
        },
      },
    });
    const res = await call(sbx.url, 'POST', '/api/v1/rates', {
      headers,
      body: rateBody({}, { carrierAccountIds: [created.body.id] }),
    });
    expect(res.status).toBe(200);
    const byLevel = Object.fromEntries(
      res.body.shipmentRates.map((r: { serviceLevel: string; amount: number }) => [
        r.serviceLevel,
        r,
      ]),
    );
    expect(byLevel.ACME_OVERNIGHT.transitDays).toBe(1);
    expect(byLevel.ACME_OVERNIGHT.amount).toBeGreaterThan(byLevel.ACME_SAVER.amount);
    expect(byLevel.ACME_SAVER.serviceLevelName).toBe('ACME Saver');
  });
});

describe('labels', () => {
  it('an account kept to one site neither rates nor buys from another (LOCATION_NOT_ALLOWED)', async () => {
    const headers = await sbx.headers('demo-harbor-full');
    const created = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers,
      body: {
        name: 'Harbor DHL, Edison only',
        carrierAccountConnectionId: 'conn_harbor_dhl',
        allowedLocationIds: ['site_harbor_edison'],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    try {
      const shipment = {
        shipTo: austin,
        shipFrom: { siteId: 'site_harbor_reno' },
        packages: [{ weightLbs: 2 }],
      };
      const rates = await call(sbx.url, 'POST', '/api/v1/rates', {
        headers,
        body: { shipment, options: { carrierAccountIds: [id] } },
      });
      expect(rates.body.errors[0]).toMatchObject({ code: 'LOCATION_NOT_ALLOWED' });
      const label = await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody(id, 'DHL_PARCEL_GROUND', {}, shipment),
      });
      const refused = expectEnvelope(label, 400, 'LOCATION_NOT_ALLOWED');
      expect(refused.errors[0]).toMatchObject({ field: 'carrierAccountId' });
      expect(refused.message).toContain('site_harbor_reno');
      // From its own site it buys.
      const edison = await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody(
          id,
          'DHL_PARCEL_GROUND',
          {},
          {
            ...shipment,
            shipFrom: { siteId: 'site_harbor_edison' },
          },
        ),
      });
      expect(edison.status).toBe(201);
    } finally {
      await call(sbx.url, 'DELETE', `/api/v1/carrierAccounts/${id}`, { headers });
    }
  });

  it('a quote prices the shipment that was rated, not a heavier, farther one bought with it', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const rates = await call(sbx.url, 'POST', '/api/v1/rates', {
      headers,
      body: rateBody({}, { serviceLevels: ['UPS_GROUND'], carrierAccountIds: ['ca_lumen_ups'] }),
    });
    const rate = rates.body.shipmentRates[0];
    const heavy = {
      shipTo: { ...seattle, isResidential: true },
      packages: [{ weightLbs: 140 }, { weightLbs: 140 }],
    };
    const buy = (extra: Record<string, unknown>) =>
      call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody('ca_lumen_ups', 'UPS_GROUND', extra, heavy),
      });
    const unquoted = await buy({});
    expect(unquoted.status).toBe(201);
    expect(unquoted.body.cost.amount).toBeGreaterThan(rate.amount * 10);
    // The quote of a 2.5 lb parcel to Austin does not make two 140 lb parcels cost the same.
    const withQuote = await buy({ rateQuoteId: rate.rateQuoteId });
    expect(withQuote.status).toBe(201);
    expect(withQuote.body).toMatchObject({
      rateQuoteId: null,
      cost: { amount: unquoted.body.cost.amount, currency: 'USD' },
    });
    // The rated shipment itself still costs what was quoted, and echoes the quote.
    const same = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody('ca_lumen_ups', 'UPS_GROUND', { rateQuoteId: rate.rateQuoteId }),
    });
    expect(same.body).toMatchObject({
      rateQuoteId: rate.rateQuoteId,
      cost: { amount: rate.amount },
    });
  });

  it('buys a label at the quoted price with real 4x6 ZPL, a tracker and a ledger entry', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const rates = await call(sbx.url, 'POST', '/api/v1/rates', {
      headers,
      body: rateBody({}, { serviceLevels: ['UPS_GROUND'] }),
    });
    const rate = rates.body.shipmentRates[0];
    const res = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody(rate.carrierAccount.id, 'UPS_GROUND', {
        rateQuoteId: rate.rateQuoteId,
        service: 'UPS',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^lbl_/),
      trackerId: expect.stringMatching(/^trk_/),
      carrier: 'UPS',
      serviceLevel: 'UPS_GROUND',
      carrierAccountId: 'ca_lumen_ups',
      orderReference: 'ORD-1001',
      rateQuoteId: rate.rateQuoteId,
      cost: { amount: rate.amount, currency: 'USD' },
      labelFormat: 'ZPL',
      labelSize: '4x6',
      mode: 'TEST',
    });
    expect(res.body.trackingNumber).toMatch(/^1Z/);
    const zpl = Buffer.from(res.body.labelData, 'base64').toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(zpl).toContain('^PW812');
    expect(zpl).toContain('^LL1218');
    expect(zpl).toMatch(/\^BC[^\n]*\^FD1Z[0-9A-Z]+\^FS/);
    expect(zpl).toContain(`^FD${res.body.trackingNumber}^FS`);
    expect(zpl).toContain('1550 W Carroll Ave'); // ship-from: the brand's only site
    expect(zpl).toContain('401 Congress Ave'); // ship-to
    expect(zpl).toContain('UPS Ground');

    const fromUrl = await call(sbx.url, 'GET', new URL(res.body.labelUrl).pathname, { headers });
    expect(fromUrl.status).toBe(200);
    expect(fromUrl.body).toBe(zpl);

    const ledger = await call(sbx.url, 'GET', '/sandbox/ledger/labels');
    expect(ledger.body.labels).toContainEqual(
      expect.objectContaining({
        id: res.body.id,
        tenantId: 'tnt_lumen',
        carrierAccountId: 'ca_lumen_ups',
        serviceLevel: 'UPS_GROUND',
        orderReference: 'ORD-1001',
        trackingNumber: res.body.trackingNumber,
        createdAt: res.body.createdAt,
      }),
    );
    const trackers = await call(
      sbx.url,
      'GET',
      `/api/v1/trackers?trackingNumber=${res.body.trackingNumber}`,
      { headers },
    );
    expect(trackers.body.trackers).toEqual([
      expect.objectContaining({
        id: res.body.trackerId,
        status: 'PRE_TRANSIT',
        labelId: res.body.id,
      }),
    ]);
  });

  it('omits labelData unless inline, issues distinct tracking numbers, one block per package', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const plain = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody('ca_lumen_usps', 'USPS_PRIORITY', {
        labelOptions: { type: 'ZPL', size: '4x6' },
      }),
    });
    expect(plain.status).toBe(201);
    expect(plain.body).not.toHaveProperty('labelData');
    expect(plain.body.labelUrl).toContain(`/api/v1/labels/${plain.body.id}/zpl`);
    const multi = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody(
        'ca_lumen_usps',
        'USPS_PRIORITY',
        {},
        {
          packages: [{ weightLbs: 1 }, { weightLbs: 2 }, { weightLbs: 3 }],
        },
      ),
    });
    expect(multi.body.packages).toHaveLength(3);
    const zpl = Buffer.from(multi.body.labelData, 'base64').toString('utf8');
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    expect(zpl.match(/\^XZ/g)).toHaveLength(3);
    const numbers = [
      plain.body.trackingNumber,
      ...multi.body.packages.map((p: { trackingNumber: string }) => p.trackingNumber),
    ];
    expect(new Set(numbers).size).toBe(4);
  });

  it('refuses a label on a connection that is not AUTHORIZED, and an inactive account', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    sbx.sandbox.setConnectionStatus('conn_lumen_ups', 'EXPIRED');
    const env = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody('ca_lumen_ups', 'UPS_GROUND'),
      }),
      400,
      'CONNECTION_NOT_AUTHORIZED',
    );
    expect(env.errors[0]).toMatchObject({ field: 'carrierAccountId' });
    expect(env.message).toContain('EXPIRED');
    sbx.sandbox.setConnectionStatus('conn_lumen_ups', 'AUTHORIZED');

    await call(sbx.url, 'PUT', '/api/v1/carrierAccounts/ca_lumen_usps', {
      headers,
      body: { isActive: false },
    });
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody('ca_lumen_usps', 'USPS_PRIORITY'),
      }),
      400,
      'CARRIER_ACCOUNT_INACTIVE',
    );
    await call(sbx.url, 'PUT', '/api/v1/carrierAccounts/ca_lumen_usps', {
      headers,
      body: { isActive: true },
    });
  });

  it('validates the label request', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const missing = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', { headers, body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expect(missing.errors.map((e) => e.field).sort()).toEqual([
      'carrierAccountId',
      'serviceLevel',
      'shipment',
    ]);
    const wrong = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody(
          'ca_lumen_ups',
          'USPS_PRIORITY',
          { service: 'FEDEX' },
          { shipTo: { ...austin, addressLine1: undefined } },
        ),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(wrong.errors.map((e) => e.field).sort()).toEqual([
      'service',
      'serviceLevel',
      'shipment.shipTo.addressLine1',
    ]);
    const pdf = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody('ca_lumen_ups', 'UPS_GROUND', {
          labelOptions: { type: 'PDF', size: '4x8' },
        }),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(pdf.errors.map((e) => e.field).sort()).toEqual([
      'labelOptions.size',
      'labelOptions.type',
    ]);
    const ro = await sbx.headers('demo-lumen-readonly');
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers: ro,
        body: labelBody('ca_lumen_ups', 'UPS_GROUND'),
      }),
      403,
      'READ_ONLY_KEY',
    );
    const before = (await call(sbx.url, 'GET', '/sandbox/ledger/labels')).body.labels.length;
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody('ca_harbor_dhl', 'DHL_EXPRESS_12'),
      }),
      404,
      'NOT_FOUND',
    );
    expect((await call(sbx.url, 'GET', '/sandbox/ledger/labels')).body.labels.length).toBe(before);
  });
});

/**
 * Conformance: rates and labels (spec part 4, issue 2 "Rates" and "Labels").
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  const sb = conformanceSandbox();

  type Rate = {
    carrierAccount: { id: string };
    serviceLevel: string;
    amount: number;
    currency: string;
    transitDays: number;
    rateQuoteId: string;
  };

  async function rates(key: 'solo' | 'fern' | 'keel', body: object) {
    return sb.api.as(key, 'POST', '/api/v1/rates', body);
  }

  const amountOf = (list: Rate[], level: string) =>
    list.find((r) => r.serviceLevel === level)!.amount;

  async function soloAmount(s: object, level = 'ACME_GROUND'): Promise<number> {
    const res = await rates('solo', {
      shipment: s,
      options: { carrierAccountIds: ['cw-ca-solo-acme'] },
    });
    expect(res.status).toBe(200);
    return amountOf(res.body.shipmentRates, level);
  }

  describe('POST /api/v1/rates', () => {
    it('without carrierAccountIds rates every AUTHORIZED account of the tenant, custom carriers included', async () => {
      const res = await rates('solo', { shipment: shipment() });
      expect(res.status).toBe(200);
      const list: Rate[] = res.body.shipmentRates;
      const accounts = new Set(list.map((r) => r.carrierAccount.id));
      expect([...accounts].sort()).toEqual(['cw-ca-solo-acme', 'cw-ca-solo-zippy']);
      expect(list.map((r) => r.serviceLevel).sort()).toEqual([
        'ACME_GROUND',
        'ACME_OVERNIGHT',
        'ZIPPY_GROUND',
        'ZIPPY_PARCEL',
      ]);
      for (const r of list) {
        expect(r.serviceLevel).toMatch(/^[A-Z0-9]+_[A-Z0-9_]+$/);
        expect(typeof r.amount).toBe('number');
        expect(r.amount).toBeGreaterThan(0);
        expect(r.currency).toBe('USD');
        expect(Number.isInteger(r.transitDays)).toBe(true);
        expect(typeof r.rateQuoteId).toBe('string');
      }
      // a PENDING (comet) and an EXPIRED (lapsed) connection do not rate
      expect(accounts.has('cw-ca-solo-comet')).toBe(false);
      expect(accounts.has('cw-ca-solo-lapsed')).toBe(false);
    });

    it('a brand gets the shared BYOC accounts the 3PL granted it', async () => {
      const res = await rates('fern', { shipment: shipment() });
      expect(res.status).toBe(200);
      const accounts = res.body.shipmentRates.map((r: Rate) => r.carrierAccount.id);
      expect(new Set(accounts)).toEqual(new Set(['cw-ca-fern-zippy']));
    });

    it('carrierAccountIds restricts the accounts rated', async () => {
      const res = await rates('solo', {
        shipment: shipment(),
        options: { carrierAccountIds: ['cw-ca-solo-zippy'] },
      });
      expect(new Set(res.body.shipmentRates.map((r: Rate) => r.carrierAccount.id))).toEqual(
        new Set(['cw-ca-solo-zippy']),
      );
    });

    it('an empty carrierAccountIds is taken as omitted', async () => {
      const res = await rates('solo', { shipment: shipment(), options: { carrierAccountIds: [] } });
      expect(res.status).toBe(200);
      const accounts = new Set(res.body.shipmentRates.map((r: Rate) => r.carrierAccount.id));
      expect(accounts).toEqual(new Set(['cw-ca-solo-acme', 'cw-ca-solo-zippy']));
    });

    it('an explicitly requested account whose connection is not AUTHORIZED fails clearly', async () => {
      for (const [id, status] of [
        ['cw-ca-solo-lapsed', 'EXPIRED'],
        ['cw-ca-solo-comet', 'PENDING'],
      ]) {
        const res = await rates('solo', {
          shipment: shipment(),
          options: { carrierAccountIds: ['cw-ca-solo-acme', id] },
        });
        const e = envelope(res, 400);
        expect(`${e.message} ${JSON.stringify(e.errors)}`).toContain(status);
        expect(JSON.stringify(e)).toContain('AUTHORIZED');
      }
    });

    it('amounts follow weight, dimensional weight, postal codes, service level and residential flag', async () => {
      const base = await soloAmount(shipment());
      expect(await soloAmount(shipment({}, { weightLbs: 20 }))).toBeGreaterThan(base);
      // same actual weight, a much bigger box: the dimensional weight decides
      expect(
        await soloAmount(shipment({}, { lengthIn: 30, widthIn: 24, heightIn: 20 })),
      ).toBeGreaterThan(base);
      // a destination further from Portland, ME (04101) than San Diego is not; a near one is cheaper
      const near = await soloAmount(
        shipment({ shipTo: { ...buyer, postalCode: '03101', city: 'Manchester' } }),
      );
      expect(near).not.toBe(base);
      // the origin counts too
      const fromWest = await soloAmount(
        shipment({ shipFrom: { siteId: 'cw-site-solo-portland', postalCode: '97201' } }),
      );
      expect(fromWest).not.toBe(base);
      expect(
        await soloAmount(shipment({ shipTo: { ...buyer, isResidential: true } })),
      ).toBeGreaterThan(base);
      expect(await soloAmount(shipment(), 'ACME_OVERNIGHT')).toBeGreaterThan(base);
    });

    it('any postal code counts, even within the same region', async () => {
      const ny = await soloAmount(
        shipment({ shipTo: { ...buyer, city: 'New York', postalCode: '10001' } }),
      );
      const philly = await soloAmount(
        shipment({ shipTo: { ...buyer, city: 'Philadelphia', postalCode: '19103' } }),
      );
      expect(ny).not.toBe(philly);
    });

    it('two services of one carrier price differently; the residential flag counts for any carrier', async () => {
      const zippy = async (s: object) => {
        const res = await rates('solo', {
          shipment: s,
          options: { carrierAccountIds: ['cw-ca-solo-zippy'] },
        });
        expect(res.status).toBe(200);
        return res.body.shipmentRates as Rate[];
      };
      const plain = await zippy(shipment());
      expect(amountOf(plain, 'ZIPPY_GROUND')).not.toBe(amountOf(plain, 'ZIPPY_PARCEL'));
      const home = await zippy(shipment({ shipTo: { ...buyer, isResidential: true } }));
      expect(amountOf(home, 'ZIPPY_PARCEL')).toBeGreaterThan(amountOf(plain, 'ZIPPY_PARCEL'));
    });

    it('shipFrom may be left out when the tenant has a single site', async () => {
      const { shipFrom: _omitted, ...rest } = shipment();
      const res = await rates('solo', { shipment: rest });
      expect(res.status).toBe(200);
      expect(res.body.shipmentRates.length).toBeGreaterThan(0);
    });

    it('a bad request is 400 listing each bad field', async () => {
      const res = await rates('solo', {
        shipment: { shipTo: buyer, packages: [{ weightLbs: 'heavy' }, { weightLbs: -1 }] },
      });
      envelope(res, 400);
      expect(fields(res)).toEqual(
        expect.arrayContaining([
          'shipment.packages[0].weightLbs',
          'shipment.packages[1].weightLbs',
        ]),
      );
      const none = await rates('solo', {});
      expect(fields(envelope(none, 400) && none)).toContain('shipment');
    });
  });

  describe('POST /api/v1/labels', () => {
    let bought: any;

    it('buys a label with a real 4x6 ZPL at 203 dpi, inline as base64', async () => {
      const res = await sb.api.as(
        'solo',
        'POST',
        '/api/v1/labels',
        labelRequest('cw-ca-solo-acme', 'ACME_OVERNIGHT', { service: 'ACME' }),
      );
      expect(res.status).toBeLessThan(300);
      bought = res.body;
      expect(typeof bought.trackingNumber).toBe('string');
      expect(bought.trackingNumber.length).toBeGreaterThan(5);
      expect(bought.cost).toMatchObject({ currency: 'USD' });
      expect(bought.cost.amount).toBeGreaterThan(0);
      const zpl = Buffer.from(bought.labelData, 'base64').toString('utf8');
      expect(zpl).toMatch(/^\^XA/);
      expect(zpl.trimEnd()).toMatch(/\^XZ$/);
      expect(zpl).toContain('^PW812');
      expect(zpl).toContain('^LL1218');
      expect(zpl).toMatch(new RegExp(`\\^BC[^\\^]*\\^FD[^\\^]*${bought.trackingNumber}`));
      // ship-from (the tenant's only site), ship-to and the service
      expect(zpl).toContain('88 Kiln Street');
      expect(zpl).toContain('Portland');
      expect(zpl).toContain('Rosa Lindqvist');
      expect(zpl).toContain('17 Harbour Lane');
      expect(zpl).toContain('San Diego');
      expect(zpl).toContain('92101');
      expect(zpl).toContain('ACME_OVERNIGHT');
    });

    it('a stated dimWeight counts towards the label cost', async () => {
      const buy = async (pkg: object) => {
        const req = labelRequest('cw-ca-solo-zippy', 'ZIPPY_GROUND');
        const res = await sb.api.as('solo', 'POST', '/api/v1/labels', {
          ...req,
          shipment: shipment({}, { lengthIn: 6, widthIn: 6, heightIn: 6, weightLbs: 2, ...pkg }),
        });
        expect(res.status).toBeLessThan(300);
        return res.body.cost.amount as number;
      };
      expect(await buy({ dimWeight: 25 })).toBeGreaterThan(await buy({}));
    });

    it('a brand buys on the shared account its 3PL granted', async () => {
      const res = await sb.api.as(
        'fern',
        'POST',
        '/api/v1/labels',
        labelRequest('cw-ca-fern-zippy', 'ZIPPY_GROUND'),
      );
      expect(res.status).toBeLessThan(300);
      const zpl = Buffer.from(res.body.labelData, 'base64').toString('utf8');
      expect(zpl).toContain('Memphis');
    });

    it('requires an AUTHORIZED connection', async () => {
      for (const [id, level, status] of [
        ['cw-ca-solo-lapsed', 'ZIPPY_GROUND', 'EXPIRED'],
        ['cw-ca-solo-comet', 'COMET_EXPRESS_9', 'PENDING'],
      ] as const) {
        const res = await sb.api.as('solo', 'POST', '/api/v1/labels', labelRequest(id, level));
        const e = envelope(res, 400);
        expect(e.message).toContain(status);
      }
      const ledger = await http(sb.sandbox.url, 'GET', '/sandbox/ledger/labels');
      const ids = ledger.body.labels.map((l: { carrierAccountId: string }) => l.carrierAccountId);
      expect(ids).not.toContain('cw-ca-solo-lapsed');
    });

    it('validates the request and lists each bad field', async () => {
      const res = await sb.api.as('solo', 'POST', '/api/v1/labels', {
        shipment: { shipTo: buyer, shipFrom: {}, packages: [{ weightLbs: 0 }] },
        labelOptions: { inline: 'yes' },
      });
      envelope(res, 400);
      expect(fields(res)).toEqual(
        expect.arrayContaining([
          'carrierAccountId',
          'serviceLevel',
          'shipment.packages[0].weightLbs',
          'labelOptions.inline',
        ]),
      );
      // schema problems and address problems together
      const mixed = await sb.api.as('solo', 'POST', '/api/v1/labels', {
        carrierAccountId: 'cw-ca-solo-acme',
        shipment: { shipTo: { name: 'Pat', postalCode: '92101' }, packages: [{ weightLbs: 1 }] },
      });
      envelope(mixed, 400);
      expect(fields(mixed)).toEqual(
        expect.arrayContaining([
          'serviceLevel',
          'shipment.shipTo.addressLine1',
          'shipment.shipTo.city',
          'shipment.shipTo.countryCode',
        ]),
      );
      const wrongLevel = await sb.api.as(
        'solo',
        'POST',
        '/api/v1/labels',
        labelRequest('cw-ca-solo-acme', 'ZIPPY_GROUND'),
      );
      expect(fields(envelope(wrongLevel, 400) && wrongLevel)).toContain('serviceLevel');
      const noAddress = await sb.api.as('solo', 'POST', '/api/v1/labels', {
        ...labelRequest('cw-ca-solo-acme', 'ACME_GROUND'),
        shipment: shipment({ shipTo: { name: 'Nobody' } }),
      });
      envelope(noAddress, 400);
      expect(fields(noAddress)).toEqual(
        expect.arrayContaining(['shipment.shipTo.postalCode', 'shipment.shipTo.countryCode']),
      );
    });

    it('a read-only key cannot buy a label but can rate', async () => {
      const res = await sb.api.as(
        'soloViewer',
        'POST',
        '/api/v1/labels',
        labelRequest('cw-ca-solo-acme', 'ACME_GROUND'),
      );
      envelope(res, 403);
      const rate = await sb.api.as('soloViewer', 'POST', '/api/v1/rates', { shipment: shipment() });
      expect(rate.status).toBe(200);
    });
  });
});
