/**
 * Conformance: carrier accounts and connections (spec parts 2-4, issue 2 "Carrier accounts").
 */
import { describe, expect, it } from 'vitest';
import { conformanceSandbox, envelope, fields, http, shipment } from './support.js';

const sb = conformanceSandbox();

const name = (n: number) => 'N'.repeat(n);
const zippyConnection = (overrides: Record<string, unknown> = {}) => ({
  name: 'Zippy direct',
  ownershipType: 'BRAND',
  connectionDetails: { carrier: 'ZIPPY', accountNumber: 'ZP-5005' },
  ...overrides,
});
const ids = (res: { body: { carrierAccounts: { id: string }[] } }) =>
  res.body.carrierAccounts.map((a) => a.id);

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

  it('a PENDING OAuth connection from fixtures shows oauth_url on GET', async () => {
    const res = await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts/cw-ca-solo-comet');
    expect(res.body.carrierAccountConnection.authorizationStatus).toBe('PENDING');
    const details = res.body.carrierAccountConnection.authorizationDetails;
    expect(details).toMatchObject({ type: 'OAUTH2', status: 'PENDING' });
    expect(details.oauth_url).toMatch(/^https?:\/\//);
  });

  it('the list returns carrierAccountConnectionId of every linked account', async () => {
    const res = await sb.api.as('fern', 'GET', '/api/v1/carrierAccounts');
    expect(res.status).toBe(200);
    expect(res.body.carrierAccounts).toEqual([
      expect.objectContaining({
        id: 'cw-ca-fern-zippy',
        carrierAccountConnectionId: 'cw-conn-keel-zippy',
      }),
    ]);
  });
});

