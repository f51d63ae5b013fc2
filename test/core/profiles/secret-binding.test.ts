import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProfileInput } from '../../../src/core/profiles/profile-schema.js';
import { ProfileStore } from '../../../src/core/profiles/profile-store.js';
import { provisionProfiles } from '../../../src/core/profiles/provisioning.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore, SettingsError } from '../../../src/core/profiles/settings-store.js';
import { tempDir } from '../../support/tmp.js';

const base: ProfileInput = {
  id: 'reno-3',
  name: 'Reno station 3',
  environment: 'production',
  baseUrl: 'https://api.platform.example',
  clientId: 'reno-packing',
  tenantId: 'tnt_reno',
  shipFrom: {
    company: 'Reno DC',
    addressLine1: '1 Dock Rd',
    city: 'Reno',
    stateProvince: 'NV',
    postalCode: '89501',
    countryCode: 'US',
  },
};

function stores() {
  const file = join(tempDir(), 'settings.json');
  const vault = new MemorySecretVault();
  return { file, vault, store: new ProfileStore(new ConfSettingsStore(file), vault) };
}

const file = (profile: Record<string, unknown>) =>
  JSON.stringify({ format: 'shipping-station-profiles', version: 1, profiles: [profile] });

describe('1. a stored secret is bound to (environment, baseUrl, clientId)', () => {
  it('provisioning the same id with another baseUrl drops the secret and says it is needed', async () => {
    const { store, vault } = stores();
    store.save(base);
    await store.setClientSecret('reno-3', 'the-real-secret');
    const [result] = await provisionProfiles(
      store,
      file({ ...base, baseUrl: 'https://attacker.example' }),
      { source: 'station' },
    );
    expect(result!.secret).toBe('needs-secret');
    expect(await store.hasClientSecret('reno-3')).toBe(false);
    await expect(store.clientSecret(store.get('reno-3')!)).rejects.toThrow(/no client secret/i);
    expect(await vault.get('profile:reno-3:clientSecret')).toBeUndefined();
  });

  for (const [field, changed] of [
    ['environment', { environment: 'sandbox' }],
    ['clientId', { clientId: 'someone-else' }],
    ['baseUrl', { baseUrl: 'https://api.platform.example/v2' }],
  ] as const)
    it(`saving the profile with another ${field} drops the secret`, async () => {
      const { store } = stores();
      store.save(base);
      await store.setClientSecret('reno-3', 'the-real-secret');
      store.save({ ...base, ...changed });
      expect(await store.hasClientSecret('reno-3')).toBe(false);
    });

  it('keeps the secret when only other fields change', async () => {
    const { store } = stores();
    store.save(base);
    await store.setClientSecret('reno-3', 'the-real-secret');
    store.save({ ...base, name: 'Reno station 3 (left)' });
    expect(await store.hasClientSecret('reno-3')).toBe(true);
    expect(await store.clientSecret(store.get('reno-3')!)).toBe('the-real-secret');
  });

  it('a settings file edited by hand to point elsewhere does not take the secret with it', async () => {
    const { store, file: settingsFile, vault } = stores();
    store.save(base);
    await store.setClientSecret('reno-3', 'the-real-secret');
    const raw = JSON.parse(readFileSync(settingsFile, 'utf8'));
    raw.profiles[0].baseUrl = 'https://attacker.example';
    writeFileSync(settingsFile, JSON.stringify(raw));
    const reopened = new ProfileStore(new ConfSettingsStore(settingsFile), vault);
    expect(await reopened.hasClientSecret('reno-3')).toBe(false);
    await expect(reopened.clientSecret(reopened.get('reno-3')!)).rejects.toThrow(
      /no client secret/i,
    );
  });
});

describe('2. clientSecretEnv names only STATION_SECRET_* variables, from the command line only', () => {
  it('refuses a variable outside the prefix', () => {
    const { store } = stores();
    expect(() => store.save({ ...base, clientSecretEnv: 'AWS_SECRET_ACCESS_KEY' })).toThrow(
      /clientSecretEnv.*STATION_SECRET_/,
    );
    expect(() => store.save({ ...base, clientSecretEnv: 'HOME' })).toThrow(SettingsError);
  });

  it('accepts STATION_SECRET_* when provisioned from the command line', async () => {
    const { store } = stores();
    const [result] = await provisionProfiles(
      store,
      file({ ...base, clientSecretEnv: 'STATION_SECRET_RENO' }),
      { source: 'command-line', env: { STATION_SECRET_RENO: 'from-env' } },
    );
    expect(result!.secret).toBe('from-environment');
    expect(
      await store.clientSecret(store.get('reno-3')!, { STATION_SECRET_RENO: 'from-env' }),
    ).toBe('from-env');
  });

  it('refuses clientSecretEnv in a file provisioned through the station (the renderer)', async () => {
    const { store } = stores();
    await expect(
      provisionProfiles(store, file({ ...base, clientSecretEnv: 'STATION_SECRET_RENO' }), {
        source: 'station',
        env: { STATION_SECRET_RENO: 'from-env' },
      }),
    ).rejects.toThrow(/clientSecretEnv.*--provision/);
    expect(store.list()).toEqual([]);
  });

  it('never reads a variable outside the prefix even from a stored profile', async () => {
    const { store } = stores();
    await expect(
      store.clientSecret({ ...(store.save(base) as object), clientSecretEnv: 'HOME' } as never, {
        HOME: '/root',
      }),
    ).rejects.toThrow(/no client secret|STATION_SECRET_/);
  });
});

