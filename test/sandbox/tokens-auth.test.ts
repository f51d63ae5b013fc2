import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope } from './helpers.js';
import { conformanceSandbox, envelope, fields } from './spec-world.js';

const sbx = useSandbox({ tokenTtlSeconds: 600 });

const tokenRequest = (body: Record<string, unknown>) =>
  call(sbx.url, 'POST', '/api/v1/tokens/m2m', { body });

describe('tokens', () => {
  it('issues a bearer token with the configured lifetime and a refresh token', async () => {
    const res = await tokenRequest({
      grantType: 'clientCredentials',
      clientId: 'demo-lumen-full',
      clientSecret: 'demo-lumen-full-secret',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 600 });
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.refreshToken).toEqual(expect.any(String));
    expect(res.body.refreshToken).not.toBe(res.body.accessToken);
  });

  it('refuses a wrong secret and an unknown client with 401 INVALID_CLIENT', async () => {
    const wrongSecret = await tokenRequest({
      grantType: 'clientCredentials',
      clientId: 'demo-lumen-full',
      clientSecret: 'nope',
    });
    expectEnvelope(wrongSecret, 401, 'INVALID_CLIENT');
    // The refusal never quotes the key's real secret.
    expect(JSON.stringify(wrongSecret.body)).not.toContain('demo-lumen-full-secret');
    expectEnvelope(
      await tokenRequest({ grantType: 'clientCredentials', clientId: 'ghost', clientSecret: 'x' }),
      401,
      'INVALID_CLIENT',
    );
  });

  it('validates the grant type and missing fields', async () => {
    const env = expectEnvelope(
      await tokenRequest({ grantType: 'password', clientId: 'demo-lumen-full' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(env.errors.map((e) => e.field).sort()).toEqual(['clientSecret', 'grantType']);
    expect(env.errors.find((e) => e.field === 'clientSecret')?.code).toBe('required');
  });

  it('lets a 3PL key ask for a descendant tenant and refuses anything else with 403', async () => {
    const ok = await tokenRequest({
      grantType: 'clientCredentials',
      clientId: 'demo-harbor-full',
      clientSecret: 'demo-harbor-full-secret',
      tenantId: 'tnt_driftwood',
    });
    expect(ok.status).toBe(200);
    for (const tenantId of ['tnt_nexus', 'tnt_lumen', 'tnt_unknown']) {
      const env = expectEnvelope(
        await tokenRequest({
          grantType: 'clientCredentials',
          clientId: 'demo-harbor-full',
          clientSecret: 'demo-harbor-full-secret',
          tenantId,
        }),
        403,
        'TENANT_FORBIDDEN',
      );
      expect(env.message).toContain(tenantId);
    }
  });

  it('binds a token issued for a descendant to that subtree', async () => {
    const token = await sbx.token('demo-harbor-full', 'tnt_driftwood');
    const mine = await call(sbx.url, 'GET', '/api/v1/carrierAccounts', {
      headers: { authorization: `Bearer ${token}`, 'x-tenant-id': 'tnt_driftwood' },
    });
    expect(mine.status).toBe(200);
    const harbor = await call(sbx.url, 'GET', '/api/v1/carrierAccounts', {
      headers: { authorization: `Bearer ${token}`, 'x-tenant-id': 'tnt_harbor' },
    });
    expectEnvelope(harbor, 403, 'TENANT_FORBIDDEN');
  });
});

describe('authentication of API calls', () => {
  it('needs a bearer token', async () => {
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/tenants', { headers: { 'x-tenant-id': 'tnt_lumen' } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/tenants', {
        headers: { authorization: 'Bearer made-up', 'x-tenant-id': 'tnt_lumen' },
      }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/tenants', {
        headers: { authorization: 'Basic abc', 'x-tenant-id': 'tnt_lumen' },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('needs x-tenant-id and refuses tenants outside the key', async () => {
    const token = await sbx.token('demo-lumen-full');
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/tenants/tnt_lumen', {
        headers: { authorization: `Bearer ${token}` },
      }),
      403,
      'TENANT_REQUIRED',
    );
    // The tenant list alone answers without it: the key's own tenant, for a new station.
    const own = await call(sbx.url, 'GET', '/api/v1/tenants', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(own.status).toBe(200);
    expect(
      (own.body as { tenants: { tenantId: string }[] }).tenants.map((t) => t.tenantId),
    ).toEqual(['tnt_lumen']);
    for (const tenant of ['tnt_harbor', 'tnt_nope']) {
      expectEnvelope(
        await call(sbx.url, 'GET', '/api/v1/tenants', {
          headers: { authorization: `Bearer ${token}`, 'x-tenant-id': tenant },
        }),
        403,
        'TENANT_FORBIDDEN',
      );
    }
  });

  it('expires tokens on the sandbox clock, and a new token works', async () => {
    const old = await sbx.token('demo-lumen-full');
    const headers = { authorization: `Bearer ${old}`, 'x-tenant-id': 'tnt_lumen' };
    expect((await call(sbx.url, 'GET', '/api/v1/tenants', { headers })).status).toBe(200);
    await sbx.advance(540);
    // Issued later, the new token outlives the old one; the old one is still valid meanwhile.
    const fresh = await sbx.token('demo-lumen-full');
    expect((await call(sbx.url, 'GET', '/api/v1/tenants', { headers })).status).toBe(200);
    await sbx.advance(61);
    const env = expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/tenants', { headers }),
      401,
      'TOKEN_EXPIRED',
    );
    expect(env.message).toMatch(/expired/i);
    const ok = await call(sbx.url, 'GET', '/api/v1/tenants', {
      headers: { authorization: `Bearer ${fresh}`, 'x-tenant-id': 'tnt_lumen' },
    });
    expect(ok.status).toBe(200);
  });
});

/**
 * Conformance: tokens (spec part 5, issue 2 "Tokens") and the headers every call carries
 * (tenants and shipping sites: tenants-sites.test.ts).
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
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

    it('a wrong grantType or missing fields are 400 listing each field', async () => {
      const res = await sb.api.req('POST', '/api/v1/tokens/m2m', {
        json: { grantType: 'password', clientSecret: 42 },
      });
      envelope(res, 400);
      expect(fields(res)).toEqual(
        expect.arrayContaining(['grantType', 'clientId', 'clientSecret']),
      );
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
      routes.filter(
        ([m, p]) => !p.includes('webhook') && !(m === 'GET' && p === '/api/v1/tenants'),
      ),
    )('%s %s without x-tenant-id is refused', async (method, path) => {
      const res = await sb.api.as('solo', method, path, method === 'GET' ? undefined : {}, null);
      expect([400, 403]).toContain(res.status);
      envelope(res, res.status);
    });

    it('webhook routes need only the bearer token', async () => {
      expect((await sb.api.as('solo', 'GET', '/api/v1/webhooks', undefined, null)).status).toBe(
        200,
      );
      const events = await sb.api.as('solo', 'GET', '/api/v1/webhookEvents', undefined, null);
      expect(events.status).toBe(200);
    });
  });
});
