import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FixtureError, demoWorld, parseFixtures } from '../../src/sandbox/index.js';
import { useSandbox } from '../support/sandbox.js';
import { call, labelBody, rateBody } from './helpers.js';

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