describe('3. baseUrl schemes', () => {
  const refused = [
    ['production', 'http://api.platform.example'],
    ['sandbox', 'http://10.0.0.5:8080'],
    ['production', 'file:///etc/passwd'],
    ['sandbox', 'javascript:alert(1)'],
    ['production', 'ftp://api.platform.example'],
    ['production', 'https://user:pw@api.platform.example'],
  ] as const;
  for (const [environment, baseUrl] of refused)
    it(`refuses ${baseUrl} for ${environment}`, () => {
      const { store } = stores();
      let error: SettingsError | undefined;
      try {
        store.save({ ...base, environment, baseUrl });
      } catch (e) {
        error = e as SettingsError;
      }
      expect(error).toBeInstanceOf(SettingsError);
      expect(error!.details.issues.map((i) => i.path)).toContain('baseUrl');
      expect(error!.message).toMatch(/https|user name/);
    });

  it('refuses a base URL pasted with the API path, naming the address to use', () => {
    const { store } = stores();
    let error: SettingsError | undefined;
    try {
      store.save({ ...base, baseUrl: 'https://api.platform.example/api/v1/' });
    } catch (e) {
      error = e as SettingsError;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect(error!.message).toContain(
      "must be the platform's address without /api/v1 (https://api.platform.example): the station adds the API's path itself",
    );
    // One stored so by an earlier version is still read: the station starts, and says its
    // problem where the profile is saved again.
    const settings = new ConfSettingsStore(join(tempDir(), 'settings.json'));
    settings.set('profiles', [{ ...base, baseUrl: 'https://api.platform.example/api/v1' }]);
    const earlier = new ProfileStore(settings, new MemorySecretVault());
    expect(earlier.list().map((p) => p.baseUrl)).toEqual(['https://api.platform.example/api/v1']);
  });

  for (const baseUrl of [
    'https://api.platform.example',
    'http://127.0.0.1:4010',
    'http://localhost:4010',
    'http://[::1]:4010',
  ])
    it(`accepts ${baseUrl}`, () => {
      const { store } = stores();
      expect(store.save({ ...base, environment: 'sandbox', baseUrl }).baseUrl).toBe(baseUrl);
    });
});

describe('4. secrets with control characters are refused', () => {
  for (const bad of ['abc\ndef', 'abc\u0000', 'tab\there', 'esc\u001b[2J', 'c1\u0085'])
    it(`refuses ${JSON.stringify(bad)}`, async () => {
      const { store, vault } = stores();
      store.save(base);
      await expect(store.setClientSecret('reno-3', bad)).rejects.toThrow(/control character/);
      expect(await vault.has('profile:reno-3:clientSecret')).toBe(false);
    });
});

describe('a secret pasted or exported with a space or line break around it', () => {
  it('is used without them from a STATION_SECRET_ variable; a line break inside is said, not "not set"', async () => {
    const { store } = stores();
    const profile = store.save({ ...base, clientSecretEnv: 'STATION_SECRET_RENO' });
    expect(await store.clientSecret(profile, { STATION_SECRET_RENO: 'Reno-Secret-9\n' })).toBe(
      'Reno-Secret-9',
    );
    expect(await store.clientSecret(profile, { STATION_SECRET_RENO: '  Reno-Secret-9\r\n' })).toBe(
      'Reno-Secret-9',
    );
    const inside = await store
      .clientSecret(profile, { STATION_SECRET_RENO: 'Reno-\nSecret-9' })
      .then(
        () => null,
        (e: Error) => e.message,
      );
    expect(inside).toBe(
      'The client secret of profile "Reno station 3" in the environment variable STATION_SECRET_RENO cannot be used: it contains a control character (a line break, tab or escape); copy it again without them. Site IT: set STATION_SECRET_RENO again and restart the station. Nothing was sent to the platform.',
    );
    expect(inside).not.toContain('Secret-9');
    const unset = await store.clientSecret(profile, {}).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(unset).toMatch(/which is not set for the station/);
  });
});
