import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope, labelBody } from './helpers.js';
import { conformanceSandbox } from './spec-world.js';

const sbx = useSandbox();

describe('tenants', () => {
  it('lists the tree below the tenant acted for, with types and children', async () => {
    const res = await call(sbx.url, 'GET', '/api/v1/tenants', {
      headers: await sbx.headers('demo-nexus-full'),
    });
    expect(res.status).toBe(200);
    expect(res.body.tenants).toHaveLength(1);
    const [root] = res.body.tenants;
    expect(root).toMatchObject({
      tenantId: 'tnt_nexus',
      type: 'thirdPartyLogisticParent',
      parentTenantId: null,
    });
    expect(root.children).toHaveLength(1);
    expect(root.children[0]).toMatchObject({
      tenantId: 'tnt_harbor',
      type: 'thirdPartyLogistic',
      parentTenantId: 'tnt_nexus',
    });
    expect(
      root.children[0].children
        .map((c: { tenantId: string; type: string }) => [c.tenantId, c.type])
        .sort(),
    ).toEqual([
      ['tnt_driftwood', 'brand'],
      ['tnt_pinecrest', 'brand'],
    ]);
    // The 3PL sees only its subtree; the direct brand only itself.
    const harbor = await call(sbx.url, 'GET', '/api/v1/tenants', {
      headers: await sbx.headers('demo-harbor-full'),
    });
    expect(harbor.body.tenants[0].tenantId).toBe('tnt_harbor');
    expect(JSON.stringify(harbor.body)).not.toContain('"tenantId":"tnt_nexus"');
  });

  it('gets one tenant in scope; 404 outside it (parent, sibling, unknown)', async () => {
    const headers = await sbx.headers('demo-harbor-full');
    const one = await call(sbx.url, 'GET', '/api/v1/tenants/tnt_pinecrest', { headers });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      tenantId: 'tnt_pinecrest',
      name: 'Pinecrest Outdoor Supply',
      children: [],
    });
    for (const id of ['tnt_nexus', 'tnt_lumen', 'tnt_ghost']) {
      expectEnvelope(
        await call(sbx.url, 'GET', `/api/v1/tenants/${id}`, { headers }),
        404,
        'NOT_FOUND',
      );
    }
    const asBrand = { ...headers, 'x-tenant-id': 'tnt_driftwood' };
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/tenants/tnt_pinecrest', { headers: asBrand }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('shipping sites', () => {
  it('creates a site per tenant and lists it', async () => {
    const headers = await sbx.headers('demo-harbor-full', 'tnt_pinecrest');
    const address = {
      addressLine1: '900 Peachtree St NE',
      city: 'Atlanta',
      stateProvince: 'GA',
      postalCode: '30309',
      countryCode: 'US',
    };
    const created = await call(sbx.url, 'POST', '/api/v1/shippingSites', {
      headers,
      body: { name: 'Pinecrest Atlanta', address },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^site_/),
      tenantId: 'tnt_pinecrest',
      name: 'Pinecrest Atlanta',
      address,
    });
    const list = await call(sbx.url, 'GET', '/api/v1/shippingSites', { headers });
    expect(list.body.shippingSites.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    const harbor = await call(sbx.url, 'GET', '/api/v1/shippingSites', {
      headers: await sbx.headers('demo-harbor-full'),
    });
    expect(harbor.body.shippingSites.map((s: { id: string }) => s.id).sort()).toEqual([
      'site_harbor_edison',
      'site_harbor_reno',
    ]);

    // The brand's own site is its origin: labels print its address.
    const label = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody(
        'ca_pinecrest_usps',
        'USPS_PRIORITY',
        {},
        { shipFrom: { siteId: created.body.id } },
      ),
    });
    expect(label.status).toBe(201);
    expect(Buffer.from(label.body.labelData, 'base64').toString()).toContain('900 Peachtree St NE');
  });

  it('validates the site and refuses read-only keys', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const env = expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/shippingSites', {
        headers,
        body: { name: 'X', address: { city: 7 } },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(env.errors.map((e) => e.field).sort()).toEqual([
      'address.addressLine1',
      'address.city',
      'address.countryCode',
      'address.postalCode',
      'name',
    ]);
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/shippingSites', {
        headers: await sbx.headers('demo-lumen-readonly'),
        body: {
          name: 'RO site',
          address: { addressLine1: '1 A St', city: 'B', postalCode: '1', countryCode: 'US' },
        },
      }),
      403,
      'READ_ONLY_KEY',
    );
  });
});

/** Conformance: tenants and shipping sites (spec parts 2 and 4), written from the spec alone. */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  const sb = conformanceSandbox();

  describe('tenants', () => {
    it('a brand sees only itself', async () => {
      const res = await sb.api.as('fern', 'GET', '/api/v1/tenants');
      const text = JSON.stringify(res.body);
      expect(text).toContain('cw-fern');
      expect(text).not.toContain('cw-quill');
      expect(text).not.toContain('"tenantId":"cw-keel"');
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
      expect(fern.body.shippingSites.map((s: { id: string }) => s.id)).not.toContain(
        created.body.id,
      );
    });
  });
});
