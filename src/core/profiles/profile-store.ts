import { issuesOf, profileSchema, type Profile, type ProfileInput } from './profile-schema.js';
import { apiPathProblem } from './base-url.js';
import {
  clientSecretKey,
  secretFromEnvironment,
  secretProblem,
  type SecretVault,
} from './secret-vault.js';
import { SettingsError, type SettingsStore } from './settings-store.js';

const PROFILES = 'profiles';
const ACTIVE = 'activeProfileId';
const BINDINGS = 'secretBindings';
const HOT_FOLDER_ROOTS = 'hotFolderRoots';
const PROVISIONED = 'provisionedProfiles';

/**
 * What a stored client secret was given for. The secret is only ever sent to the platform it
 * was typed for: when the profile's environment, base URL or client id changes (an edit, a
 * provisioning file reusing the id, a settings file edited by hand), the secret is dropped and
 * the profile says it needs one again.
 */
interface SecretBinding {
  environment: string;
  baseUrl: string | null;
  clientId: string;
}
const bindingOf = (p: Profile): SecretBinding => ({
  environment: p.environment,
  baseUrl: p.baseUrl ?? null,
  clientId: p.clientId,
});
const sameBinding = (a: SecretBinding | undefined, b: SecretBinding) =>
  !!a && a.environment === b.environment && a.baseUrl === b.baseUrl && a.clientId === b.clientId;

/**
 * Site profiles kept in the settings store; their client secrets only in the vault. A stored
 * profile that no longer validates is reported with its path and reason (never dropped).
 */
export class ProfileStore {
  constructor(
    private readonly settings: SettingsStore,
    private readonly vault: SecretVault,
  ) {}

  /** All profiles; throws SettingsError naming every invalid field. */
  list(): Profile[] {
    const raw = this.settings.get(PROFILES) ?? [];
    if (!Array.isArray(raw))
      throw new SettingsError('The stored profiles are not a list; they were left untouched.', {
        issues: [{ path: PROFILES, message: 'expected an array' }],
      });
    const issues: { path: string; message: string }[] = [];
    const profiles: Profile[] = [];
    raw.forEach((entry, i) => {
      const parsed = profileSchema.safeParse(entry);
      if (parsed.success) profiles.push(parsed.data);
      else issues.push(...issuesOf(parsed.error, `${PROFILES}[${i}]`));
    });
    if (issues.length > 0)
      throw new SettingsError(
        `Some stored profiles are invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}. They were left untouched.`,
        { issues },
      );
    return profiles;
  }

  get(id: string): Profile | undefined {
    return this.list().find((p) => p.id === id);
  }

  /** The profile as a provisioning file on the command line last gave it (see keepSettingsChanges). */
  provisionedAs(id: string): Profile | undefined {
    const raw = this.settings.get(PROVISIONED) as Record<string, unknown> | undefined;
    const parsed = raw && typeof raw === 'object' ? profileSchema.safeParse(raw[id]) : null;
    return parsed?.success ? parsed.data : undefined;
  }

  setProvisionedAs(profile: Profile): void {
    const raw = this.settings.get(PROVISIONED);
    const all = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    this.settings.set(PROVISIONED, { ...all, [profile.id]: profile });
  }

