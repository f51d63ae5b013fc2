import { createRequire } from 'node:module';
import type { SecretVault } from './secret-vault.js';

/**
 * Client secrets in the OS keychain for hosts without Electron's safeStorage (the web host),
 * through the native @napi-rs/keyring binding: the login keychain on macOS, the Credential
 * Manager on Windows, the Secret Service (gnome-keyring, KWallet) on Linux. No command-line
 * tool is started and the secret never leaves the process except into the keychain. Where no
 * keychain can be reached, detection says why and the host keeps secrets in memory for the
 * run; there is no home-made encryption fallback.
 */

const SERVICE = 'shipping-station';

/** The part of @napi-rs/keyring the vault uses (its AsyncEntry class). */
export interface KeyringEntry {
  setPassword(password: string): Promise<void>;
  getPassword(): Promise<string | null | undefined>;
  deletePassword(): Promise<boolean>;
}
export interface KeyringModule {
  AsyncEntry: new (
    service: string,
    account: string,
    options?: { linux?: { store?: 'secret-service' | 'keyutils' } },
  ) => KeyringEntry;
}

export class KeychainError extends Error {
  readonly code = 'secret-storage-unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'KeychainError';
  }
}

function keychainName(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'the macOS keychain';
    case 'win32':
      return 'the Windows Credential Manager';
    default:
      return 'the Secret Service (gnome-keyring or KWallet)';
  }
}

const firstLine = (error: unknown) =>
  ((error instanceof Error ? error.message : String(error)).trim().split('\n')[0] ?? '').replace(
    /\.+$/,
    '',
  );

export class OsKeychainVault implements SecretVault {
  /** Read once per process: a token request then does not query the keychain each time. */
  private readonly cache = new Map<string, string>();

  constructor(
    private readonly keyring: KeyringModule,
    private readonly platform: NodeJS.Platform,
  ) {}

  /** Where the secrets are, in words for site IT. */
  get description(): string {
    return keychainName(this.platform);
  }

  private entry(key: string): KeyringEntry {
    // On Linux the kernel keyring would be the silent fallback: it forgets everything at
    // logout or reboot, so the Secret Service is required instead.
    return new this.keyring.AsyncEntry(
      SERVICE,
      key,
      this.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined,
    );
  }

  private failed(what: string, error: unknown): KeychainError {
    return new KeychainError(
      `The secret could not be ${what} ${this.description}: ${firstLine(error)}.`,
    );
  }

  async set(key: string, secret: string): Promise<void> {
    try {
      await this.entry(key).setPassword(secret);
    } catch (error) {
      throw this.failed('stored in', error);
    }
    this.cache.set(key, secret);
  }

  async get(key: string): Promise<string | undefined> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    let secret: string | null | undefined;
    try {
      secret = await this.entry(key).getPassword();
    } catch (error) {
      throw this.failed('read from', error);
    }
    if (!secret) return undefined;
    this.cache.set(key, secret);
    return secret;
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    this.cache.delete(key);
    try {
      await this.entry(key).deletePassword();
    } catch (error) {
      throw this.failed('deleted from', error);
    }
  }
}

const loadKeyring = async (): Promise<KeyringModule> =>
  createRequire(import.meta.url)('@napi-rs/keyring') as KeyringModule;

/**
 * The OS keychain of this machine, or why there is none. A probe reads a key that does not
 * exist: a working keychain answers "none" quietly; an unreachable one (no desktop session, no
 * D-Bus, a locked store) answers with an error, and that error is the reason given.
 */
export async function detectOsKeychain(
  options: { platform?: NodeJS.Platform; load?: () => Promise<KeyringModule> } = {},
): Promise<{ vault: OsKeychainVault } | { vault: null; reason: string }> {
  const platform = options.platform ?? process.platform;
  let keyring: KeyringModule;
  try {
    keyring = await (options.load ?? loadKeyring)();
  } catch (error) {
    return {
      vault: null,
      reason: `the native keychain module (@napi-rs/keyring) is not available on ${platform}: ${firstLine(error)}`,
    };
  }
  const vault = new OsKeychainVault(keyring, platform);
  try {
    await vault.get('probe:not-a-real-key');
  } catch (error) {
    const hint =
      platform === 'linux'
        ? ' Start a keyring in the desktop session (gnome-keyring or KWallet), or run the Electron app.'
        : '';
    return {
      vault: null,
      reason: `${keychainName(platform)} is not reachable: ${firstLine(error).replace(/^The secret could not be read from [^:]+: /, '')}.${hint}`,
    };
  }
  return { vault };
}
