/**
 * Conformance: tokens (spec part 5, issue 2 "Tokens"), the headers every call carries,
 * tenants and shipping sites.
 */
import { describe, expect, it } from 'vitest';
import { KEYS, conformanceSandbox, envelope, fields } from './support.js';

const sb = conformanceSandbox();

describe('POST /api/v1/tokens/m2m', () => {
  it('issues a Bearer token for the key, with expiresIn 3600 and a refreshToken', async () => {
    const res = await sb.api.token('solo');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    expect(typeof res.body.accessToken).toBe('string');
    expect(res.body.accessToken.length).toBeGreaterThan(10);
    expect(typeof res.body.refreshToken).toBe('string');
    expect(res.body.refreshToken.length).toBeGreaterThan(0);
    expect(Number.isInteger(res.body.expiresIn)).toBe(true);
  });

  it('defaults to the key tenant; a descendant tenant is allowed; anything else is 403', async () => {
    const own = await sb.api.token('keel');
    const sites = await sb.api.req('GET', '/api/v1/shippingSites', {
      headers: { authorization: `Bearer ${own.body.accessToken}`, 'x-tenant-id': 'cw-keel' },
    });
    expect(sites.status).toBe(200);

    expect((await sb.api.token('keel', 'cw-fern')).status).toBe(200);
    expect((await sb.api.token('orbit', 'cw-quill')).status).toBe(200);
    envelope(await sb.api.token('keel', 'cw-orbit'), 403); // the parent
    envelope(await sb.api.token('keel', 'cw-tide'), 403); // another 3PL's brand
    envelope(await sb.api.token('fern', 'cw-quill'), 403); // a sibling
    envelope(await sb.api.token('solo', 'cw-nobody'), 403); // unknown
  });

  it('a token issued for a descendant acts for it and not for the key tenant', async () => {
    const t = await sb.api.token('keel', 'cw-fern');
    const call = (tenant: string) =>
      sb.api.req('GET', '/api/v1/carrierAccounts', {
        headers: { authorization: `Bearer ${t.body.accessToken}`, 'x-tenant-id': tenant },
      });
    expect((await call('cw-fern')).status).toBe(200);
    envelope(await call('cw-keel'), 403);
  });

  it('bad credentials are 401 in the error envelope', async () => {
    const wrongSecret = await sb.api.req('POST', '/api/v1/tokens/m2m', {
      json: {
        grantType: 'clientCredentials',
        clientId: KEYS.solo.clientId,
        clientSecret: 'not-the-secret',
      },
    });
    envelope(wrongSecret, 401);
    const unknown = await sb.api.req('POST', '/api/v1/tokens/m2m', {
      json: { grantType: 'clientCredentials', clientId: 'cw-ghost', clientSecret: 'x' },
    });
    envelope(unknown, 401);
    expect(wrongSecret.text).not.toContain('s0lo-adm1n-pass');
  });

  it('a wrong grantType or missing fields are 400 listing each field', async () => {
    const res = await sb.api.req('POST', '/api/v1/tokens/m2m', {
      json: { grantType: 'password', clientSecret: 42 },
    });
    envelope(res, 400);
    expect(fields(res)).toEqual(expect.arrayContaining(['grantType', 'clientId', 'clientSecret']));
  });

  it('a token stops working when it expires on the sandbox clock; a new one works', async () => {
    const first = await sb.api.token('fern');
    const headers = { authorization: `Bearer ${first.body.accessToken}`, 'x-tenant-id': 'cw-fern' };
    await sb.api.advance(3590);
    // a newer token does not invalidate the old one: requests in flight still succeed
    const second = await sb.api.token('fern');
    expect((await sb.api.req('GET', '/api/v1/tenants', { headers })).status).toBe(200);
    await sb.api.advance(11);
    envelope(await sb.api.req('GET', '/api/v1/tenants', { headers }), 401);
    const renewed = await sb.api.req('GET', '/api/v1/tenants', {
      headers: { ...headers, authorization: `Bearer ${second.body.accessToken}` },
    });
    expect(renewed.status).toBe(200);
    sb.api.forget();
  });
});

