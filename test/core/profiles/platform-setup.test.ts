import { afterAll, describe, expect, it } from 'vitest';
import { PlatformClient } from '../../../src/core/platform/index.js';
import {
  createShippingSite,
  discoverTenants,
  listShippingSites,
  shipFromOf,
} from '../../../src/core/profiles/platform-setup.js';
import { profileSchema } from '../../../src/core/profiles/profile-schema.js';
import { startAnswerRelay, type AnswerRelay } from '../../support/answer-relay.js';
import { useSandbox } from '../../support/sandbox.js';
import { secretOf } from '../packing/support/station.js';

const sb = useSandbox();
const client = (clientId: string, tenantId: string) =>
  new PlatformClient({
    baseUrl: sb.url,
    clientId,
    tenantId,
    environment: 'sandbox',
    getSecret: () => secretOf(clientId),
    proactiveTokenRefresh: false,
  });

describe('setting up a profile from the platform', () => {
  it('reads the brands a 3PL ships for, and none for a brand', async () => {
    const harbor = client('demo-harbor-full', 'tnt_harbor');
    const lumen = client('demo-lumen-full', 'tnt_lumen');
    try {
      expect(await discoverTenants(harbor)).toEqual({
        tenantId: 'tnt_harbor',
        name: 'Harbor Fulfillment',
        tenantType: 'thirdPartyLogistic',
        brandTenants: [
          { tenantId: 'tnt_driftwood', name: 'Driftwood Coffee Co.' },
          { tenantId: 'tnt_pinecrest', name: 'Pinecrest Outdoor Supply' },
        ],
      });
      expect(await discoverTenants(lumen)).toMatchObject({ tenantType: 'brand', brandTenants: [] });
    } finally {
      harbor.close();
      lumen.close();
    }
  });

  it('picks a listed site or creates one, giving a valid profile', async () => {
    const harbor = client('demo-harbor-full', 'tnt_harbor');
    try {
      const sites = await listShippingSites(harbor);
      expect(sites.map((s) => s.id).sort()).toEqual(['site_harbor_edison', 'site_harbor_reno']);
      const edison = sites.find((s) => s.id === 'site_harbor_edison')!;
      const discovery = await discoverTenants(harbor);
      const profile = profileSchema.parse({
        id: 'harbor-edison-1',
        name: 'Edison 1',
        environment: 'sandbox',
        baseUrl: sb.url,
        clientId: 'demo-harbor-full',
        tenantId: 'tnt_harbor',
        tenantType: discovery.tenantType,
        brandTenants: discovery.brandTenants,
        shippingSiteId: edison.id,
        shipFrom: shipFromOf(edison),
      });
      expect(profile.shipFrom.city).toBe(edison.address!.city);

      const created = await createShippingSite(harbor, 'Harbor Allentown DC', {
        addressLine1: '7 Industrial Pkwy',
        city: 'Allentown',
        stateProvince: 'PA',
        postalCode: '18106',
        countryCode: 'US',
      });
      expect((await listShippingSites(harbor)).map((s) => s.id)).toContain(created.shippingSiteId);
    } finally {
      harbor.close();
    }
  });
});

describe('a tenant list that comes flat', () => {
  // Spec: GET /api/v1/tenants "returns all tenants together with their child tenants", in a
  // shape it does not show. Here the sandbox's tree is listed flat, each tenant beside its
  // parent with parentTenantId, as a platform may: the 3PL still ships for its brands.
  let relay: AnswerRelay | undefined;
  afterAll(() => relay?.close());

  it("finds a 3PL's brands by parentTenantId", async () => {
    relay = await startAnswerRelay(
      () => sb.url,
      (method, path, body) => {
        if (method !== 'GET' || path !== '/api/v1/tenants') return body;
        type Node = Record<string, unknown> & { children?: Node[] };
        const flat: Node[] = [];
        const walk = (t: Node) => {
          const { children, ...own } = t;
          flat.push(own);
          for (const c of children ?? []) walk(c);
        };
        for (const t of (body as { tenants: Node[] }).tenants) walk(t);
        return { tenants: flat };
      },
    );
    const harbor = new PlatformClient({
      baseUrl: relay.url,
      clientId: 'demo-harbor-full',
      tenantId: 'tnt_harbor',
      environment: 'sandbox',
      getSecret: () => secretOf('demo-harbor-full'),
      proactiveTokenRefresh: false,
    });
    try {
      expect(await discoverTenants(harbor)).toEqual({
        tenantId: 'tnt_harbor',
        name: 'Harbor Fulfillment',
        tenantType: 'thirdPartyLogistic',
        brandTenants: [
          { tenantId: 'tnt_driftwood', name: 'Driftwood Coffee Co.' },
          { tenantId: 'tnt_pinecrest', name: 'Pinecrest Outdoor Supply' },
        ],
      });
      const [root] = await harbor.listTenants();
      expect(root?.tenantId).toBe('tnt_harbor');
      expect(root?.children?.map((c) => c.tenantId)).toEqual(['tnt_driftwood', 'tnt_pinecrest']);
    } finally {
      harbor.close();
    }
  });
});