describe('POST /api/v1/carrierAccounts validation', () => {
  it.each([
    [1, 400],
    [2, 201],
    [100, 201],
    [101, 400],
  ])('an account name of %i characters → %i', async (n, status) => {
    const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
      name: name(n),
      carrierAccountConnectionId: 'cw-conn-solo-zippy',
    });
    if (status === 400) expect(fields(envelope(res, 400) && res)).toContain('name');
    else expect(res.status).toBeLessThan(300);
  });

  it.each([
    [1, 400],
    [2, 201],
    [100, 201],
    [101, 400],
  ])('a connection name of %i characters → %i', async (n, status) => {
    const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
      name: 'Zippy with a new connection',
      carrierAccountConnection: zippyConnection({
        name: name(n),
        connectionDetails: { carrier: 'ZIPPY', accountNumber: `ZP-N${n}` },
      }),
    });
    if (status === 400) {
      envelope(res, 400);
      expect(fields(res)).toContain('carrierAccountConnection.name');
    } else expect(res.status).toBeLessThan(300);
  });

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

  it('neither a connection nor a connection id is 400; both is 400', async () => {
    const neither = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
      name: 'Orphan',
    });
    envelope(neither, 400);
    const both = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
      name: 'Both',
      carrierAccountConnectionId: 'cw-conn-solo-zippy',
      carrierAccountConnection: zippyConnection(),
    });
    envelope(both, 400);
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

  it('a read-only key cannot create, update or delete', async () => {
    const body = { name: 'Viewer', carrierAccountConnectionId: 'cw-conn-solo-zippy' };
    envelope(await sb.api.as('soloViewer', 'POST', '/api/v1/carrierAccounts', body), 403);
    envelope(
      await sb.api.as('soloViewer', 'PUT', '/api/v1/carrierAccounts/cw-ca-solo-zippy', {
        name: 'Renamed',
      }),
      403,
    );
    envelope(
      await sb.api.as('soloViewer', 'DELETE', '/api/v1/carrierAccounts/cw-ca-solo-zippy'),
      403,
    );
    expect((await sb.api.as('soloViewer', 'GET', '/api/v1/carrierAccounts')).status).toBe(200);
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

  it('an OAuth carrier starts PENDING with oauth_url; the OAuth page authorizes it', async () => {
    const res = await sb.api.as('solo', 'POST', '/api/v1/carrierAccounts', {
      name: 'UPS direct',
      carrierAccountConnection: {
        name: 'UPS direct',
        ownershipType: 'BRAND',
        connectionDetails: { carrier: 'UPS', accountNumber: 'A1B2C3' },
      },
    });
    expect(res.status).toBeLessThan(300);
    const conn = res.body.carrierAccountConnection;
    expect(conn.authorizationStatus).toBe('PENDING');
    expect(conn.authorizationDetails).toMatchObject({ type: 'OAUTH2', status: 'PENDING' });
    const page = await http(
      sb.sandbox.url,
      'GET',
      new URL(conn.authorizationDetails.oauth_url).pathname,
    );
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<button[^>]*>\s*Authorize/i);
    const refused = await sb.api.as('solo', 'POST', '/api/v1/rates', {
      shipment: shipment(),
      options: { carrierAccountIds: [res.body.id] },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const action = /action="([^"]+)"/.exec(page.text)![1]!;
    const authorized = await http(sb.sandbox.url, 'POST', action, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: '',
    });
    expect(authorized.status).toBe(200);
    const after = await sb.api.as('solo', 'GET', `/api/v1/carrierAccounts/${res.body.id}`);
    expect(after.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
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

describe('3PL grants and tenant isolation', () => {
  it('a 3PL grants a brand access with ownerTenantId + carrierAccountConnectionId', async () => {
    const res = await sb.api.as('keel', 'POST', '/api/v1/carrierAccounts', {
      name: 'Quill via Keel Acme',
      ownerTenantId: 'cw-quill',
      carrierAccountConnectionId: 'cw-conn-keel-acme',
    });
    expect(res.status).toBeLessThan(300);
    expect(res.body).toMatchObject({
      tenantId: 'cw-quill',
      carrierAccountConnectionId: 'cw-conn-keel-acme',
      carrierAccountConnection: { id: 'cw-conn-keel-acme', authorizationStatus: 'AUTHORIZED' },
    });
    // the brand sees and uses it; the 3PL does not see it among its own accounts
    const quill = await sb.api.as('keel', 'GET', '/api/v1/carrierAccounts', undefined, 'cw-quill');
    expect(ids(quill)).toContain(res.body.id);
    const keel = await sb.api.as('keel', 'GET', '/api/v1/carrierAccounts');
    expect(ids(keel)).not.toContain(res.body.id);
  });

  it('an ownerTenantId that is not a tenant below the 3PL fails', async () => {
    for (const owner of ['cw-tide', 'cw-solo', 'cw-orbit', 'cw-unknown']) {
      const res = await sb.api.as('keel', 'POST', '/api/v1/carrierAccounts', {
        name: 'Bad grant',
        ownerTenantId: owner,
        carrierAccountConnectionId: 'cw-conn-keel-zippy',
      });
      expect([403, 404]).toContain(res.status);
      envelope(res, res.status);
    }
  });

  it('a brand cannot link another tenant connection', async () => {
    const res = await sb.api.as('fern', 'POST', '/api/v1/carrierAccounts', {
      name: 'Fern grabs Mast',
      carrierAccountConnectionId: 'cw-conn-mast-zippy',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    envelope(res, res.status);
  });

  it('an account is not visible to other tenants, parents and children included', async () => {
    // parent → child: the 3PL account is not visible to its brands
    envelope(
      await sb.api.as(
        'keel',
        'GET',
        '/api/v1/carrierAccounts/cw-ca-keel-zippy',
        undefined,
        'cw-fern',
      ),
      404,
    );
    envelope(await sb.api.as('fern', 'GET', '/api/v1/carrierAccounts/cw-ca-keel-zippy'), 404);
    // child → parent: the brand account is not visible to the 3PL or the 3PL parent
    envelope(await sb.api.as('keel', 'GET', '/api/v1/carrierAccounts/cw-ca-fern-zippy'), 404);
    envelope(await sb.api.as('orbit', 'GET', '/api/v1/carrierAccounts/cw-ca-fern-zippy'), 404);
    const orbit = await sb.api.as('orbit', 'GET', '/api/v1/carrierAccounts');
    expect(ids(orbit)).toEqual([]);
    const keel = await sb.api.as('keel', 'GET', '/api/v1/carrierAccounts');
    expect(ids(keel)).not.toContain('cw-ca-fern-zippy');
    // sibling and other tree
    envelope(await sb.api.as('fern', 'GET', '/api/v1/carrierAccounts/cw-ca-quill-zippy'), 404);
    envelope(await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts/cw-ca-tide-zippy'), 404);
    // writes too
    envelope(
      await sb.api.as('keel', 'PUT', '/api/v1/carrierAccounts/cw-ca-fern-zippy', { name: 'Mine' }),
      404,
    );
    envelope(await sb.api.as('keel', 'DELETE', '/api/v1/carrierAccounts/cw-ca-fern-zippy'), 404);
  });

  it('PUT updates an account', async () => {
    const res = await sb.api.as('solo', 'PUT', '/api/v1/carrierAccounts/cw-ca-solo-zippy', {
      name: 'Solo Zippy renamed',
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Solo Zippy renamed');
    const bad = await sb.api.as('solo', 'PUT', '/api/v1/carrierAccounts/cw-ca-solo-zippy', {
      name: 'Z',
    });
    expect(fields(envelope(bad, 400) && bad)).toContain('name');
  });

  it('deleting an account leaves its connection and the sibling accounts on it alone', async () => {
    const extra = await sb.api.as('keel', 'POST', '/api/v1/carrierAccounts', {
      name: 'Fern second Zippy',
      ownerTenantId: 'cw-fern',
      carrierAccountConnectionId: 'cw-conn-keel-zippy',
    });
    expect(extra.status).toBeLessThan(300);
    const del = await sb.api.as('keel', 'DELETE', '/api/v1/carrierAccounts/cw-ca-keel-zippy');
    expect(del.status).toBeLessThan(300);
    envelope(await sb.api.as('keel', 'GET', '/api/v1/carrierAccounts/cw-ca-keel-zippy'), 404);
    const fern = await sb.api.as('fern', 'GET', '/api/v1/carrierAccounts/cw-ca-fern-zippy');
    expect(fern.body.carrierAccountConnection).toMatchObject({
      id: 'cw-conn-keel-zippy',
      authorizationStatus: 'AUTHORIZED',
    });
    const rates = await sb.api.as('fern', 'POST', '/api/v1/rates', {
      shipment: shipment({ shipFrom: { siteId: 'cw-site-keel-memphis' } }),
      options: { carrierAccountIds: ['cw-ca-fern-zippy', extra.body.id] },
    });
    expect(rates.status).toBe(200);
    // the connection can still be granted again
    const again = await sb.api.as('keel', 'POST', '/api/v1/carrierAccounts', {
      name: 'Keel Zippy again',
      carrierAccountConnectionId: 'cw-conn-keel-zippy',
    });
    expect(again.status).toBeLessThan(300);
  });
});
