import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenStore } from '../../../src/core/platform/index.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { CarrierHealth, TrackerPoller, TrackerStore } from '../../../src/core/tracking/index.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { buyLumenLabel, clientFor, rejection } from './support.js';

// Two environments: each its own server, its own data, its own identifiers.
const sandboxEnv = useSandbox();
const productionEnv = useSandbox();

describe('tenant isolation', () => {
  it('a 3PL acts for one brand per call with x-tenant-id, and sees only that brand', async () => {
    const { client, events } = clientFor(sandboxEnv, DEMO.threePl);
    const own = (await client.listCarrierAccounts()).map((a) => a.id);
    const driftwood = (await client.listCarrierAccounts({ tenantId: 'tnt_driftwood' })).map(
      (a) => a.id,
    );
    expect(own).toContain('ca_harbor_fedex');
    expect(own).not.toContain('ca_driftwood_fedex');
    expect(driftwood).toContain('ca_driftwood_fedex');
    expect(driftwood).not.toContain('ca_harbor_fedex');
    expect(
      events.filter((e) => e.operation === 'listCarrierAccounts').map((e) => e.tenantId),
    ).toEqual(['tnt_harbor', 'tnt_driftwood']);
    // One token for both: the brand is below the 3PL's tenant.
    expect(client.stats().tokenFetches).toBe(1);
  });

  it("another tenant's carrier account is not found", async () => {
    const { client } = clientFor(sandboxEnv, DEMO.threePl);
    const error = await rejection(client.getCarrierAccount('ca_lumen_ups'));
    expect(error.kind).toBe('not-found');
  });

  it('a brand cannot act for a sibling brand', async () => {
    const { client } = clientFor(sandboxEnv, {
      clientId: 'demo-driftwood-full',
      tenantId: 'tnt_driftwood',
    });
    const error = await rejection(client.listShippingSites({ tenantId: 'tnt_pinecrest' }));
    expect(error.kind).toBe('wrong-tenant');
    expect(error.message).toContain('tnt_pinecrest');
  });
});

describe('environment isolation', () => {
  it('an identifier from one environment does not resolve in the other', async () => {
    const a = clientFor(sandboxEnv, DEMO.directBrand, { environment: 'sandbox' }).client;
    const b = clientFor(productionEnv, DEMO.directBrand, { environment: 'production' }).client;
    const created = await a.createCarrierAccount({
      name: 'Only in sandbox',
      carrierAccountConnection: {
        name: 'Only in sandbox',
        ownershipType: 'BRAND',
        connectionDetails: { carrier: 'ONTRAC', accountNumber: '1' },
      },
    });
    expect((await a.getCarrierAccount(created.id)).id).toBe(created.id);
    expect((await rejection(b.getCarrierAccount(created.id))).kind).toBe('not-found');
  });

  it("a label's URL from one environment is never fetched with the other's token", async () => {
    const a = clientFor(sandboxEnv, DEMO.directBrand, { environment: 'sandbox' }).client;
    const { client: b, events } = clientFor(productionEnv, DEMO.directBrand, {
      environment: 'production',
    });
    const label = await buyLumenLabel(a, 'ORD-ENV');
    const error = await rejection(b.getLabelZpl(label.labelUrl!));
    expect(error.message).toMatch(/not this profile's platform/);
    expect(events).toEqual([]);
  });

  it('a shared token store keeps one token per base URL, client and tenant', async () => {
    const store = new TokenStore();
    const a1 = clientFor(sandboxEnv, DEMO.directBrand, { tokenStore: store }).client;
    const a2 = clientFor(sandboxEnv, DEMO.directBrand, { tokenStore: store }).client;
    const b = clientFor(productionEnv, DEMO.directBrand, { tokenStore: store }).client;
    await a1.listShippingSites();
    await a2.listShippingSites();
    await b.listShippingSites();
    expect(a1.stats().tokenFetches + a2.stats().tokenFetches).toBe(1);
    expect(b.stats().tokenFetches).toBe(1);
  });

  it('tracking refuses a client of another environment', () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    const { client } = clientFor(productionEnv, DEMO.directBrand, { environment: 'production' });
    const scope = { profileId: 'p1', environment: 'sandbox' as const, tenantId: 'tnt_lumen' };
    expect(() => new TrackerPoller({ client, store: new TrackerStore(db), scope })).toThrow(
      /never cross environments/,
    );
    expect(() => new CarrierHealth(client, db, scope)).toThrow(/never cross environments/);
    db.close();
  });
});
