import { issuesOf, profileSchema, type Profile, type SettingsIssue } from './profile-schema.js';
import { apiPathProblem } from './base-url.js';
import type { ProfileStore } from './profile-store.js';
import { keepSettingsChanges } from './provision-merge.js';
import { SettingsError } from './settings-store.js';
import { parseJsonText } from '../storage/json-text.js';
import { isAbsolute } from 'node:path';

export const PROVISIONING_FORMAT = 'shipping-station-profiles';

/**
 * The file site IT uses to set up many stations the same way. It never holds a secret: each
 * profile either names an environment variable (`clientSecretEnv`) or the secret is typed at
 * the station after import.
 */
export interface ProvisioningFile {
  format: typeof PROVISIONING_FORMAT;
  version: 1;
  profiles: unknown[];
}

export function exportProfiles(profiles: readonly Profile[]): ProvisioningFile {
  return {
    format: PROVISIONING_FORMAT,
    version: 1,
    // Profiles hold no secret by construction; the vault is not read.
    profiles: profiles.map((p) => ({ ...p })),
  };
}

export interface ProvisionedProfile {
  profile: Profile;
  /** Where the secret comes from, or 'needs-secret' when it must still be typed. */
  secret: 'from-environment' | 'typed' | 'already-set' | 'needs-secret';
  /** What was changed in Settings since the file last set it, kept (in words): see keepSettingsChanges. */
  keptFromSettings?: string[];
}

const secretLike = /secret|password|token/i;

/**
 * Validates a provisioning file and stores its profiles. Nothing is stored when any profile is
 * invalid; every problem is reported with its path. `typedSecret` may ask the person at the
 * station for a secret the file does not supply.
 */
