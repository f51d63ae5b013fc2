import type { SecretVault } from '../core/profiles/secret-vault.js';
import type { SettingsStore } from '../core/profiles/settings-store.js';

/** The part of Electron's safeStorage the vault uses (tests pass a stand-in of this shape). */
export interface SafeStorageApi {
  isEncryptionAvailable(): boolean;
  getSelectedStorageBackend(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Where the main process remembers that the person at the station accepted basic_text. */
export const ACCEPTED_BASIC_TEXT = 'secretStorageAcceptedBasicText';

/**
 * Client secrets encrypted with the OS keychain (safeStorage), stored as base64 in the
 * settings store. On Linux, the `basic_text` backend means "no keychain": the key is a
 * constant, so it is only used once the person at the station said yes in a dialog the main
 * process shows itself (`confirmBasicText`); no contract call, and so no page, can say yes for
 * them (Signal's getSQLKey asks the same way). There is no home-made fallback.
 */
export class SafeStorageVault implements SecretVault {
  readonly description = 'encrypted with the OS keychain (safeStorage)';
  constructor(
    private readonly settings: SettingsStore,
    private readonly safeStorage: SafeStorageApi,
    /** Shows the main process's own dialog; true when the person accepted weaker storage. */
    private readonly confirmBasicText: () => Promise<boolean>,
  ) {}

  private basicText(): boolean {
    return (
      process.platform === 'linux' && this.safeStorage.getSelectedStorageBackend() === 'basic_text'
    );
  }

  private accepted(): boolean {
    return this.settings.get(ACCEPTED_BASIC_TEXT) === true;
  }

  private all(): Record<string, string> {
    return (this.settings.get('secrets') as Record<string, string> | undefined) ?? {};
  }

  async set(key: string, secret: string): Promise<void> {
    if (!this.safeStorage.isEncryptionAvailable())
      throw unavailable('The OS keychain is not available, so secrets cannot be stored safely.');
    if (this.basicText() && !this.accepted()) {
      if (!(await this.confirmBasicText()))
        throw unavailable(
          'No keychain (gnome-keyring or KWallet) is running, and storing secrets without one was declined. Start a keychain and try again.',
        );
      this.settings.set(ACCEPTED_BASIC_TEXT, true);
    }
    this.settings.set('secrets', {
      ...this.all(),
      [key]: this.safeStorage.encryptString(secret).toString('base64'),
    });
  }

  get(key: string): string | undefined {
    const stored = this.all()[key];
    return stored ? this.safeStorage.decryptString(Buffer.from(stored, 'base64')) : undefined;
  }

  has(key: string): boolean {
    return key in this.all();
  }

  delete(key: string): void {
    const { [key]: _gone, ...rest } = this.all();
    this.settings.set('secrets', rest);
  }
}

function unavailable(message: string): Error {
  return Object.assign(new Error(message), { code: 'secret-storage-unavailable' });
}
