import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest } from './support.js';

/**
 * Trial of 2026-11-29 (night): New profile without a tenant id, against a platform that refused
 * the token request with a 400 of its own (a typo in the key's grant, a gateway's rule), was told
 * "the platform did not tell which tenant this API key belongs to", so site IT looked for a tenant
 * id the platform had never asked for. The platform's own reason, with its reference, is said.
 */
const stations = demoStationsPerTest();

const harborKey = {
  environment: 'sandbox' as const,
  clientId: 'demo-harbor-full',
  clientSecret: 'demo-harbor-full-secret',
};

describe('New profile: loading the tenants without a tenant id', () => {
  it("a token request refused for another reason says the platform's reason and reference", async () => {
    const { s, sandbox } = await stations.start();
    sandbox().faults.add({
      method: 'POST',
      path: '/api/v1/tokens/m2m',
      kind: 'status',
      status: 400,
    });
    const r = await s.dispatch('profiles.tenants', { ...harborKey, baseUrl: sandbox().url });
    if (r.ok) throw new Error('the tenants were loaded');
    expect(r.error.message).not.toMatch(/did not tell which tenant/);
    expect(r.error.message).toMatch(
      /^The platform refused .*Injected fault: 400 on POST \/api\/v1\/tokens\/m2m \(ref [\w-]+\)/,
    );
    expect(JSON.stringify(r)).not.toContain(harborKey.clientSecret);
    // Tried again once the platform takes the key: the tenants, without typing one.
    sandbox().faults.clear();
    const tenants = await call(s, 'profiles.tenants', { ...harborKey, baseUrl: sandbox().url });
    expect(tenants.map((t) => t.tenantId)).toContain('tnt_harbor');
  });

  it('a platform that wants the tenant for the list (403 on the tenant) asks for it to be typed', async () => {
    const { s, sandbox } = await stations.start();
    sandbox().faults.add({
      method: 'GET',
      path: '/api/v1/tenants',
      kind: 'status',
      status: 403,
      times: 1,
    });
    const r = await s.dispatch('profiles.tenants', { ...harborKey, baseUrl: sandbox().url });
    if (r.ok) throw new Error('the tenants were loaded');
    expect(r.error.message).toMatch(
      /^The platform did not tell which tenant this API key belongs to\. Type the key's tenant ID \(in the platform's API keys settings\) and load the tenants again\. The platform said: "Injected fault: 403 on GET \/api\/v1\/tenants" \(ref [\w-]+\)\.$/,
    );
  });
});