export async function provisionProfiles(
  store: ProfileStore,
  text: string,
  options: {
    /**
     * Who hands the file over. `command-line` (`--provision`, site IT at the machine) may name
     * STATION_SECRET_* environment variables; `station` (Settings → Provision from file, i.e.
     * the renderer, which is untrusted) may not: a page must never pick a host variable and a
     * URL to send it to.
     */
    source: 'command-line' | 'station';
    /** Why a profile's hotFolder is refused (the data directory; for a page, outside the roots). */
    hotFolderProblem?: (folder: string) => string | null;
    env?: NodeJS.ProcessEnv;
    typedSecret?: (profile: Profile) => Promise<string | undefined>;
    /**
     * The platform's word on a profile, asked for every profile once the file is valid and
     * before anything is saved: what it refuses, by field (its shippingSiteId not one of the
     * tenant's, its clientId a read-only key), each with a sentence that follows the field's
     * name; nothing when all is well or the platform could not be asked. `secret` is the one
     * the profile will use, when there is one to ask with.
     */
    checkPlatform?: (
      profile: Profile,
      secret: string | undefined,
    ) => Promise<{ field: string; message: string }[]>;
  },
): Promise<ProvisionedProfile[]> {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw fail([{ path: '(file)', message: `not valid JSON: ${parsed.message}` }]);
  const file = parsed.value as Partial<ProvisioningFile> | null;
  if (!file || typeof file !== 'object' || file.format !== PROVISIONING_FORMAT)
    throw fail([{ path: 'format', message: `must be "${PROVISIONING_FORMAT}"` }]);
  if (file.version !== 1) throw fail([{ path: 'version', message: 'must be 1' }]);
  if (!Array.isArray(file.profiles) || file.profiles.length === 0)
    throw fail([{ path: 'profiles', message: 'must list at least one profile' }]);

  const issues: SettingsIssue[] = [];
  const profiles: Profile[] = [];
  // Folders under which a page may later set a hot folder: site IT's decision, so only from
  // the command line.
  const roots = (file as { hotFolderRoots?: unknown }).hotFolderRoots;
  if (roots !== undefined) {
    if (options.source !== 'command-line')
      issues.push({
        path: 'hotFolderRoots',
        message: 'is only accepted when provisioning from the command line (--provision)',
      });
    else if (!Array.isArray(roots) || !roots.every((r) => typeof r === 'string' && isAbsolute(r)))
      issues.push({ path: 'hotFolderRoots', message: 'must be a list of full folder paths' });
  }
  file.profiles.forEach((entry, i) => {
    if (entry && typeof entry === 'object')
      for (const key of Object.keys(entry))
        if (secretLike.test(key) && key !== 'clientSecretEnv')
          issues.push({
            path: `profiles[${i}].${key}`,
            message: 'secrets do not belong in a provisioning file; use clientSecretEnv',
          });
    if (
      options.source === 'station' &&
      entry &&
      typeof entry === 'object' &&
      'clientSecretEnv' in entry
    )
      issues.push({
        path: `profiles[${i}].clientSecretEnv`,
        message:
          'is only accepted when provisioning from the command line (npm run web -- --provision FILE, or the app with --provision); remove it and type the secret at the station',
      });
    const parsed = profileSchema.safeParse(entry);
    const hotFolderProblem =
      parsed.success && parsed.data.hotFolder
        ? options.hotFolderProblem?.(parsed.data.hotFolder)
        : null;
    if (hotFolderProblem)
      issues.push({ path: `profiles[${i}].hotFolder`, message: hotFolderProblem });
    const apiPath = parsed.success ? apiPathProblem(parsed.data.baseUrl) : null;
    if (apiPath) issues.push({ path: `profiles[${i}].baseUrl`, message: apiPath });
    if (parsed.success) profiles.push(parsed.data);
    else issues.push(...issuesOf(parsed.error, `profiles[${i}]`));
  });
  if (issues.length > 0) throw fail(issues);

  // Each profile's secret, worked out once: the platform is asked with it before anything is
  // saved, and the typed one is stored with its profile after.
  const env = options.env ?? process.env;
  const secrets: { kind: ProvisionedProfile['secret']; value?: string | undefined }[] = [];
  for (const profile of profiles) {
    const fromEnv = profile.clientSecretEnv ? env[profile.clientSecretEnv]?.trim() : undefined;
    const stored = fromEnv ? undefined : await store.boundClientSecret(profile);
    if (fromEnv) secrets.push({ kind: 'from-environment', value: fromEnv });
    else if (stored) secrets.push({ kind: 'already-set', value: stored });
    else {
      const typed = await options.typedSecret?.(profile);
      secrets.push(typed ? { kind: 'typed', value: typed } : { kind: 'needs-secret' });
    }
  }
  if (options.checkPlatform) {
    // Only what is new: a file given again at each start (--provision in a service) asks the
    // platform nothing for a profile whose site, tenant, key and platform are already stored.
    const problems = await Promise.all(
      profiles.map((profile, i) =>
        sameSite(store.get(profile.id), profile)
          ? []
          : options.checkPlatform!(profile, secrets[i]!.value),
      ),
    );
    problems.forEach((found, i) => {
      for (const p of found) issues.push({ path: `profiles[${i}].${p.field}`, message: p.message });
    });
    if (issues.length > 0) throw fail(issues);
  }

  if (Array.isArray(roots) && roots.length > 0) store.setHotFolderRoots(roots as string[]);
  const results: ProvisionedProfile[] = [];
  profiles.forEach((profile, i) => {
    // Given at every start (a service): what a shift lead changed in Settings since stands
    // while the file says what it said before (a printer moved to this station stays).
    const merged =
      options.source === 'command-line'
        ? keepSettingsChanges(profile, store.get(profile.id), store.provisionedAs(profile.id))
        : { profile, kept: [] };
    store.save(merged.profile);
    if (options.source === 'command-line') store.setProvisionedAs(profile);
    results.push({
      profile: merged.profile,
      secret: secrets[i]!.kind,
      ...(merged.kept.length ? { keptFromSettings: merged.kept } : {}),
    });
  });
  for (const [i, profile] of profiles.entries())
    if (secrets[i]!.kind === 'typed') await store.setClientSecret(profile.id, secrets[i]!.value!);
  return results;
}

function fail(issues: SettingsIssue[]): SettingsError {
  return new SettingsError(
    `The provisioning file is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    { issues },
  );
}

/** The same shipping site on the same platform and tenant as the profile already stored. */
function sameSite(stored: Profile | undefined, profile: Profile): boolean {
  return (
    stored !== undefined &&
    stored.shippingSiteId === profile.shippingSiteId &&
    stored.tenantId === profile.tenantId &&
    stored.environment === profile.environment &&
    stored.baseUrl === profile.baseUrl &&
    stored.clientId === profile.clientId &&
    JSON.stringify(stored.shipFrom) === JSON.stringify(profile.shipFrom)
  );
}