describe('headers on every other route', () => {
  const routes: [string, string][] = [
    ['GET', '/api/v1/tenants'],
    ['GET', '/api/v1/tenants/cw-solo'],
    ['GET', '/api/v1/shippingSites'],
    ['POST', '/api/v1/shippingSites'],
    ['GET', '/api/v1/carrierAccounts'],
    ['POST', '/api/v1/carrierAccounts'],
    ['GET', '/api/v1/carrierAccounts/cw-ca-solo-acme'],
    ['PUT', '/api/v1/carrierAccounts/cw-ca-solo-acme'],
    ['DELETE', '/api/v1/carrierAccounts/cw-ca-solo-acme'],
    ['POST', '/api/v1/rates'],
    ['POST', '/api/v1/labels'],
    ['GET', '/api/v1/trackers'],
    ['GET', '/api/v1/webhooks'],
    ['POST', '/api/v1/webhooks'],
    ['GET', '/api/v1/webhookEvents'],
  ];

  it.each(routes)('%s %s without a bearer token is 401', async (method, path) => {
    const res = await sb.api.req(method, path, {
      headers: { 'x-tenant-id': 'cw-solo' },
      ...(method === 'GET' || method === 'DELETE' ? {} : { json: {} }),
    });
    envelope(res, 401);
  });

  it.each(routes)('%s %s with an unknown bearer token is 401', async (method, path) => {
    const res = await sb.api.req(method, path, {
      headers: { authorization: 'Bearer forged-token', 'x-tenant-id': 'cw-solo' },
    });
    envelope(res, 401);
  });

  it.each(routes.filter(([, p]) => !p.includes('webhook')))(
    '%s %s with an x-tenant-id outside the token scope is 403',
    async (method, path) => {
      const res = await sb.api.as(
        'solo',
        method,
        path,
        method === 'GET' ? undefined : {},
        'cw-keel',
      );
      envelope(res, 403);
    },
  );

  // GET /api/v1/tenants is the one tenant-scoped read that answers without x-tenant-id: it is how
  // a key learns its own tenant (see the test below and docs/platform-choices.md).
  it.each(
    routes.filter(([m, p]) => !p.includes('webhook') && !(m === 'GET' && p === '/api/v1/tenants')),
  )('%s %s without x-tenant-id is refused', async (method, path) => {
    const res = await sb.api.as('solo', method, path, method === 'GET' ? undefined : {}, null);
    expect([400, 403]).toContain(res.status);
    envelope(res, res.status);
  });

  it("the tenant list without x-tenant-id is the key's own tenant and its children", async () => {
    const res = await sb.api.as('orbit', 'GET', '/api/v1/tenants', undefined, null);
    expect(res.status).toBe(200);
    expect(res.body.tenants.map((t: { tenantId: string }) => t.tenantId)).toEqual(['cw-orbit']);
  });

  it('webhook routes need only the bearer token', async () => {
    expect((await sb.api.as('solo', 'GET', '/api/v1/webhooks', undefined, null)).status).toBe(200);
    const events = await sb.api.as('solo', 'GET', '/api/v1/webhookEvents', undefined, null);
    expect(events.status).toBe(200);
  });
});

describe('tenants', () => {
  it('lists the tenant with its children, recursively, and their types', async () => {
    const res = await sb.api.as('orbit', 'GET', '/api/v1/tenants');
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    for (const id of ['cw-orbit', 'cw-keel', 'cw-fern', 'cw-quill']) expect(text).toContain(id);
    for (const id of ['cw-mast', 'cw-tide', 'cw-solo']) expect(text).not.toContain(id);
    const root = res.body.tenants[0];
    expect(root).toMatchObject({ tenantId: 'cw-orbit', type: 'thirdPartyLogisticParent' });
    expect(root.children[0]).toMatchObject({ tenantId: 'cw-keel', type: 'thirdPartyLogistic' });
    const brands = root.children[0].children.map((c: { tenantId: string; type: string }) => [
      c.tenantId,
      c.type,
    ]);
    expect(brands).toEqual(
      expect.arrayContaining([
        ['cw-fern', 'brand'],
        ['cw-quill', 'brand'],
      ]),
    );
  });

  it('a brand sees only itself', async () => {
    const res = await sb.api.as('fern', 'GET', '/api/v1/tenants');
    const text = JSON.stringify(res.body);
    expect(text).toContain('cw-fern');
    expect(text).not.toContain('cw-quill');
    expect(text).not.toContain('"tenantId":"cw-keel"');
  });

  it('gets one tenant in scope; 404 outside it (parent, sibling, other tree, unknown)', async () => {
    const fern = await sb.api.as('keel', 'GET', '/api/v1/tenants/cw-fern');
    expect(fern.status).toBe(200);
    expect(fern.body).toMatchObject({ tenantId: 'cw-fern', type: 'brand' });
    for (const id of ['cw-orbit', 'cw-tide', 'cw-solo', 'cw-missing'])
      envelope(await sb.api.as('keel', 'GET', `/api/v1/tenants/${id}`), 404);
    envelope(await sb.api.as('fern', 'GET', '/api/v1/tenants/cw-quill'), 404);
  });
});

describe('shipping sites', () => {
  it('creates a site (the response carries id) and lists it, per tenant', async () => {
    const created = await sb.api.as('keel', 'POST', '/api/v1/shippingSites', {
      name: 'Keel Reno Annex',
      address: {
        addressLine1: '9 Sierra Way',
        city: 'Reno',
        stateProvince: 'NV',
        postalCode: '89502',
        countryCode: 'US',
      },
    });
    expect(created.status).toBeLessThan(300);
    expect(typeof created.body.id).toBe('string');
    const keel = await sb.api.as('keel', 'GET', '/api/v1/shippingSites');
    const ids = keel.body.shippingSites.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([created.body.id, 'cw-site-keel-memphis']));
    const solo = await sb.api.as('solo', 'GET', '/api/v1/shippingSites');
    const soloIds = solo.body.shippingSites.map((s: { id: string }) => s.id);
    expect(soloIds).toEqual(['cw-site-solo-portland']);
    const fern = await sb.api.as('fern', 'GET', '/api/v1/shippingSites');
    expect(fern.body.shippingSites.map((s: { id: string }) => s.id)).not.toContain(created.body.id);
  });

  it('a bad site is 400 listing each field; a read-only key cannot create one', async () => {
    const bad = await sb.api.as('solo', 'POST', '/api/v1/shippingSites', {
      name: 'X',
      address: { city: 7 },
    });
    envelope(bad, 400);
    expect(fields(bad)).toEqual(expect.arrayContaining(['name', 'address.city']));
    const ro = await sb.api.as('soloViewer', 'POST', '/api/v1/shippingSites', {
      name: 'Viewer site',
      address: { addressLine1: '1 A St', city: 'Bangor', postalCode: '04401', countryCode: 'US' },
    });
    envelope(ro, 403);
  });
});
