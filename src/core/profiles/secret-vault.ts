/**
 * Where client secrets live. The Electron host implements it with safeStorage (the OS
 * keychain). Node has no keychain here, so the Node implementations never write a secret
 * anywhere: it is held in memory for the life of the process, or read from an environment
 * variable named by the profile. There is deliberately no home-made encryption fallback.
 */
export interface SecretVault {
  /** Where the secrets are kept, in words for site IT ("the macOS keychain (security)"). */
  readonly description?: string;
  set(key: string, secret: string): void | Promise<void>;
  get(key: string): string | undefined | Promise<string | undefined>;
  has(key: string): boolean | Promise<boolean>;
  delete(key: string): void | Promise<void>;
}

export class MemorySecretVault implements SecretVault {
  readonly description = 'held in memory for this run only';
  private readonly secrets = new Map<string, string>();
  set(key: string, secret: string): void {
    this.secrets.set(key, secret);
  }
  get(key: string): string | undefined {
    return this.secrets.get(key);
  }
  has(key: string): boolean {
    return this.secrets.has(key);
  }
  delete(key: string): void {
    this.secrets.delete(key);
  }
}

/** The only environment variables a profile may read its client secret from. */
export const SECRET_ENV_PREFIX = 'STATION_SECRET_';

/**
 * Why a secret cannot be stored, or null. Control characters (a pasted line break, an escape
 * sequence) are never part of a real API secret and would corrupt a keychain entry or a header.
 */
export function secretProblem(secret: string): string | null {
  if (!secret) return 'The client secret is empty.';
  if (secret.length > 500) return 'The client secret is longer than 500 characters.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(secret))
    return 'The client secret contains a control character (a line break, tab or escape); copy it again without them.';
  return null;
}

export function clientSecretKey(profileId: string): string {
  return `profile:${profileId}:clientSecret`;
}

export class SecretMissingError extends Error {
  readonly code = 'secret-missing';
  constructor(message: string) {
    super(message);
    this.name = 'SecretMissingError';
  }
}

/**
 * The secret from the STATION_SECRET_* variable the profile names; throws when there is none.
 * The one way to a profile's secret is ProfileStore.clientSecret (the vault's, bound to the
 * profile's address, then this).
 */
export function secretFromEnvironment(
  profile: { name: string; clientSecretEnv?: string | undefined },
  env: NodeJS.ProcessEnv = process.env,
  store?: { description?: string | undefined },
): string {
  if (profile.clientSecretEnv) {
    if (!profile.clientSecretEnv.startsWith(SECRET_ENV_PREFIX))
      throw new SecretMissingError(
        `Profile "${profile.name}" names the environment variable ${profile.clientSecretEnv}; only ${SECRET_ENV_PREFIX}… variables are read.`,
      );
    // A value set with a stray space or line break (echo "…" > a service's env file): the
    // secret is what is between them.
    const fromEnv = env[profile.clientSecretEnv]?.trim();
    const problem = fromEnv ? secretProblem(fromEnv) : null;
    if (fromEnv && !problem) return fromEnv;
    if (fromEnv && problem)
      throw new SecretMissingError(
        `The client secret of profile "${profile.name}" in the environment variable ${profile.clientSecretEnv} cannot be used: ${problem.replace(/^The client secret /, 'it ')} Site IT: set ${profile.clientSecretEnv} again and restart the station. Nothing was sent to the platform.`,
      );
    throw new SecretMissingError(
      `No client secret for profile "${profile.name}": it reads it from the environment variable ${profile.clientSecretEnv}, which is not set for the station. Site IT: set ${profile.clientSecretEnv} and restart the station, or type the secret in Settings → Profiles → Replace secret. Nothing was sent to the platform.`,
    );
  }
  throw new SecretMissingError(
    `No client secret for profile "${profile.name}" (none is stored${store?.description ? `; secrets here are ${store.description}` : ''}). Site IT: type it in Settings → Profiles → Replace secret. Nothing was sent to the platform.`,
  );
}
