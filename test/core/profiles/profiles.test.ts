import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { slipPrinterOf, type ProfileInput } from '../../../src/core/profiles/profile-schema.js';
import { ProfileStore } from '../../../src/core/profiles/profile-store.js';
import { exportProfiles, provisionProfiles } from '../../../src/core/profiles/provisioning.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore, SettingsError } from '../../../src/core/profiles/settings-store.js';
import { tempDir } from '../../support/tmp.js';

const lumen: ProfileInput = {
  id: 'lumen-chicago',
  name: 'Lumen Chicago packing 1',
  environment: 'sandbox',
  baseUrl: 'https://sandbox.example.com',
  clientId: 'demo-lumen-full',
  tenantId: 'tnt_lumen',
  shippingSiteId: 'site_lumen_chicago',
  shipFrom: {
    company: 'Lumen Candle Works',
    addressLine1: '1200 W Fulton Market',
    city: 'Chicago',
    stateProvince: 'IL',
    postalCode: '60607',
    countryCode: 'US',
  },
  rateRule: { strategy: 'cheapest', excludedCarriers: ['DHL'], preferredServiceLevels: [] },
  printers: [{ id: 'zd421-1', name: 'ZD421 left', kind: 'network', host: '10.1.4.20' }],
  clientSecretEnv: 'STATION_SECRET_LUMEN',
};

function stores() {
  const file = join(tempDir(), 'settings', 'station.json');
  const vault = new MemorySecretVault();
  return { file, vault, store: new ProfileStore(new ConfSettingsStore(file), vault) };
}

describe('site profiles', () => {
  it('stores profiles in the settings file and the secret only in the vault', async () => {
    const { file, vault, store } = stores();
    store.save(lumen);
    await store.setClientSecret('lumen-chicago', 's3cret-value');
    store.setActive('lumen-chicago');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('s3cret-value');
    const reopened = new ProfileStore(new ConfSettingsStore(file), vault);
    expect(reopened.active()).toMatchObject({ id: 'lumen-chicago', tenantId: 'tnt_lumen' });
    expect(await reopened.hasClientSecret('lumen-chicago')).toBe(true);
    expect(await reopened.clientSecret(reopened.active()!, {})).toBe('s3cret-value');
  });

  it('refuses an invalid profile and says which field and why', () => {
    const { store } = stores();
    let error: unknown;
    try {
      store.save({
        ...lumen,
        baseUrl: 'not a url',
        labelPrinterId: 'nope',
        shipFrom: { ...lumen.shipFrom, countryCode: 'USA' },
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    const paths = (error as SettingsError).details.issues.map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['baseUrl', 'shipFrom.countryCode']));
    expect(store.list()).toEqual([]);
  });

  it('prints packing slips only with a receipt printer to send them to', () => {
    const { store } = stores();
    expect(() => store.save({ ...lumen, packingSlips: {} })).toThrow(SettingsError);
    const refused = (() => {
      try {
        store.save({ ...lumen, packingSlips: { printerId: 'zd421-1x' } });
        return undefined;
      } catch (e) {
        return e as SettingsError;
      }
    })();
    expect(refused?.details.issues).toContainEqual({
      path: 'packingSlips.printerId',
      message: 'names printer zd421-1x, which is not in printers',
    });
    const saved = store.save({
      ...lumen,
      printers: [
        ...lumen.printers!,
        { id: 'tm-m30', name: 'Receipt', kind: 'network', role: 'slip', host: '10.1.4.30' },
      ],
      packingSlips: { width: 32 },
    });
    expect(saved.packingSlips).toEqual({ type: 'epson', width: 32 });
    expect(slipPrinterOf(saved)).toBe('tm-m30');
    expect(slipPrinterOf({ ...saved, packingSlips: undefined })).toBeUndefined();
  });

  it('reports a settings file that is not JSON and never writes over it', () => {
    const { file, vault } = stores();
    const store = new ProfileStore(new ConfSettingsStore(file), vault);
    store.save(lumen);
    writeFileSync(file, '{ "profiles": [ broken');
    expect(() => new ConfSettingsStore(file)).toThrow(/not valid JSON.*left untouched/);
    expect(readFileSync(file, 'utf8')).toBe('{ "profiles": [ broken');
  });

  it('reports a stored profile that no longer validates, with its path, instead of dropping it', () => {
    const { file, vault } = stores();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ profiles: [{ ...lumen, environment: 'staging' }] }));
    const store = new ProfileStore(new ConfSettingsStore(file), vault);
    expect(() => store.list()).toThrow(/profiles\[0\]\.environment/);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles).toHaveLength(1);
  });

  it('reads the secret from the environment variable the profile names, and says when it is missing', async () => {
    const { store } = stores();
    const profile = store.save({ ...lumen, clientSecretEnv: 'STATION_SECRET_RENO' });
    expect(await store.clientSecret(profile, { STATION_SECRET_RENO: 'from-env' })).toBe('from-env');
    await expect(store.clientSecret(profile, {})).rejects.toThrow(
      /environment variable STATION_SECRET_RENO, which is not set/,
    );
  });
});

