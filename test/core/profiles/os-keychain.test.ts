import { describe, expect, it } from 'vitest';
import {
  detectOsKeychain,
  type KeyringModule,
} from '../../../src/core/profiles/os-keychain-vault.js';

/**
 * The OS keychain is a true edge of the machine (no Secret Service runs here), so these tests
 * hand detectOsKeychain a stand-in for the @napi-rs/keyring module, shaped like its AsyncEntry:
 * `new AsyncEntry(service, account, options)`, `setPassword`, `getPassword` (null when there is
 * none), `deletePassword`, and errors like the native binding's when no store is reachable.
 */
function fakeKeyring(mode: 'working' | 'no-store') {
  const ring = new Map<string, string>();
  const entries: { service: string; account: string; options: unknown }[] = [];
  const failure = () =>
    Promise.reject(
      new Error(
        'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time',
      ),
    );
  class AsyncEntry {
    constructor(
      private readonly service: string,
      private readonly account: string,
      options?: unknown,
    ) {
      entries.push({ service, account, options });
    }
    private get key() {
      return `${this.service}/${this.account}`;
    }
    setPassword(password: string): Promise<void> {
      if (mode === 'no-store') return failure();
      ring.set(this.key, password);
      return Promise.resolve();
    }
    getPassword(): Promise<string | null> {
      if (mode === 'no-store') return failure();
      return Promise.resolve(ring.get(this.key) ?? null);
    }
    deletePassword(): Promise<boolean> {
      if (mode === 'no-store') return failure();
      return Promise.resolve(ring.delete(this.key));
    }
  }
  const module: KeyringModule = { AsyncEntry };
  return { module, ring, entries };
}

describe('OS keychain vault (@napi-rs/keyring: macOS keychain, Windows credentials, Secret Service)', () => {
  for (const platform of ['linux', 'darwin', 'win32'] as const)
    it(`stores, reads and deletes a secret on ${platform}`, async () => {
      const fake = fakeKeyring('working');
      const found = await detectOsKeychain({ platform, load: async () => fake.module });
      if (!found.vault) throw new Error(found.reason);
      const { vault } = found;
      expect(vault.description).toMatch(
        platform === 'linux'
          ? /Secret Service/
          : platform === 'darwin'
            ? /macOS keychain/
            : /Windows Credential Manager/,
      );
      expect(await vault.has('profile:a:clientSecret')).toBe(false);
      await vault.set('profile:a:clientSecret', 's3cret "quoted" \\ value');
      expect(fake.ring.get('shipping-station/profile:a:clientSecret')).toBe(
        's3cret "quoted" \\ value',
      );
      expect(await vault.get('profile:a:clientSecret')).toBe('s3cret "quoted" \\ value');
      await vault.delete('profile:a:clientSecret');
      expect(await vault.has('profile:a:clientSecret')).toBe(false);
      expect(fake.ring.size).toBe(0);
    });

  it('on Linux uses the Secret Service only, never the kernel keyring that forgets at logout', async () => {
    const fake = fakeKeyring('working');
    await detectOsKeychain({ platform: 'linux', load: async () => fake.module });
    expect(fake.entries.length).toBeGreaterThan(0);
    for (const e of fake.entries) expect(e.options).toEqual({ linux: { store: 'secret-service' } });
  });

  it('says clearly why there is no keychain when the store cannot be reached', async () => {
    const fake = fakeKeyring('no-store');
    const found = await detectOsKeychain({ platform: 'linux', load: async () => fake.module });
    expect(found.vault).toBeNull();
    expect(found.vault === null && found.reason).toMatch(
      /Secret Service is not reachable.*gnome-keyring|KWallet/,
    );
  });

  it('says so when the native keychain module cannot be loaded on this platform', async () => {
    const found = await detectOsKeychain({
      platform: 'freebsd',
      load: async () => {
        throw new Error('Cannot find module @napi-rs/keyring-freebsd-x64');
      },
    });
    expect(found.vault).toBeNull();
    expect(found.vault === null && found.reason).toMatch(/keychain module .* not available/);
  });

  it('a failing store is reported with the keychain named, never with the secret', async () => {
    const working = fakeKeyring('working');
    const found = await detectOsKeychain({ platform: 'darwin', load: async () => working.module });
    if (!found.vault) throw new Error(found.reason);
    working.module.AsyncEntry.prototype.setPassword = () =>
      Promise.reject(new Error('User interaction is not allowed.'));
    const error = await Promise.resolve(found.vault.set('k', 'never-in-a-message')).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/macOS keychain.*User interaction is not allowed/);
    expect(error?.message).not.toContain('never-in-a-message');
  });
});
