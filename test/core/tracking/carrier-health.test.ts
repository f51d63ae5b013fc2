import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/storage/database.js';
import {
  CarrierHealth,
  explainRateErrors,
  type TrackingScope,
} from '../../../src/core/tracking/index.js';
import { afterAll } from 'vitest';
import { startAnswerRelay, type AnswerRelay } from '../../support/answer-relay.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { clientFor, lumenShipment } from '../platform/support.js';

const sb = useSandbox();

const lumen: TrackingScope = {
  profileId: 'p1',
  environment: 'embedded-sandbox',
  tenantId: 'tnt_lumen',
};
const harbor: TrackingScope = {
  profileId: 'p2',
  environment: 'embedded-sandbox',
  tenantId: 'tnt_harbor',
};

function health(scope: TrackingScope, who: { clientId: string; tenantId: string }) {
  const db = openDatabase(join(tempDir(), 'station.db'));
  const { client } = clientFor(sb, who);
  return { db, client, health: new CarrierHealth(client, db, scope) };
}

describe('carrier account health', () => {
  it('flags a PENDING account with the oauth_url where its owner signs in', async () => {
    const { health: h } = health(lumen, DEMO.directBrand);
    const accounts = await h.refresh();
    const byId = new Map(accounts.map((a) => [a.carrierAccountId, a]));
    expect(byId.get('ca_lumen_ups')).toMatchObject({ usable: true, problem: null, message: null });
    const fedex = byId.get('ca_lumen_fedex')!;
    expect(fedex).toMatchObject({
      usable: false,
      problem: 'pending',
      authorizationStatus: 'PENDING',
    });
    expect(fedex.oauthUrl).toMatch(/\/sandbox\/oauth\/conn_lumen_fedex$/);
    expect(fedex.message).toContain(fedex.oauthUrl!);
  });

  it('flags EXPIRED and ERROR connections, and keeps the answer in the cache', async () => {
    const { health: h } = health(harbor, DEMO.threePl);
    sb.sandbox.setConnectionStatus('conn_harbor_dhl', 'ERROR');
    try {
      await h.refresh();
    } finally {
      sb.sandbox.setConnectionStatus('conn_harbor_dhl', 'AUTHORIZED');
    }
    const cached = new Map(h.cached().map((a) => [a.carrierAccountId, a]));
    expect(cached.get('ca_harbor_ups')).toMatchObject({ problem: 'expired', usable: false });
    expect(cached.get('ca_harbor_ups')?.message).toMatch(/authorization has expired/);
    expect(cached.get('ca_harbor_dhl')).toMatchObject({ problem: 'error', usable: false });
    expect(cached.get('ca_harbor_fedex')).toMatchObject({ problem: null, usable: true });
  });

  it("keeps each brand's accounts apart in the cache", async () => {
    const { health: h } = health(harbor, DEMO.threePl);
    await h.refresh({ tenantId: 'tnt_driftwood' });
    await h.refresh();
    const driftwood = h.cached('tnt_driftwood').map((a) => a.carrierAccountId);
    expect(driftwood).toContain('ca_driftwood_fedex');
    expect(driftwood).not.toContain('ca_harbor_fedex');
    expect(h.cached().map((a) => a.carrierAccountId)).not.toContain('ca_driftwood_fedex');
  });

  it('replaces the cache on refresh: a deleted account disappears', async () => {
    const { client, health: h } = health(lumen, DEMO.directBrand);
    const extra = await client.createCarrierAccount({
      name: 'Temporary',
      carrierAccountConnection: {
        name: 'Temporary',
        ownershipType: 'BRAND',
        connectionDetails: { carrier: 'ONTRAC', accountNumber: '9' },
      },
    });
    expect((await h.refresh()).map((a) => a.carrierAccountId)).toContain(extra.id);
    await client.deleteCarrierAccount(extra.id);
    expect((await h.refresh()).map((a) => a.carrierAccountId)).not.toContain(extra.id);
  });
});

describe('explaining rateErrors to the packer', () => {
  it('names the account, its status and the oauth_url of a PENDING connection', async () => {
    const { client, health: h } = health(lumen, DEMO.directBrand);
    const known = await h.refresh();
    const rates = await client.getRates({ shipment: lumenShipment() });
    const problems = explainRateErrors(rates.rateErrors, known);
    const fedex = problems.find((p) => p.carrierAccountId === 'ca_lumen_fedex');
    expect(fedex).toMatchObject({ problem: 'pending', authorizationStatus: 'PENDING' });
    expect(fedex?.oauthUrl).toMatch(/\/sandbox\/oauth\/conn_lumen_fedex$/);
    expect(fedex?.message).toMatch(/waiting for authorization/);
  });

  it('explains an inactive account and an unknown error without the cache', () => {
    const problems = explainRateErrors([
      {
        carrierAccount: { id: 'ca_1', name: 'Main', carrier: 'UPS' },
        errorCode: 'CARRIER_ACCOUNT_INACTIVE',
      },
      {
        carrierAccount: { id: 'ca_2', name: 'Other', carrier: 'DHL' },
        errorCode: 'X',
        message: 'Carrier timeout',
      },
      { carrierAccount: { id: 'ca_3', carrier: 'UPS' }, authorizationStatus: 'EXPIRED' },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      'UPS account "Main" is switched off (inactive) on the platform',
      'DHL account "Other" returned no rates: Carrier timeout',
      'UPS account "ca_3": the carrier authorization has expired, so it returns no rates until the owner re-authorizes it',
    ]);
  });
});

describe('a carrier account list that shows only the connection id', () => {
  // Spec rules 3 and 4: the list returns carrierAccountConnectionId; the status comes from
  // GET /api/v1/carrierAccounts/{id}. A platform whose list stops there must not make every
  // account UNKNOWN (no EXPIRED banner, no sign-in link).
  let relay: AnswerRelay | undefined;
  afterAll(() => relay?.close());

  it('reads each account on its own for its connection status', async () => {
    relay = await startAnswerRelay(
      () => sb.url,
      (method, path, body) => {
        if (method !== 'GET' || path !== '/api/v1/carrierAccounts') return body;
        const list = (body as { carrierAccounts: Record<string, unknown>[] }).carrierAccounts;
        return {
          carrierAccounts: list.map(({ carrierAccountConnection: _c, ...a }) => a),
        };
      },
    );
    const db = openDatabase(join(tempDir(), 'station.db'));
    const { client } = clientFor({ ...sb, url: relay.url } as typeof sb, DEMO.threePl);
    const h = new CarrierHealth(client, db, harbor);
    const byId = new Map((await h.refresh()).map((a) => [a.carrierAccountId, a]));
    expect(byId.get('ca_harbor_dhl')).toMatchObject({
      authorizationStatus: 'AUTHORIZED',
      usable: true,
    });
    expect(byId.get('ca_harbor_ups')).toMatchObject({
      authorizationStatus: 'EXPIRED',
      usable: false,
      problem: 'expired',
    });
    expect(byId.get('ca_harbor_ups')?.oauthUrl).toMatch(/\/sandbox\/oauth\/conn_harbor_ups$/);
    db.close();
  });
});
