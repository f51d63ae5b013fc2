/* eslint-disable @typescript-eslint/no-explicit-any -- fixture objects are edited loosely */
/**
 * Conformance: the fixture format exactly as issue 2 part 4 gives it, passed to startSandbox as
 * an object: a minimal world with a custom carrier rates and buys; a bad entry is named.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { Api, envelope } from './support.js';

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
      const headers = { authorization: `Bearer ${t.body.accessToken}`, 'x-tenant-id': 'mw-brand' };
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
    ['a bad authorizationType', (w: any) => (w.connections[0].authorizationType = 'X'), 'mw-conn'],
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
