import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope } from './helpers.js';
import { conformanceSandbox, envelope, fields, shipment } from './spec-world.js';

const sbx = useSandbox();

const newUspsAccount = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  carrierAccountConnection: {
    name: `${name.slice(0, 80)} connection`,
    ownershipType: 'BRAND',
    connectionDetails: { carrier: 'USPS', accountNumber: '123456' },
  },
  ...extra,
});

describe('carrier accounts', () => {
  it('lists the accounts of the tenant with their connection and fields', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const res = await call(sbx.url, 'GET', '/api/v1/carrierAccounts', { headers });
    expect(res.status).toBe(200);
    const ids = res.body.carrierAccounts.map((a: { id: string }) => a.id).sort();
    expect(ids).toEqual(['ca_lumen_fedex', 'ca_lumen_ups', 'ca_lumen_usps']);
    const fedex = res.body.carrierAccounts.find((a: { id: string }) => a.id === 'ca_lumen_fedex');
    expect(fedex).toMatchObject({
      tenantId: 'tnt_lumen',
      carrier: 'FEDEX',
      ownershipType: 'BRAND',
      carrierAccountConnectionId: 'conn_lumen_fedex',
      carrierAccountConnection: {
        id: 'conn_lumen_fedex',
        authorizationStatus: 'PENDING',
        authorizationDetails: { type: 'OAUTH2', status: 'PENDING' },
      },
      serviceLevels: ['FEDEX_GROUND', 'FEDEX_2_DAY'],
      isActive: true,
      locationIds: [],
      allowedLocationIds: [],
    });
    expect(fedex.carrierAccountConnection.authorizationDetails.oauth_url).toBe(
      `${sbx.url}/sandbox/oauth/conn_lumen_fedex`,
    );
    expect(fedex.carrierAccountConnection).not.toHaveProperty('connectionDetails');
    expect(Date.parse(fedex.createdAt)).not.toBeNaN();
  });

  it('creates an API-key account that is AUTHORIZED at once, and an OAuth one that is PENDING', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const usps = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers,
      body: newUspsAccount('Lumen USPS 2'),
    });
    expect(usps.status).toBe(201);
    expect(usps.body.id).toMatch(/^ca_/);
    expect(usps.body.carrierAccountConnectionId).toMatch(/^conn_/);
    expect(usps.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
    expect(usps.body.carrierAccountConnection.authorizationDetails).toEqual({
      type: 'APIKEY',
      status: 'AUTHORIZED',
    });
    expect(usps.body.serviceLevels).toContain('USPS_PRIORITY');

    const ups = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers,
      body: {
        name: 'Lumen UPS 2',
        carrierAccountConnection: {
          name: 'UPS again',
          ownershipType: 'BRAND',
          connectionDetails: { carrier: 'UPS', accountNumber: 'Z9' },
        },
      },
    });
    expect(ups.status).toBe(201);
    expect(ups.body.carrierAccountConnection.authorizationDetails).toMatchObject({
      type: 'OAUTH2',
      status: 'PENDING',
      oauth_url: expect.stringContaining('/sandbox/oauth/'),
    });
    const got = await call(sbx.url, 'GET', `/api/v1/carrierAccounts/${ups.body.id}`, { headers });
    expect(got.body.carrierAccountConnection.authorizationStatus).toBe('PENDING');
    expect(got.body.carrierAccountConnection.authorizationDetails.oauth_url).toBe(
      ups.body.carrierAccountConnection.authorizationDetails.oauth_url,
    );

    const bad = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers,
      body: newUspsAccount('Bad key', {
        carrierAccountConnection: {
          name: 'Bad key',
          ownershipType: 'BRAND',
          connectionDetails: { carrier: 'ONTRAC', accountNumber: '1', apiKey: 'invalid' },
        },
      }),
    });
    expect(bad.status).toBe(201);
    expect(bad.body.carrierAccountConnection.authorizationStatus).toBe('ERROR');
    expect(bad.body.serviceLevels).toEqual(['ONTRAC_GROUND']);
  });

  it('validates names of 1 and 101 characters, both on the account and the connection', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    for (const name of ['x', 'x'.repeat(101)]) {
      const env = expectEnvelope(
        await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
          headers,
          body: {
            name,
            carrierAccountConnection: {
              name,
              ownershipType: 'BRAND',
              connectionDetails: { carrier: 'USPS', accountNumber: '1' },
            },
          },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expect(env.errors.map((e) => e.field).sort()).toEqual([
        'carrierAccountConnection.name',
        'name',
      ]);
    }
    for (const name of ['xy', 'x'.repeat(100)]) {
      const ok = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
        headers,
        body: newUspsAccount(name),
      });
      expect(ok.status).toBe(201);
    }
  });

  it('rejects wrong types, a bad ownershipType, neither connection nor id, and both', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const wrong = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
        headers,
        body: {
          name: 42,
          carrierAccountConnection: {
            name: 'ok name',
            ownershipType: 'OWNER',
            connectionDetails: { carrier: 'USPS' },
          },
        },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(wrong.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'name', code: 'invalid_type' }),
        expect.objectContaining({ field: 'carrierAccountConnection.ownershipType' }),
        expect.objectContaining({
          field: 'carrierAccountConnection.connectionDetails.accountNumber',
          code: 'required',
        }),
      ]),
    );
    const neither = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/carrierAccounts', { headers, body: { name: 'Alone' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(neither.errors[0]?.field).toBe('carrierAccountConnection');
    const both = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
        headers,
        body: newUspsAccount('Both', { carrierAccountConnectionId: 'conn_lumen_usps' }),
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(both.errors[0]?.field).toBe('carrierAccountConnectionId');
  });

  it('requires contactInfo and billingAddress for FedEx and DHL', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const env = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
        headers,
        body: {
          name: 'Lumen DHL',
          carrierAccountConnection: {
            name: 'Lumen DHL',
            ownershipType: 'BRAND',
            connectionDetails: { carrier: 'DHL', accountNumber: '9' },
          },
        },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(env.errors.map((e) => e.field).sort()).toEqual([
      'carrierAccountConnection.connectionDetails.billingAddress',
      'carrierAccountConnection.connectionDetails.contactInfo',
    ]);
    const ok = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers,
      body: {
        name: 'Lumen DHL',
        carrierAccountConnection: {
          name: 'Lumen DHL',
          ownershipType: 'BRAND',
          connectionDetails: {
            carrier: 'DHL',
            accountNumber: '9',
            contactInfo: { name: 'Ops', phone: '312-555-0100' },
            billingAddress: {
              addressLine1: '1550 W Carroll Ave',
              city: 'Chicago',
              postalCode: '60607',
              countryCode: 'US',
            },
          },
        },
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
  });

  it('isolates accounts: not visible to other tenants, parents or children', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    const created = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers: harbor,
      body: newUspsAccount('Harbor own USPS', {
        carrierAccountConnection: {
          name: 'Harbor own USPS',
          ownershipType: 'PARTNER',
          connectionDetails: { carrier: 'USPS', accountNumber: '77' },
        },
      }),
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(
      (await call(sbx.url, 'GET', `/api/v1/carrierAccounts/${id}`, { headers: harbor })).status,
    ).toBe(200);

    // A child tenant (the 3PL's own key acting for the brand) does not see it.
    const asBrand = { ...harbor, 'x-tenant-id': 'tnt_driftwood' };
    expectEnvelope(
      await call(sbx.url, 'GET', `/api/v1/carrierAccounts/${id}`, { headers: asBrand }),
      404,
      'NOT_FOUND',
    );
    const brandList = await call(sbx.url, 'GET', '/api/v1/carrierAccounts', { headers: asBrand });
    expect(brandList.body.carrierAccounts.map((a: { id: string }) => a.id)).not.toContain(id);
    // The parent does not see it either.
    const nexus = await sbx.headers('demo-nexus-full');
    expectEnvelope(
      await call(sbx.url, 'GET', `/api/v1/carrierAccounts/${id}`, { headers: nexus }),
      404,
      'NOT_FOUND',
    );
    // Nor does an unrelated tenant, not even to update or delete it.
    const lumen = await sbx.headers('demo-lumen-full');
    expectEnvelope(
      await call(sbx.url, 'GET', `/api/v1/carrierAccounts/${id}`, { headers: lumen }),
      404,
      'NOT_FOUND',
    );
    expectEnvelope(
      await call(sbx.url, 'PUT', `/api/v1/carrierAccounts/${id}`, {
        headers: lumen,
        body: { name: 'Mine now' },
      }),
      404,
      'NOT_FOUND',
    );
    expectEnvelope(
      await call(sbx.url, 'DELETE', `/api/v1/carrierAccounts/${id}`, { headers: lumen }),
      404,
      'NOT_FOUND',
    );
  });

  it('lets a 3PL grant a brand access to its connection; the brand sees the shared status', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    const grant = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers: harbor,
      body: {
        name: 'Pinecrest DHL',
        ownerTenantId: 'tnt_pinecrest',
        carrierAccountConnectionId: 'conn_harbor_dhl',
      },
    });
    expect(grant.status).toBe(201);
    expect(grant.body).toMatchObject({
      tenantId: 'tnt_pinecrest',
      ownershipType: 'PARTNER',
      carrierAccountConnectionId: 'conn_harbor_dhl',
      carrierAccountConnection: { authorizationStatus: 'AUTHORIZED' },
    });
    const expiredGrant = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers: harbor,
      body: {
        name: 'Pinecrest UPS',
        ownerTenantId: 'tnt_pinecrest',
        carrierAccountConnectionId: 'conn_harbor_ups',
      },
    });
    expect(expiredGrant.body.carrierAccountConnection.authorizationStatus).toBe('EXPIRED');

    const brand = await call(sbx.url, 'GET', '/api/v1/carrierAccounts', {
      headers: { ...harbor, 'x-tenant-id': 'tnt_pinecrest' },
    });
    const dhl = brand.body.carrierAccounts.find((a: { id: string }) => a.id === grant.body.id);
    expect(dhl.carrierAccountConnectionId).toBe('conn_harbor_dhl');
    // The 3PL's own list does not show the brand's account (isolation).
    const own = await call(sbx.url, 'GET', '/api/v1/carrierAccounts', { headers: harbor });
    expect(own.body.carrierAccounts.map((a: { id: string }) => a.id)).not.toContain(grant.body.id);
  });

  it('refuses an ownerTenantId that is not below the 3PL, and connections outside the key', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    for (const ownerTenantId of ['tnt_lumen', 'tnt_nexus', 'tnt_ghost']) {
      const env = expectEnvelope(
        await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
          headers: harbor,
          body: { name: 'Grant', ownerTenantId, carrierAccountConnectionId: 'conn_harbor_dhl' },
        }),
        403,
        'TENANT_NOT_FOUND',
      );
      expect(env.message).toContain(ownerTenantId);
    }
    // A brand cannot link its 3PL's connection for itself, nor another brand's.
    const driftwood = await sbx.headers('demo-driftwood-full');
    for (const connId of ['conn_harbor_dhl', 'conn_lumen_usps', 'conn_nope']) {
      expectEnvelope(
        await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
          headers: driftwood,
          body: { name: 'Sneaky', carrierAccountConnectionId: connId },
        }),
        404,
        'NOT_FOUND',
      );
    }
  });

  it('updates with PUT and deletes without touching the connection or sibling accounts', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    const a = await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
      headers: harbor,
      body: {
        name: 'Driftwood DHL 2',
        ownerTenantId: 'tnt_driftwood',
        carrierAccountConnectionId: 'conn_harbor_dhl',
      },
    });
    const asBrand = { ...harbor, 'x-tenant-id': 'tnt_driftwood' };
    const put = await call(sbx.url, 'PUT', `/api/v1/carrierAccounts/${a.body.id}`, {
      headers: asBrand,
      body: { name: 'Driftwood DHL renamed', serviceLevels: ['DHL_EXPRESS_12'], isActive: false },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      name: 'Driftwood DHL renamed',
      serviceLevels: ['DHL_EXPRESS_12'],
      isActive: false,
    });
    const badPut = expectEnvelope(
      await call(sbx.url, 'PUT', `/api/v1/carrierAccounts/${a.body.id}`, {
        headers: asBrand,
        body: { name: 'x', serviceLevels: ['UPS_GROUND'] },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(badPut.errors.map((e) => e.field)).toContain('name');

    const del = await call(sbx.url, 'DELETE', `/api/v1/carrierAccounts/${a.body.id}`, {
      headers: asBrand,
    });
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    expectEnvelope(
      await call(sbx.url, 'GET', `/api/v1/carrierAccounts/${a.body.id}`, { headers: asBrand }),
      404,
      'NOT_FOUND',
    );
    const sibling = await call(sbx.url, 'GET', '/api/v1/carrierAccounts/ca_driftwood_dhl', {
      headers: asBrand,
    });
    expect(sibling.status).toBe(200);
    expect(sibling.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
    const harborDhl = await call(sbx.url, 'GET', '/api/v1/carrierAccounts/ca_harbor_dhl', {
      headers: harbor,
    });
    expect(harborDhl.status).toBe(200);
  });

  it('refuses writes with a read-only key but allows reads', async () => {
    const ro = await sbx.headers('demo-lumen-readonly');
    expect((await call(sbx.url, 'GET', '/api/v1/carrierAccounts', { headers: ro })).status).toBe(
      200,
    );
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/carrierAccounts', {
        headers: ro,
        body: newUspsAccount('RO'),
      }),
      403,
      'READ_ONLY_KEY',
    );
    expectEnvelope(
      await call(sbx.url, 'PUT', '/api/v1/carrierAccounts/ca_lumen_usps', {
        headers: ro,
        body: { name: 'Renamed' },
      }),
      403,
      'READ_ONLY_KEY',
    );
    expectEnvelope(
      await call(sbx.url, 'DELETE', '/api/v1/carrierAccounts/ca_lumen_usps', { headers: ro }),
      403,
      'READ_ONLY_KEY',
    );
  });

  it('moves PENDING to AUTHORIZED through the OAuth page', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const before = await call(sbx.url, 'GET', '/api/v1/carrierAccounts/ca_lumen_fedex', {
      headers,
    });
    const oauthUrl = before.body.carrierAccountConnection.authorizationDetails.oauth_url as string;
    const page = await fetch(oauthUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Authorize');
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    expect(action).toBeDefined();
    const submitted = await fetch(`${sbx.url}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(submitted.status).toBe(200);
    expect(await submitted.text()).toContain('AUTHORIZED');
    const after = await call(sbx.url, 'GET', '/api/v1/carrierAccounts/ca_lumen_fedex', { headers });
    expect(after.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
    expect(after.body.carrierAccountConnection.authorizationDetails).not.toHaveProperty(
      'oauth_url',
    );
    // Rates now include FedEx.
    const rates = await call(sbx.url, 'POST', '/api/v1/rates', {
      headers,
      body: {
        shipment: {
          shipTo: { postalCode: '10001', countryCode: 'US' },
          shipFrom: {},
          packages: [{ weightLbs: 1 }],
        },
        options: { carrierAccountIds: ['ca_lumen_fedex'] },
      },
    });
    expect(rates.status).toBe(200);
    expect(
      rates.body.shipmentRates.map((r: { serviceLevel: string }) => r.serviceLevel).sort(),
    ).toEqual(['FEDEX_2_DAY', 'FEDEX_GROUND']);
  });

  it('renews an EXPIRED connection through its oauth_url', async () => {
    const harbor = await sbx.headers('demo-harbor-full');
    const before = await call(sbx.url, 'GET', '/api/v1/carrierAccounts/ca_harbor_ups', {
      headers: harbor,
    });
    expect(before.body.carrierAccountConnection.authorizationStatus).toBe('EXPIRED');
    const oauthUrl = before.body.carrierAccountConnection.authorizationDetails.oauth_url as string;
    const done = await fetch(`${oauthUrl}/authorize`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    expect(((await done.json()) as { authorizationStatus: string }).authorizationStatus).toBe(
      'AUTHORIZED',
    );
    // The brand's grant on the same connection is usable again too.
    const brand = await call(sbx.url, 'GET', '/api/v1/carrierAccounts/ca_driftwood_ups', {
      headers: { ...harbor, 'x-tenant-id': 'tnt_driftwood' },
    });
    expect(brand.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
    expectEnvelope(await call(sbx.url, 'GET', '/sandbox/oauth/conn_nope'), 404, 'NOT_FOUND');
  });
});

/**
 * Conformance: carrier accounts and connections (spec parts 2-4, issue 2 "Carrier accounts").
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  const sb = conformanceSandbox();

  const zippyConnection = (overrides: Record<string, unknown> = {}) => ({
    name: 'Zippy direct',
    ownershipType: 'BRAND',
    connectionDetails: { carrier: 'ZIPPY', accountNumber: 'ZP-5005' },
    ...overrides,
  });

  describe('carrier account resource', () => {
    it('GET one carries every field of the spec with the connection', async () => {
      const res = await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts/cw-ca-solo-acme');
      expect(res.status).toBe(200);
      const a = res.body;
      expect(a).toMatchObject({
        id: 'cw-ca-solo-acme',
        name: 'Solo Acme',
        tenantId: 'cw-solo',
        carrier: 'ACME',
        ownershipType: 'BRAND',
        carrierAccountConnectionId: 'cw-conn-solo-acme',
        serviceLevels: ['ACME_OVERNIGHT', 'ACME_GROUND'],
        isActive: true,
      });
      expect(Array.isArray(a.locationIds)).toBe(true);
      expect(Array.isArray(a.allowedLocationIds)).toBe(true);
      for (const ts of [a.createdAt, a.updatedAt]) expect(ts).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
      expect(a.carrierAccountConnection).toMatchObject({
        id: 'cw-conn-solo-acme',
        authorizationStatus: 'AUTHORIZED',
        authorizationDetails: { type: 'APIKEY', status: 'AUTHORIZED' },
      });
      expect(JSON.stringify(a)).not.toContain('AC-1001x');
    });
  });

  describe('POST /api/v1/carrierAccounts validation', () => {
    it('ownershipType must be BRAND or PARTNER; connectionDetails needs carrier + accountNumber', async () => {
      const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'Bad connection',
        carrierAccountConnection: { name: 'Bad', ownershipType: 'OWNER', connectionDetails: {} },
      });
      envelope(res, 400);
      expect(fields(res)).toEqual(
        expect.arrayContaining([
          'carrierAccountConnection.ownershipType',
          'carrierAccountConnection.connectionDetails.carrier',
          'carrierAccountConnection.connectionDetails.accountNumber',
        ]),
      );
      const missing = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'No details',
        carrierAccountConnection: { name: 'No details', ownershipType: 'BRAND' },
      });
      expect(fields(envelope(missing, 400) && missing)).toContain(
        'carrierAccountConnection.connectionDetails',
      );
    });

    it('a carrier that needs contactInfo and billingAddress rejects a request without them', async () => {
      const without = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'FedEx direct',
        carrierAccountConnection: {
          name: 'FedEx direct',
          ownershipType: 'BRAND',
          connectionDetails: { carrier: 'FEDEX', accountNumber: '510087' },
        },
      });
      envelope(without, 400);
      expect(fields(without)).toEqual(
        expect.arrayContaining([
          'carrierAccountConnection.connectionDetails.contactInfo',
          'carrierAccountConnection.connectionDetails.billingAddress',
        ]),
      );
      const withThem = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'FedEx direct',
        carrierAccountConnection: {
          name: 'FedEx direct',
          ownershipType: 'BRAND',
          connectionDetails: {
            carrier: 'FEDEX',
            accountNumber: '510087',
            contactInfo: { name: 'Solo Ops', email: 'ops@solo.example', phone: '2075550100' },
            billingAddress: {
              addressLine1: '88 Kiln Street',
              city: 'Portland',
              postalCode: '04101',
              countryCode: 'US',
            },
          },
        },
      });
      expect(withThem.status).toBeLessThan(300);
    });

    it('a 400 lists every bad field at once', async () => {
      const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'x',
        isActive: 'yes',
      });
      envelope(res, 400);
      expect(fields(res)).toEqual(expect.arrayContaining(['name', 'isActive']));
      expect(fields(res).some((f) => f.startsWith('carrierAccountConnection'))).toBe(true);
    });
  });

  describe('connections and their authorization', () => {
    it('an API-key carrier connection becomes AUTHORIZED and the account rates at once', async () => {
      const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'Zippy second line',
        carrierAccountConnection: zippyConnection({
          connectionDetails: { carrier: 'ZIPPY', accountNumber: 'ZP-2' },
        }),
        serviceLevels: ['ZIPPY_GROUND'],
      });
      expect(res.status).toBeLessThan(300);
      expect(res.body).toMatchObject({
        tenantId: 'cw-solo',
        carrier: 'ZIPPY',
        ownershipType: 'BRAND',
      });
      expect(res.body.carrierAccountConnection).toMatchObject({
        authorizationStatus: 'AUTHORIZED',
        authorizationDetails: { type: 'APIKEY', status: 'AUTHORIZED' },
      });
      expect(res.body.carrierAccountConnectionId).toBe(res.body.carrierAccountConnection.id);
      expect(JSON.stringify(res.body)).not.toContain('connectionDetails');
      const rates = await sb.api.as('solo', 'POST', '/api/v1/rates', {
        shipment: shipment(),
        options: { carrierAccountIds: [res.body.id] },
      });
      expect(rates.status).toBe(200);
    });

    it('a custom carrier that authorizes by OAuth in the fixtures starts PENDING too', async () => {
      const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
        name: 'Comet second account',
        carrierAccountConnection: {
          name: 'Comet second',
          ownershipType: 'BRAND',
          connectionDetails: { carrier: 'COMET', accountNumber: 'CM-6' },
        },
        serviceLevels: ['COMET_EXPRESS_9'],
      });
      expect(res.status).toBeLessThan(300);
      expect(res.body.carrierAccountConnection.authorizationDetails).toMatchObject({
        type: 'OAUTH2',
        status: 'PENDING',
      });
    });
  });
});
