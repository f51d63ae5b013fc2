import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { useSandbox } from '../../support/sandbox.js';
import { trackingSync } from '../../../src/core/station/map.js';
import { call, demoStationsPerTest } from './support.js';

const stations = demoStationsPerTest();
const external = useSandbox();

/** The demo profile's file, as another profile on the external sandbox, with no secret. */
async function withoutSecret(s: Station) {
  const demo = (await call(s, 'station.status', {})).profile!;
  const file = JSON.parse((await call(s, 'profiles.export', { id: demo.id })).json) as {
    profiles: Record<string, unknown>[];
  };
  Object.assign(file.profiles[0]!, { id: 'dock-7', name: 'Dock 7', baseUrl: external.url });
  await call(s, 'profiles.provision', { json: JSON.stringify(file) });
}

describe('the header says when a profile has no client secret', () => {
  it('red "no client secret", not a grey "unknown"; the tracking notice does not call packing unaffected', async () => {
    const { s } = await stations.start();
    await withoutSecret(s);
    await call(s, 'profiles.activate', { id: 'dock-7' });
    const status = await call(s, 'station.status', {});
    expect(status.profile?.name).toBe('Dock 7');
    expect(status.connectivity).toBe('no-secret');
    expect(status.connectivityDetail).toMatch(
      /^No client secret for this profile: site IT sets it/,
    );
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
