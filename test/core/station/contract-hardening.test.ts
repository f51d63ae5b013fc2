import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation } from './support.js';
import type { Station, StationOptions } from '../../../src/core/station/index.js';

const shipFrom = {
  company: 'Reno DC',
  addressLine1: '1 Dock Rd',
  city: 'Reno',
  stateProvince: 'NV',
  postalCode: '89501',
  countryCode: 'US',
};
const provisioning = (profile: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 'shipping-station-profiles',
    version: 1,
    ...extra,
    profiles: [
      {
        id: 'reno-3',
        name: 'Reno 3',
        environment: 'sandbox',
        baseUrl: 'https://platform.example',
        clientId: 'reno',
        tenantId: 'tnt_reno',
        shipFrom,
        ...profile,
      },
    ],
  });

async function withStation(extra: Partial<StationOptions>, work: (s: Station) => Promise<void>) {
  const { station } = demoStation(tempDir(), extra);
  await station.start();
  try {
    await work(station);
  } finally {
    await station.stop();
  }
}

describe('the contract (the renderer) cannot reach host secrets or other addresses', () => {
  it('2. a provisioning file from the page may not name an environment variable', async () => {
    await withStation({ env: { STATION_SECRET_RENO: 'host-secret' } }, async (s) => {
      const r = await s.dispatch('profiles.provision', {
        json: provisioning({ clientSecretEnv: 'STATION_SECRET_RENO' }),
      });
      expect(r).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/clientSecretEnv.*command line/) },
      });
      const profiles = await call(s, 'profiles.list', {});
      expect(profiles.map((p) => p.id)).not.toContain('reno-3');
    });
  });

  it('2. the command line may, with a STATION_SECRET_ variable only', async () => {
    const dir = tempDir();
    const file = join(dir, 'p.json');
    writeFileSync(file, provisioning({ clientSecretEnv: 'HOME' }));
    const { station } = demoStation(join(dir, 'data'), { provisionFile: file });
    await expect(station.start()).rejects.toThrow(/clientSecretEnv.*STATION_SECRET_/);
    // A refused start holds nothing: no lock left for the next start to take over.
    expect(existsSync(join(dir, 'data', 'station.lock'))).toBe(false);
    await station.stop();
  });

  it('9. hotFolderRoots come from the command line, never from the page', async () => {
    await withStation({}, async (s) => {
      const r = await s.dispatch('profiles.provision', {
        json: provisioning({}, { hotFolderRoots: ['/'] }),
      });
      expect(r).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/hotFolderRoots.*command line/) },
      });
    });
    const dir = tempDir();
    const root = join(dir, 'inbox');
    mkdirSync(root);
    const file = join(dir, 'p.json');
    writeFileSync(file, provisioning({}, { hotFolderRoots: [root] }));
    const { station } = demoStation(join(dir, 'data'), { provisionFile: file });
    await station.start();
    try {
      const view = await call(station, 'profiles.update', {
        id: 'reno-3',
        hotFolder: join(root, 'reno'),
      });
      expect(view.hotFolder).toBe(join(root, 'reno'));
    } finally {
      await station.stop();
    }
  });

  it('3. the secret typed in the form is never sent to a non-https address', async () => {
    await withStation({}, async (s) => {
      for (const baseUrl of [
        'file:///etc/passwd',
        'http://platform.example',
        'javascript:alert(1)',
      ]) {
        const r = await s.dispatch('profiles.tenants', {
          environment: 'production',
          baseUrl,
          clientId: 'x',
          clientSecret: 'typed-secret',
        });
        expect(r, baseUrl).toMatchObject({
          ok: false,
          error: { code: 'validation', message: expect.stringMatching(/https/) },
        });
        expect(JSON.stringify(r)).not.toContain('typed-secret');
      }
    });
  });

  it('4. a secret with control characters is refused through the contract', async () => {
    await withStation({}, async (s) => {
      const created = await s.dispatch('profiles.create', {
        environment: 'sandbox',
        baseUrl: 'https://platform.example',
        clientId: 'reno',
        clientSecret: 'abc\u001bdef',
        name: 'Reno 3',
        tenantId: 'tnt_reno',
        shippingSiteId: 'site_reno',
      });
      expect(created).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/control character/) },
      });
      expect((await call(s, 'profiles.list', {})).map((p) => p.name)).not.toContain('Reno 3');
      const r = await s.dispatch('profiles.setSecret', { id: 'demo', clientSecret: 'abc\r\ndef' });
      expect(r).toMatchObject({
        ok: false,
        error: { code: 'validation', message: expect.stringMatching(/control character/) },
      });
    });
  });
  it('a scan far too long for anything says so in words for the packer, not the schema', async () => {
    await withStation({}, async (s) => {
      const r = await s.dispatch('pack.scan', { value: 'X'.repeat(300) });
      expect(r).toMatchObject({
        ok: false,
        error: {
          code: 'validation',
          message:
            'That scan is 300 characters long: too long for an order number, a tracking number or a box. Scan the label again.',
        },
      });
    });
  });
});
