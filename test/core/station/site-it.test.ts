import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { startPlainZebra } from '../../support/plain-zebra.js';
import { provisionProfiles } from '../../../src/core/profiles/provisioning.js';
import { call, demoStationsPerTest, scanOrder, until, type Sandbox } from './support.js';

const root = join(import.meta.dirname, '../../..');

const stations = demoStationsPerTest();
async function started(env: NodeJS.ProcessEnv = {}): Promise<{ s: Station; sandbox: Sandbox }> {
  const { s, sandbox } = await stations.start({ env });
  return { s, sandbox: sandbox() };
}

/** The demo profile as a provisioning file, for the test to change. */
async function exported(s: Station) {
  const demo = (await call(s, 'station.status', {})).profile!;
  const file = JSON.parse((await call(s, 'profiles.export', { id: demo.id })).json) as {
    profiles: Record<string, unknown>[];
  };
  return { demo, file, profile: file.profiles[0]! };
}

/**
 * The demo profile provisioned again from the command line as "Lumen dock 2", its client secret
 * in the STATION_SECRET_LUMEN variable of `env`, made active with one order (LUM-10421) in it.
 */
async function onEnvSecret(s: Station, sandbox: Sandbox, env: NodeJS.ProcessEnv): Promise<string> {
  const { profile, file } = await exported(s);
  Object.assign(profile, {
    id: 'lumen-env',
    name: 'Lumen dock 2',
    environment: 'sandbox',
    baseUrl: sandbox.url,
    clientSecretEnv: 'STATION_SECRET_LUMEN',
  });
  // clientSecretEnv is taken only from a file given on the command line (--provision).
  await provisionProfiles(s.context.profiles, JSON.stringify(file), {
    source: 'command-line',
    env,
  });
  await call(s, 'profiles.activate', { id: 'lumen-env' });
  const csv = readFileSync(join(root, 'resources/orders/sample-orders.csv'), 'utf8')
    .split('\n')
    .slice(0, 2)
    .join('\n');
  await call(s, 'orders.import', { fileName: 'one.csv', content: `${csv}\n` });
  return (await scanOrder(s, 'LUM-10421')).order.id;
}

describe('provisioning the active profile (site IT)', () => {
  it('takes effect at once: a printer the file adds is the header printer without switching profiles', async () => {
    const { s } = await started();
    const zebra = await startPlainZebra();
    stations.onEnd(zebra.close);
    const { profile, file } = await exported(s);
    profile.printers = [
      ...(profile.printers as unknown[]),
      {
        id: 'zd421-dock',
        name: 'ZD421 dock',
        kind: 'network',
        host: '127.0.0.1',
        port: zebra.port,
      },
    ];
    profile.labelPrinterId = 'zd421-dock';
    await call(s, 'profiles.provision', { json: JSON.stringify(file) });

    const status = await call(s, 'station.status', {});
    expect(status.profile?.printers.map((p) => p.id)).toContain('zd421-dock');
    expect(status.profile?.defaultPrinterId).toBe('zd421-dock');
    await until(
      async () => (await call(s, 'station.status', {})).printer?.printerId === 'zd421-dock',
    );
    expect((await call(s, 'station.status', {})).printer).toMatchObject({
      name: 'ZD421 dock',
      state: 'ready',
    });
  });
});

