import { describe, expect, it } from 'vitest';
import { SafeStorageVault, type SafeStorageApi } from '../../src/main/vault.js';
import { MemorySettingsStore } from '../../src/core/profiles/settings-store.js';
import { tempDir } from '../support/tmp.js';
import { call, demoStation } from '../core/station/support.js';

/** Electron's safeStorage is the OS keychain edge: a stand-in shaped like its API. */
function fakeSafeStorage(backend: 'basic_text' | 'gnome_libsecret'): SafeStorageApi {
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend,
    encryptString: (text) => Buffer.from(`enc:${text}`),
    decryptString: (data) => data.toString().replace(/^enc:/, ''),
  };
}

describe('5. storing secrets without a keychain is accepted only in a dialog of the main process', () => {
  it('asks the person at the station; "no" stores nothing', async () => {
    const settings = new MemorySettingsStore();
    let asked = 0;
    const vault = new SafeStorageVault(settings, fakeSafeStorage('basic_text'), async () => {
      asked++;
      return false;
    });
    await expect(Promise.resolve(vault.set('k', 'secret'))).rejects.toMatchObject({
      code: 'secret-storage-unavailable',
    });
    expect(asked).toBe(1);
    expect(vault.has('k')).toBe(false);
  });

  it('"yes" stores the secret and is remembered', async () => {
    const settings = new MemorySettingsStore();
    let asked = 0;
    const vault = new SafeStorageVault(settings, fakeSafeStorage('basic_text'), async () => {
      asked++;
      return true;
    });
    await vault.set('a', 'one');
    await vault.set('b', 'two');
    expect(asked).toBe(1);
    expect(vault.get('b')).toBe('two');
  });

  it('a station setting written through the contract does not count as consent', async () => {
    const settings = new MemorySettingsStore();
    settings.set('station', { acceptBasicTextSecrets: true });
    let asked = 0;
    const vault = new SafeStorageVault(settings, fakeSafeStorage('basic_text'), async () => {
      asked++;
      return false;
    });
    await expect(Promise.resolve(vault.set('k', 'secret'))).rejects.toThrow();
    expect(asked).toBe(1);
  });

  it('with a real keychain nothing is asked', async () => {
    let asked = 0;
    const vault = new SafeStorageVault(
      new MemorySettingsStore(),
      fakeSafeStorage('gnome_libsecret'),
      async () => {
        asked++;
        return false;
      },
    );
    await vault.set('k', 'secret');
    expect(asked).toBe(0);
    expect(vault.get('k')).toBe('secret');
  });

  it('the contract cannot turn the weaker storage on', async () => {
    const { station } = demoStation(tempDir());
    try {
      await station.start();
      await station.dispatch('settings.update', { acceptBasicTextSecrets: true });
      const settings = await call(station, 'settings.get', {});
      expect(settings.acceptBasicTextSecrets).toBe(false);
    } finally {
      await station.stop();
    }
  });
});
