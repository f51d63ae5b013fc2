/* eslint-disable @typescript-eslint/no-explicit-any -- fixture objects are edited loosely */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FixtureError, demoWorld, parseFixtures, startSandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../support/sandbox.js';
import { call, labelBody, rateBody } from './helpers.js';
import { Api, envelope } from './spec-world.js';

const ACME = new URL('../fixtures/acme-world.json', import.meta.url).pathname;
const sbx = useSandbox({ fixtures: ACME });

const acme = () => JSON.parse(readFileSync(ACME, 'utf8')) as ReturnType<typeof demoWorld>;

describe('fixtures', () => {
  it('a test can bring its own world with its own carriers', async () => {
    const headers = await sbx.headers('acme-full');
    const rates = await call(sbx.url, 'POST', '/api/v1/rates', { headers, body: rateBody() });
    expect(rates.status).toBe(200);
    expect(
      rates.body.shipmentRates.map((r: { serviceLevel: string }) => r.serviceLevel).sort(),
    ).toEqual(['ACME_GROUND', 'ACME_OVERNIGHT', 'ROADRUNNER_2_DAY']);
    const label = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody('ca_acme', 'ACME_OVERNIGHT'),
    });
    expect(label.status).toBe(201);
    expect(label.body.trackingNumber).toMatch(/^ACMESBX/);
    expect(Buffer.from(label.body.labelData, 'base64').toString()).toContain(
      '4400 E Broadway Blvd',
    );
    // The demo world is not loaded.
    const demo = await fetch(`${sbx.url}/api/v1/tokens/m2m`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grantType: 'clientCredentials',
        clientId: 'demo-lumen-full',
        clientSecret: 'demo-lumen-full-secret',
      }),
    });
    expect(demo.status).toBe(401);
  });

  it('the demo world has the tenants, keys and connections the docs promise', () => {
    const world = demoWorld();
    expect(world.tenants.map((t) => t.type).sort()).toEqual([
      'brand',
      'brand',
      'brand',
      'thirdPartyLogistic',
      'thirdPartyLogisticParent',
    ]);
    const statuses = world.connections.map((c) => c.authorizationStatus);
    expect(statuses).toContain('PENDING');
    expect(statuses).toContain('EXPIRED');
    expect(world.apiClients.some((c) => c.access === 'readOnly')).toBe(true);
  });

  it('names the bad entry of an invalid file', () => {
    const broken = acme();
    broken.carrierAccounts[1]!.carrierAccountConnectionId = 'conn_x';
    expect(() => parseFixtures(broken)).toThrow(
      'carrierAccounts[1].carrierAccountConnectionId: unknown connection "conn_x"',
    );

    const badType = acme();
    (badType.tenants[0] as { type: string }).type = 'warehouse';
    expect(() => parseFixtures(badType)).toThrow(/tenants\[0\]\.type/);

    const badLevel = acme();
    badLevel.carrierAccounts[0]!.serviceLevels = ['ACME_GROUND', 'UPS_GROUND', 'ground'];
    try {
      parseFixtures(badLevel);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FixtureError);
      expect((error as Error).message).toContain('carrierAccounts[0].serviceLevels[2]');
    }
    const wrongCarrier = acme();
    wrongCarrier.carrierAccounts[0]!.serviceLevels = ['UPS_GROUND'];
    expect(() => parseFixtures(wrongCarrier)).toThrow(
      'carrierAccounts[0].serviceLevels[0]: "UPS_GROUND" is not a service level of carrier ACME',
    );

    const orphan = acme();
    orphan.apiClients[0]!.tenantId = 'tnt_nobody';
    expect(() => parseFixtures(orphan)).toThrow(
      'apiClients[0].tenantId: unknown tenant "tnt_nobody"',
    );

    const dup = acme();
    dup.connections.push({ ...dup.connections[0]! });
    expect(() => parseFixtures(dup)).toThrow('connections[2]: duplicate id "conn_acme"');

    const cycle = acme();
    cycle.tenants.push({ tenantId: 'a', name: 'A', type: 'brand', parentTenantId: 'b' });
    cycle.tenants.push({ tenantId: 'b', name: 'B', type: 'brand', parentTenantId: 'a' });
    expect(() => parseFixtures(cycle)).toThrow(/cycle/);

    expect(() => parseFixtures({ tenants: [] })).toThrow(/apiClients/);
  });
});

