import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { harborProfile, lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor } from './support/harness.js';

// Two platforms: each environment is its own server with its own identifiers.
const sandboxEnv = useSandbox();
const productionEnv = useSandbox();

describe('profile, environment and tenant isolation', () => {
  it('the same station database keeps each profile and environment apart', async () => {
    const dbFile = join(tempDir(), 'station.db');
    const inSandbox = await stationFor((p) => lumenProfile(sandboxEnv.url, p), { dbFile });
    const inProduction = await stationFor(
      (p) => lumenProfile(productionEnv.url, p, { environment: 'production' }),
      { dbFile },
    );
    const threePl = await stationFor((p) => harborProfile(sandboxEnv.url, p), { dbFile });
    for (const s of [inSandbox, inProduction, threePl]) s.importSamples();

    const bought = await inSandbox.workflow.ship(orderId(inSandbox, 'LUM-10421'), {
      stationUser: 'ana',
    });
    if (bought.outcome !== 'printed') throw new Error(JSON.stringify(bought));
    const tracking = bought.label.trackingNumber;

    // Production sees its own copy of the order, without the sandbox label.
    const prodScan = inProduction.workflow.lookup('LUM-10421');
    expect(prodScan).toMatchObject({ kind: 'order', labels: [] });
    expect(inProduction.workflow.lookup(tracking).kind).toBe('not-found');
    expect(inProduction.workflow.labels.search(inProduction.workflow.scope).labels).toEqual([]);
    // The 3PL profile never imported Lumen's orders and cannot see its labels.
    expect(threePl.workflow.lookup('LUM-10421').kind).toBe('not-found');
    expect(threePl.workflow.lookup(tracking).kind).toBe('not-found');

    // Buying in production goes to the production platform only.
    const prod = await inProduction.workflow.ship(orderId(inProduction, 'LUM-10421'), {
      stationUser: 'ana',
    });
    expect(prod.outcome).toBe('printed');
    expect(await ledgerFor(sandboxEnv.url, 'LUM-10421')).toHaveLength(1);
    expect(await ledgerFor(productionEnv.url, 'LUM-10421')).toHaveLength(1);

    // A queued shipment or a purchase of one profile cannot be driven from another.
    expect(await threePl.workflow.continueQueued(bought.shipment.id)).toMatchObject({
      outcome: 'invalid',
    });
    expect(() => inProduction.attention.markNotBought(bought.label.purchaseId, 'x')).toThrow(
      /No purchase/,
    );
  });

  it('a 3PL buys each brand order under that brand, with that brand’s carrier accounts', async () => {
    const station = await stationFor((p) => harborProfile(sandboxEnv.url, p));
    station.importSamples();
    const accounts = (tenantId: string) =>
      sandboxEnv.sandbox.fixtures.carrierAccounts
        .filter((a) => a.tenantId === tenantId)
        .map((a) => a.id);
    for (const [number, tenant] of [
      ['DW-55014', 'tnt_driftwood'],
      ['PC-8802', 'tnt_pinecrest'],
    ] as const) {
      const result = await station.workflow.ship(orderId(station, number), { stationUser: 'lee' });
      if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
      const [sale] = await ledgerFor(sandboxEnv.url, number);
      expect(sale).toMatchObject({ tenantId: tenant });
      expect(accounts(tenant)).toContain(sale!.carrierAccountId);
      expect(result.label.tenantId).toBe(tenant);
    }
  });
});