describe('a profile without its client secret (site IT, packer)', () => {
  it('says "no client secret" and where to set it, instead of queueing the order for the platform', async () => {
    const env: NodeJS.ProcessEnv = {};
    const { s, sandbox } = await started(env);
    const orderId = await onEnvSecret(s, sandbox, env);

    const rated = await s.dispatch('pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
    expect(rated).toMatchObject({ ok: false, error: { code: 'secret-missing' } });
    const message = !rated.ok ? rated.error.message : '';
    expect(message).toContain('No client secret for profile "Lumen dock 2"');
    expect(message).toContain('STATION_SECRET_LUMEN');
    expect(message).toContain('Replace secret');
    expect(message).not.toMatch(/offline|queue|when the platform answers/i);
    // Nothing waits in the offline queue for a platform that will never answer this profile.
    expect((await call(s, 'station.status', {})).queue.shipments).toBe(0);
    expect((await call(s, 'queue.list', {})).shipments).toEqual([]);
  });
});

describe('a queued shipment whose profile lost its secret (shift lead)', () => {
  it('keeps waiting in the queue and says why, instead of failing for good', async () => {
    const env: NodeJS.ProcessEnv = {};
    const { s, sandbox } = await started(env);
    const key = sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    env.STATION_SECRET_LUMEN = key.clientSecret;
    const orderId = await onEnvSecret(s, sandbox, env);
    // The platform is down when the packer presses Ctrl+Enter: the shipment is queued.
    sandbox.faults.add({ method: 'POST', path: '/api/v1/tokens/m2m', kind: 'status', status: 503 });
    const quote = await call(s, 'pack.rate', {
      orderId,
      packages: [{ weightLbs: 1.8 }],
      queue: true,
    });
    expect(quote.queued).toBe(true);

    // The platform is back, but the variable is gone (a restart without it).
    delete env.STATION_SECRET_LUMEN;
    sandbox.faults.clear();
    const [waiting] = (await call(s, 'queue.list', {})).shipments;
    await call(s, 'queue.retry', { kind: 'shipment', id: waiting!.id });
    await until(async () =>
      ((await call(s, 'queue.list', {})).shipments[0]?.lastError ?? '').includes(
        'No client secret',
      ),
    );
    const after = await call(s, 'queue.list', {});
    expect(after.shipments).toHaveLength(1);
    expect(after.shipments[0]!.lastError).toContain('STATION_SECRET_LUMEN');
    expect((await call(s, 'attention.list', {})).map((a) => a.orderNumber)).not.toContain(
      'LUM-10421',
    );
    expect((await call(s, 'station.status', {})).connectivityDetail).toMatch(/No client secret/);
  });
});

describe('the New profile form (site IT)', () => {
  it('loads tenants without a tenant id: the key finds its own tenant', async () => {
    const { s, sandbox } = await started();
    const key = sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const tenants = await call(s, 'profiles.tenants', {
      environment: 'sandbox',
      baseUrl: sandbox.url,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
    });
    expect(tenants.map((t) => t.tenantId)).toContain(key.tenantId);
    const empty = await call(s, 'profiles.tenants', {
      environment: 'sandbox',
      baseUrl: sandbox.url,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
      tenantId: '',
    });
    expect(empty.map((t) => t.tenantId)).toContain(key.tenantId);
  });

  it('Replace secret checks the new secret with the platform: a refused one is not stored', async () => {
    const { s, sandbox } = await started();
    const key = sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const created = await call(s, 'profiles.create', {
      environment: 'sandbox',
      baseUrl: sandbox.url,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
      name: 'Dock 4',
      tenantId: key.tenantId,
      brandTenantIds: [],
      shippingSiteId: 'site_lumen_chicago',
      activate: true,
    });
    const wrong = await s.dispatch('profiles.setSecret', {
      id: created.id,
      clientSecret: 'Wrong-Replaced-Secret-55',
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!wrong.ok && wrong.error.message).toMatch(/did not accept the API key/);
    expect(!wrong.ok && wrong.error.message).toMatch(
      /not stored; the profile keeps the one it had/,
    );
    // The secret it had still buys: a new token (its old one forgotten) is asked with it.
    await sandbox.clock.advance(3700);
    await call(s, 'orders.import', {
      fileName: 'sample-orders.csv',
      content: readFileSync(join(root, 'resources/orders/sample-orders.csv'), 'utf8'),
    });
    const orderId = (await scanOrder(s, 'LUM-10421')).order.id;
    const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
    expect(quote.rates.length).toBeGreaterThan(0);
    // The right one is stored.
    expect(
      await call(s, 'profiles.setSecret', { id: created.id, clientSecret: key.clientSecret }),
    ).toEqual({ stored: true });
  });

  it('maps every failure to a stable code with a sentence for a person', async () => {
    const { s, sandbox } = await started();
    const key = sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const creds = {
      environment: 'sandbox' as const,
      baseUrl: 'http://127.0.0.1:9',
      clientId: key.clientId,
      clientSecret: key.clientSecret,
    };
    const unreachable = await s.dispatch('profiles.tenants', creds);
    expect(unreachable).toMatchObject({ ok: false, error: { code: 'platform-unreachable' } });
    expect(!unreachable.ok && unreachable.error.message).toMatch(/127\.0\.0\.1:9/);

    const create = await s.dispatch('profiles.create', {
      ...creds,
      name: 'Dock 3',
      tenantId: key.tenantId,
      shippingSiteId: 'site_lumen_chicago',
    });
    expect(create).toMatchObject({ ok: false, error: { code: 'platform-unreachable' } });

    const wrongSecret = await s.dispatch('profiles.tenants', {
      ...creds,
      baseUrl: sandbox.url,
      clientSecret: 'not-the-secret',
    });
    expect(wrongSecret).toMatchObject({ ok: false, error: { code: 'auth-failed' } });

    const notJson = await s.dispatch('profiles.provision', { json: '{"format": ' });
    expect(notJson).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!notJson.ok && notJson.error.message).toMatch(/not valid JSON/);
    const wrongFile = await s.dispatch('profiles.provision', {
      json: JSON.stringify({ format: 'shipping-station-profiles', version: 1, profiles: [{}] }),
    });
    expect(wrongFile).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!wrongFile.ok && wrongFile.error.message).toMatch(/profiles\[0\]\.clientId/);
  });
});