/**
 * Conformance: the fixture format exactly as issue 2 part 4 gives it, passed to startSandbox as
 * an object: a minimal world with a custom carrier rates and buys; a bad entry is named.
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  function minimalWorld(): any {
    return {
      tenants: [
        { tenantId: 'mw-3pl', name: 'Minimal 3PL', type: 'thirdPartyLogistic' },
        { tenantId: 'mw-brand', name: 'Minimal Brand', type: 'brand', parentTenantId: 'mw-3pl' },
      ],
      apiClients: [
        { clientId: 'mw-key', clientSecret: 'mw-secret', tenantId: 'mw-3pl', access: 'full' },
      ],
      shippingSites: [
        {
          id: 'mw-site',
          tenantId: 'mw-3pl',
          name: 'Yard',
          address: {
            city: 'Denver',
            postalCode: '80202',
            countryCode: 'US',
            addressLine1: '1 Rail St',
          },
        },
      ],
      connections: [
        {
          id: 'mw-conn',
          name: 'Zippy deal',
          ownerTenantId: 'mw-3pl',
          ownershipType: 'PARTNER',
          carrier: 'ZIPPY',
          accountNumber: 'Z-1',
          authorizationType: 'APIKEY',
          authorizationStatus: 'AUTHORIZED',
        },
      ],
      carrierAccounts: [
        {
          id: 'mw-ca',
          name: 'Brand Zippy',
          tenantId: 'mw-brand',
          carrierAccountConnectionId: 'mw-conn',
          serviceLevels: ['ZIPPY_GROUND', 'ZIPPY_NEXT_DAY'],
          isActive: true,
        },
      ],
    };
  }

  describe('fixtures in the format of issue 2', () => {
    it('a minimal world starts; its brand rates and buys on the custom carrier', async () => {
      const sandbox = await startSandbox({ port: 0, fixtures: minimalWorld() });
      try {
        const api = new Api(sandbox.url);
        const t = await api.req('POST', '/api/v1/tokens/m2m', {
          json: {
            grantType: 'clientCredentials',
            clientId: 'mw-key',
            clientSecret: 'mw-secret',
            tenantId: 'mw-brand',
          },
        });
        expect(t.status).toBe(200);
        const headers = {
          authorization: `Bearer ${t.body.accessToken}`,
          'x-tenant-id': 'mw-brand',
        };
        const shipment = {
          shipTo: {
            name: 'Ida Moss',
            addressLine1: '4 Elm Ct',
            city: 'Boston',
            postalCode: '02108',
            countryCode: 'US',
          },
          shipFrom: {},
          packages: [{ weightLbs: 2 }],
        };
        const rates = await api.req('POST', '/api/v1/rates', { headers, json: { shipment } });
        expect(rates.status).toBe(200);
        expect(rates.body.shipmentRates.map((r: any) => r.serviceLevel).sort()).toEqual([
          'ZIPPY_GROUND',
          'ZIPPY_NEXT_DAY',
        ]);
        const label = await api.req('POST', '/api/v1/labels', {
          headers,
          json: {
            carrierAccountId: 'mw-ca',
            serviceLevel: 'ZIPPY_NEXT_DAY',
            shipment,
            labelOptions: { type: 'ZPL', size: '4x6', inline: true },
          },
        });
        expect(label.status).toBeLessThan(300);
        expect(Buffer.from(label.body.labelData, 'base64').toString()).toContain('Denver');
      } finally {
        await sandbox.close();
      }
    });

    it('an account without isActive and a site with a partial address are accepted', async () => {
      const world = minimalWorld();
      delete world.carrierAccounts[0].isActive;
      world.shippingSites[0].address = { postalCode: '80202', countryCode: 'US' };
      const sandbox = await startSandbox({ port: 0, fixtures: world });
      try {
        const api = new Api(sandbox.url);
        const t = await api.req('POST', '/api/v1/tokens/m2m', {
          json: { grantType: 'clientCredentials', clientId: 'mw-key', clientSecret: 'mw-secret' },
        });
        const res = await api.req('GET', '/api/v1/carrierAccounts/mw-ca', {
          headers: { authorization: `Bearer ${t.body.accessToken}`, 'x-tenant-id': 'mw-brand' },
        });
        expect(res.body.isActive).toBe(true);
        // a label needs a full ship-from: the site's partial address is reported at use
        const label = await api.req('POST', '/api/v1/labels', {
          headers: { authorization: `Bearer ${t.body.accessToken}`, 'x-tenant-id': 'mw-brand' },
          json: {
            carrierAccountId: 'mw-ca',
            serviceLevel: 'ZIPPY_GROUND',
            shipment: {
              shipTo: {
                name: 'Ida Moss',
                addressLine1: '4 Elm Ct',
                city: 'Boston',
                postalCode: '02108',
                countryCode: 'US',
              },
              shipFrom: {},
              packages: [{ weightLbs: 2 }],
            },
          },
        });
        envelope(label, 400);
      } finally {
        await sandbox.close();
      }
    });

    it.each([
      ['an unknown parent', (w: any) => (w.tenants[1].parentTenantId = 'mw-ghost'), 'mw-ghost'],
      ['a bad tenant type', (w: any) => (w.tenants[1].type = 'merchant'), 'mw-brand'],
      ['a bad access', (w: any) => (w.apiClients[0].access = 'admin'), 'mw-key'],
      ['an unknown site tenant', (w: any) => (w.shippingSites[0].tenantId = 'mw-nope'), 'mw-nope'],
      ['a bad ownershipType', (w: any) => (w.connections[0].ownershipType = 'SHARED'), 'mw-conn'],
      [
        'a bad authorizationType',
        (w: any) => (w.connections[0].authorizationType = 'X'),
        'mw-conn',
      ],
      ['a bad status', (w: any) => (w.connections[0].authorizationStatus = 'OK'), 'mw-conn'],
      [
        'an unknown connection',
        (w: any) => (w.carrierAccounts[0].carrierAccountConnectionId = 'c9'),
        'c9',
      ],
      [
        'a level of another carrier',
        (w: any) => (w.carrierAccounts[0].serviceLevels = ['ACME_GROUND']),
        'ACME_GROUND',
      ],
      ['a duplicate id', (w: any) => w.carrierAccounts.push({ ...w.carrierAccounts[0] }), 'mw-ca'],
    ])('%s stops the sandbox with a message naming the entry', async (_what, breakIt, named) => {
      const world = minimalWorld();
      breakIt(world);
      await expect(startSandbox({ port: 0, fixtures: world })).rejects.toThrow(named);
    });
  });
});
