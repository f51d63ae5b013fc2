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
 * The client secret of a profile: the vault first, then the environment variable the profile
 * names. Throws a message for site IT when neither has it.
 */
export async function resolveClientSecret(
  profile: { id: string; name: string; clientSecretEnv?: string | undefined },
  vault: SecretVault,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const stored = await vault.get(clientSecretKey(profile.id));
  if (stored) return stored;
  if (profile.clientSecretEnv) {
    const fromEnv = env[profile.clientSecretEnv];
    if (fromEnv) return fromEnv;
    throw new SecretMissingError(
      `No client secret for profile "${profile.name}": it reads it from the environment variable ${profile.clientSecretEnv}, which is not set for the station. Site IT: set ${profile.clientSecretEnv} and restart the station, or type the secret in Settings → Profiles → Replace secret. Nothing was sent to the platform.`,
    );
  }
  throw new SecretMissingError(
    `No client secret for profile "${profile.name}" (none is stored in ${vault.description ?? 'the secret store'}). Site IT: type it in Settings → Profiles → Replace secret. Nothing was sent to the platform.`,
  );
}
