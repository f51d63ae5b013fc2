import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { useSandbox } from '../../support/sandbox.js';
import { trackingSync } from '../../../src/core/station/map.js';
import { call, demoStationsPerTest, until } from './support.js';

const stations = demoStationsPerTest();
const external = useSandbox();

/** The demo profile's file, as another profile on the external sandbox, with no secret. */
async function withoutSecret(s: Station, over: Record<string, unknown> = {}) {
  const demo = (await call(s, 'station.status', {})).profile!;
  const file = JSON.parse((await call(s, 'profiles.export', { id: demo.id })).json) as {
    profiles: Record<string, unknown>[];
  };
  Object.assign(file.profiles[0]!, {
    id: 'dock-7',
    name: 'Dock 7',
    baseUrl: external.url,
    ...over,
  });
  await call(s, 'profiles.provision', { json: JSON.stringify(file) });
}

describe('the header says when a profile has no client secret', () => {
  it('red "no client secret", not a grey "unknown"; the tracking notice does not call packing unaffected', async () => {
    const { s } = await stations.start();
    // The demo profile's site and tenant names, read from the platform while it runs.
    await until(async () => (await call(s, 'station.status', {})).profile?.siteName);
    await withoutSecret(s);
    await call(s, 'profiles.activate', { id: 'dock-7' });
    const status = await call(s, 'station.status', {});
    expect(status.profile?.name).toBe('Dock 7');
    expect(status.connectivity).toBe('no-secret');
    expect(status.connectivityDetail).toMatch(
      /^No client secret for this profile: site IT sets it/,
    );
    // Settings lists the profiles by name, the one not running named as the platform named it.
    const list = await call(s, 'profiles.list', {});
    expect(list.map((p) => p.name)).toEqual(['Demo station (embedded sandbox)', 'Dock 7']);
    expect(list[0]).toMatchObject({
      active: false,
      tenantName: 'Lumen Candle Works',
      siteName: 'Lumen Chicago Workshop',
    });
  });

  it('a secret typed in Settings clears "tracking delayed … no client secret" at once, not at the next poll', async () => {
    const { s } = await stations.start();
    await withoutSecret(s, { environment: 'sandbox' });
    await call(s, 'profiles.activate', { id: 'dock-7' });
    // The tracker poll found no secret: the header says tracking is delayed for want of one.
    await s.context
      .runtime()
      .poller.pollNow()
      .catch(() => {});
    const delayed = await until(async () => (await call(s, 'station.status', {})).trackingDelayed);
    expect(delayed).toMatch(/No client secret/);
    await call(s, 'profiles.setSecret', { id: 'dock-7', clientSecret: 'demo-lumen-full-secret' });
    // The tracker list is asked again now (its interval is 15 s): the notice is gone well before.
    const cleared = Date.now();
    await until(async () => (await call(s, 'station.status', {})).trackingDelayed === null);
    expect(Date.now() - cleared).toBeLessThan(5_000);
  });

  it('the tracking notice does not call packing unaffected when the key is what is wrong', () => {
    const rt = (lastError: string, refused: unknown = null) => ({
      trackers: {
        syncState: () => ({ consecutiveFailures: 2, lastError, lastSuccessAt: null }) as never,
      },
      trackingScope: {} as never,
      client: {
        connectivity: { capability: () => ({ state: 'online' }) },
        tokens: { refused },
      },
    });
    expect(trackingSync(rt('The tracker list did not answer (ETIMEDOUT)')).message).toBe(
      'Tracking delayed (no update yet): The tracker list did not answer (ETIMEDOUT). Packing and labels are not affected; statuses catch up when it answers.',
    );
    expect(trackingSync(rt('No client secret for profile "Dock 7" (none is stored)')).message).toBe(
      'Tracking delayed (no update yet): No client secret for profile "Dock 7" (none is stored).',
    );
    expect(
      trackingSync(rt('The platform refused the API key', { message: 'x' })).message,
    ).not.toMatch(/not affected/);
  });
});

describe('a profile taken off the station (site IT)', () => {
  it('removes one that is not in use, with its secret; refuses the one in use; its labels stay', async () => {
    const { s } = await stations.start();
    const demo = (await call(s, 'station.status', {})).profile!;
    await withoutSecret(s);
    const inUse = await s.dispatch('profiles.remove', { id: demo.id });
    expect(inUse).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!inUse.ok && inUse.error.message).toBe(
      `"${demo.name}" is the profile this station is using: switch to another profile first, then remove it.`,
    );
    expect(await call(s, 'profiles.remove', { id: 'dock-7' })).toEqual({ removed: 'Dock 7' });
    expect((await call(s, 'profiles.list', {})).map((p) => p.id)).toEqual([demo.id]);
    expect(await s.dispatch('profiles.remove', { id: 'dock-7' })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
  });

  it('a secret given later checks the site a file left unchecked, and says what is wrong', async () => {
    const { s } = await stations.start();
    // Taken without a secret: the platform could not be asked about the site.
    await withoutSecret(s, { shippingSiteId: 'site_lumen_chicgo' });
    const key = external.sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const stored = await call(s, 'profiles.setSecret', {
      id: 'dock-7',
      clientSecret: key.clientSecret,
    });
    expect(stored.stored).toBe(true);
    expect(stored.warning).toMatch(
      /^The secret was stored, but the profile's shippingSiteId is not one of tenant tnt_lumen's shipping sites on the platform at http:\/\/127\.0\.0\.1:\d+: it has site_lumen_chicago \(Lumen Chicago Workshop\)\.$/,
    );
    expect((await call(s, 'profiles.list', {})).find((p) => p.id === 'dock-7')?.hasSecret).toBe(
      true,
    );
  });

  it('a base URL with https:// for a server that speaks http says so, and a typo in a URL is said in words', async () => {
    const { s } = await stations.start();
    const key = external.sandbox.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
    const creds = {
      environment: 'sandbox' as const,
      clientId: key.clientId,
      clientSecret: key.clientSecret,
    };
    const https = await s.dispatch('profiles.tenants', {
      ...creds,
      baseUrl: external.url.replace('http://', 'https://'),
    });
    expect(!https.ok && https.error.message).toMatch(
      /: the server does not answer HTTPS there; if it is a sandbox or test server on this computer, its address starts with http:\/\//,
    );
    const typo = await s.dispatch('profiles.tenants', {
      ...creds,
      baseUrl: 'api.platform.example',
    });
    expect(!typo.ok && typo.error.message).toBe(
      'baseUrl: must be a whole address such as https://api.platform.example (starting with https:// or http://)',
    );
  });
});
