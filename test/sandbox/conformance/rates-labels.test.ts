/* eslint-disable @typescript-eslint/no-explicit-any -- black-box responses */
/**
 * Conformance: rates and labels (spec part 4, issue 2 "Rates" and "Labels").
 */
import { describe, expect, it } from 'vitest';
import {
  buyer,
  conformanceSandbox,
  envelope,
  fields,
  http,
  labelRequest,
  shipment,
} from './support.js';

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

  it("another tenant's account cannot be rated", async () => {
    const res = await rates('solo', {
      shipment: shipment(),
      options: { carrierAccountIds: ['cw-ca-fern-zippy'] },
    });
    expect([400, 403, 404]).toContain(res.status);
    envelope(res, res.status);
  });

  it('amounts are deterministic', async () => {
    const a = await rates('solo', { shipment: shipment() });
    const b = await rates('solo', { shipment: shipment() });
    const strip = (r: any) =>
      r.body.shipmentRates.map((x: Rate) => [
        x.carrierAccount.id,
        x.serviceLevel,
        x.amount,
        x.transitDays,
      ]);
    expect(strip(a)).toEqual(strip(b));
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
      expect.arrayContaining(['shipment.packages[0].weightLbs', 'shipment.packages[1].weightLbs']),
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

  it('without inline the response carries no ZPL data', async () => {
    const res = await sb.api.as(
      'solo',
      'POST',
      '/api/v1/labels',
      labelRequest('cw-ca-solo-zippy', 'ZIPPY_GROUND', {
        labelOptions: { type: 'ZPL', size: '4x6', inline: false },
      }),
    );
    expect(res.status).toBeLessThan(300);
    expect(res.body.labelData).toBeUndefined();
  });

  it('each purchase creates a tracker and a ledger entry', async () => {
    const ledger = await http(sb.sandbox.url, 'GET', '/sandbox/ledger/labels');
    expect(ledger.status).toBe(200);
    const entry = ledger.body.labels.find(
      (l: { trackingNumber: string }) => l.trackingNumber === bought.trackingNumber,
    );
    expect(entry).toMatchObject({
      tenantId: 'cw-solo',
      carrierAccountId: 'cw-ca-solo-acme',
      serviceLevel: 'ACME_OVERNIGHT',
      orderReference: 'CW-ORDER-1',
    });
    expect(typeof entry.id).toBe('string');
    expect(typeof entry.createdAt).toBe('string');
    const trackers = await sb.api.as('solo', 'GET', '/api/v1/trackers?limit=1000');
    const mine = trackers.body.trackers.find(
      (t: { trackingNumber: string }) => t.trackingNumber === bought.trackingNumber,
    );
    expect(mine).toBeDefined();
    expect(mine.status).toBe('PRE_TRANSIT');
  });

  it('a label bought with a rateQuoteId costs what was quoted', async () => {
    const quote = await rates('solo', {
      shipment: shipment(),
      options: { carrierAccountIds: ['cw-ca-solo-zippy'] },
    });
    const rate: Rate = quote.body.shipmentRates[0];
    const res = await sb.api.as(
      'solo',
      'POST',
      '/api/v1/labels',
      labelRequest(rate.carrierAccount.id, rate.serviceLevel, { rateQuoteId: rate.rateQuoteId }),
    );
    expect(res.body.cost.amount).toBe(rate.amount);
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
