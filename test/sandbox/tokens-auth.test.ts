import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope } from './helpers.js';

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
    expectEnvelope(
      await tokenRequest({
        grantType: 'clientCredentials',
        clientId: 'demo-lumen-full',
        clientSecret: 'nope',
      }),
      401,
      'INVALID_CLIENT',
    );
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