describe('provisioning file', () => {
  it('exports without secrets and provisions another station the same way', async () => {
    const first = stores();
    first.store.save(lumen);
    await first.store.setClientSecret('lumen-chicago', 'never-exported');
    const file = JSON.stringify(exportProfiles(first.store.list()), null, 2);
    expect(file).not.toContain('never-exported');

    const second = stores();
    const results = await provisionProfiles(second.store, file, {
      source: 'command-line',
      env: { STATION_SECRET_LUMEN: 'x' },
    });
    expect(results.map((r) => [r.profile.id, r.secret])).toEqual([
      ['lumen-chicago', 'from-environment'],
    ]);
    expect(second.store.get('lumen-chicago')).toEqual(first.store.get('lumen-chicago'));

    const third = stores();
    const typed = await provisionProfiles(third.store, file, {
      source: 'command-line',
      env: {},
      typedSecret: async () => 'typed-at-station',
    });
    expect(typed[0]!.secret).toBe('typed');
    expect(await third.vault.get('profile:lumen-chicago:clientSecret')).toBe('typed-at-station');
  });

  it('rejects a file carrying a secret or an invalid profile, storing nothing', async () => {
    const { store } = stores();
    const withSecret = JSON.stringify({
      format: 'shipping-station-profiles',
      version: 1,
      profiles: [
        { ...lumen, clientSecret: 'oops' },
        { ...lumen, id: 'Bad Id' },
      ],
    });
    await expect(provisionProfiles(store, withSecret, { source: 'station' })).rejects.toThrow(
      /profiles\[0\]\.clientSecret secrets do not belong.*profiles\[1\]\.id/,
    );
    expect(store.list()).toEqual([]);
    await expect(
      provisionProfiles(store, '{"format":"other"}', { source: 'station' }),
    ).rejects.toThrow(/format must be/);
  });

  it('a broken file with a secret pasted in says where it is broken, never what it says there', async () => {
    const { store, file } = stores();
    const secret = 'sk_live_9f8e7d6c5b4a';
    // Unquoted, so the JSON breaks right at the secret; V8 itself would quote the text around it.
    const broken = `{
  "format": "shipping-station-profiles",
  "version": 1,
  "profiles": [{ "id": "lumen-chicago", "clientSecret": ${secret} }]
}`;
    const error = await provisionProfiles(store, broken, { source: 'station' }).then(
      () => undefined,
      (e: unknown) => e as SettingsError,
    );
    expect(error).toBeInstanceOf(SettingsError);
    expect(error!.message).toMatch(/not valid JSON: Unexpected text .* at line 4, column 57/);
    for (const leaked of [secret, secret.slice(0, 6), secret.slice(-6)]) {
      expect(error!.message).not.toContain(leaked);
      expect(JSON.stringify(error!.details)).not.toContain(leaked);
    }
    expect(store.list()).toEqual([]);
    // The same for a settings file someone edited by hand.
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `{ "profiles": [], "note": ${secret} }`);
    const settings = (() => {
      try {
        new ConfSettingsStore(file);
        return undefined;
      } catch (e) {
        return e as SettingsError;
      }
    })();
    expect(settings?.message).toMatch(/not valid JSON \(Unexpected text .* at line 1, column 27\)/);
    expect(settings?.message).not.toContain(secret.slice(0, 6));
  });
});
