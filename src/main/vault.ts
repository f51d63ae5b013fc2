import { safeStorage } from 'electron';
import type { SecretVault } from '../core/profiles/secret-vault.js';
import type { SettingsStore } from '../core/profiles/settings-store.js';

/**
 * Client secrets encrypted with the OS keychain (safeStorage), stored as base64 in the
 * settings store. On Linux, the `basic_text` backend means "no keychain": the key is a
 * constant, so we refuse it unless the user explicitly accepted (Signal's getSQLKey does the
 * same). There is no home-made fallback.
 */
export class SafeStorageVault implements SecretVault {
  readonly description = 'encrypted with the OS keychain (safeStorage)';
  constructor(
    private readonly settings: SettingsStore,
    private readonly acceptedBasicText: () => boolean,
  ) {}

  availability(): { available: boolean; reason: string | null } {
    if (!safeStorage.isEncryptionAvailable())
      return {
        available: false,
        reason: 'The OS keychain is not available, so secrets cannot be stored safely.',
      };
    if (
      process.platform === 'linux' &&
      safeStorage.getSelectedStorageBackend() === 'basic_text' &&
      !this.acceptedBasicText()
    )
      return {
        available: false,
        reason:
          'No keychain (gnome-keyring or kwallet) is running: secrets would be stored with a fixed key. Start a keychain, or accept the weaker storage in Settings.',
      };
    return { available: true, reason: null };
  }

  private all(): Record<string, string> {
    return (this.settings.get('secrets') as Record<string, string> | undefined) ?? {};
  }

  set(key: string, secret: string): void {
    const a = this.availability();
    if (!a.available)
      throw Object.assign(new Error(a.reason!), { code: 'secret-storage-unavailable' });
    this.settings.set('secrets', {
      ...this.all(),
      [key]: safeStorage.encryptString(secret).toString('base64'),
    });
  }

  get(key: string): string | undefined {
    const stored = this.all()[key];
    return stored ? safeStorage.decryptString(Buffer.from(stored, 'base64')) : undefined;
  }

  has(key: string): boolean {
    return key in this.all();
  }

  delete(key: string): void {
    const { [key]: _gone, ...rest } = this.all();
    this.settings.set('secrets', rest);
  }
}