  /** Validates and stores (creates or replaces) a profile; returns it with defaults filled. */
  save(input: ProfileInput): Profile {
    const parsed = profileSchema.safeParse(input);
    const apiPath = parsed.success ? apiPathProblem(parsed.data.baseUrl) : null;
    if (apiPath) {
      throw new SettingsError(`The profile is not valid: baseUrl ${apiPath}`, {
        issues: [{ path: 'baseUrl', message: apiPath }],
      });
    }
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      throw new SettingsError(
        `The profile is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
        { issues },
      );
    }
    this.adoptUnboundSecrets();
    const all = this.list();
    const previous = all.find((p) => p.id === parsed.data.id);
    const profiles = all.filter((p) => p.id !== parsed.data.id);
    if (previous && !sameBinding(bindingOf(previous), bindingOf(parsed.data)))
      this.dropSecret(parsed.data.id);
    this.settings.set(PROFILES, [...profiles, parsed.data]);
    return parsed.data;
  }

  private bindings(): Record<string, SecretBinding> {
    const raw = this.settings.get(BINDINGS);
    return raw && typeof raw === 'object' ? (raw as Record<string, SecretBinding>) : {};
  }

  /**
   * Stations set up before secrets were bound: each secret already stored is bound, once, to
   * its profile as it is now. From then on a profile without a binding has no secret.
   */
  private adoptUnboundSecrets(): void {
    if (this.settings.get(BINDINGS) !== undefined) return;
    let profiles: Profile[] = [];
    try {
      profiles = this.list();
    } catch {
      return; // an invalid settings file is reported by list() where it is used
    }
    this.settings.set(BINDINGS, Object.fromEntries(profiles.map((p) => [p.id, bindingOf(p)])));
  }

  /** The binding goes first (that alone makes the secret unusable), then the vault entry. */
  private dropSecret(id: string): void {
    const { [id]: _gone, ...rest } = this.bindings();
    this.settings.set(BINDINGS, rest);
    void Promise.resolve()
      .then(() => this.vault.delete(clientSecretKey(id)))
      .catch(() => {});
  }

  private bound(profile: Profile): boolean {
    this.adoptUnboundSecrets();
    return sameBinding(this.bindings()[profile.id], bindingOf(profile));
  }

  /**
   * The secret to request a token with: the vault's when it was given for this very profile
   * (environment, base URL, client id), else the STATION_SECRET_* variable the profile names.
   */
  async clientSecret(profile: Profile, env: NodeJS.ProcessEnv = process.env): Promise<string> {
    if (this.bound(profile)) {
      const stored = await this.vault.get(clientSecretKey(profile.id));
      if (stored) return stored;
    }
    return secretFromEnvironment(profile, env, this.vault);
  }

  /**
   * Takes a profile off the station: its settings and its client secret go. Its labels, orders
   * and history stay in the station's database, found again if a profile with that id returns.
   */
  async remove(id: string): Promise<void> {
    this.settings.set(
      PROFILES,
      this.list().filter((p) => p.id !== id),
    );
    if (this.settings.get(ACTIVE) === id) this.settings.delete(ACTIVE);
    const { [id]: _gone, ...rest } = this.bindings();
    this.settings.set(BINDINGS, rest);
    await this.vault.delete(clientSecretKey(id));
  }

  active(): Profile | undefined {
    const id = this.settings.get(ACTIVE);
    return typeof id === 'string' ? this.get(id) : undefined;
  }

  setActive(id: string): void {
    if (!this.get(id)) throw new Error(`No profile ${id}.`);
    this.settings.set(ACTIVE, id);
  }

  /** Hot-folder roots site IT gave in a provisioning file (command line only). */
  hotFolderRoots(): string[] {
    const raw = this.settings.get(HOT_FOLDER_ROOTS);
    return Array.isArray(raw) ? raw.filter((r): r is string => typeof r === 'string') : [];
  }

  setHotFolderRoots(roots: readonly string[]): void {
    this.settings.set(HOT_FOLDER_ROOTS, [...new Set([...this.hotFolderRoots(), ...roots])]);
  }

  async setClientSecret(id: string, secret: string): Promise<void> {
    const problem = secretProblem(secret);
    if (problem) throw Object.assign(new Error(problem), { code: 'validation' });
    const profile = this.get(id);
    if (!profile) throw Object.assign(new Error(`No profile ${id}.`), { code: 'not-found' });
    this.adoptUnboundSecrets();
    await this.vault.set(clientSecretKey(id), secret);
    this.settings.set(BINDINGS, { ...this.bindings(), [id]: bindingOf(profile) });
  }

  /** What the UI may know about a secret: whether one is configured, never its value. */
  /**
   * The vault's secret for `profile` as it is given (not necessarily saved yet): only when it
   * was stored for this very environment, base URL and client id; undefined otherwise.
   */
  async boundClientSecret(profile: Profile): Promise<string | undefined> {
    if (!this.bound(profile)) return undefined;
    return (await this.vault.get(clientSecretKey(profile.id))) ?? undefined;
  }

  async hasClientSecret(id: string): Promise<boolean> {
    const profile = this.get(id);
    if (!profile || !this.bound(profile)) return false;
    return await this.vault.has(clientSecretKey(id));
  }
}
