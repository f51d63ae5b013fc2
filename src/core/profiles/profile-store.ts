import { issuesOf, profileSchema, type Profile, type ProfileInput } from './profile-schema.js';
import { clientSecretKey, type SecretVault } from './secret-vault.js';
import { SettingsError, type SettingsStore } from './settings-store.js';

const PROFILES = 'profiles';
const ACTIVE = 'activeProfileId';

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

  /** Validates and stores (creates or replaces) a profile; returns it with defaults filled. */
  save(input: ProfileInput): Profile {
    const parsed = profileSchema.safeParse(input);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      throw new SettingsError(
        `The profile is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
        { issues },
      );
    }
    const profiles = this.list().filter((p) => p.id !== parsed.data.id);
    this.settings.set(PROFILES, [...profiles, parsed.data]);
    return parsed.data;
  }

  async remove(id: string): Promise<void> {
    this.settings.set(
      PROFILES,
      this.list().filter((p) => p.id !== id),
    );
    if (this.settings.get(ACTIVE) === id) this.settings.delete(ACTIVE);
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

  async setClientSecret(id: string, secret: string): Promise<void> {
    if (!secret) throw new Error('The client secret is empty.');
    await this.vault.set(clientSecretKey(id), secret);
  }

  /** What the UI may know about a secret: whether one is configured, never its value. */
  async hasClientSecret(id: string): Promise<boolean> {
    return await this.vault.has(clientSecretKey(id));
  }
}
