import { issuesOf, profileSchema, type Profile, type SettingsIssue } from './profile-schema.js';
import type { ProfileStore } from './profile-store.js';
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
    if (parsed.success) profiles.push(parsed.data);
    else issues.push(...issuesOf(parsed.error, `profiles[${i}]`));
  });
  if (issues.length > 0) throw fail(issues);

  if (Array.isArray(roots) && roots.length > 0) store.setHotFolderRoots(roots as string[]);
  const env = options.env ?? process.env;
  const results: ProvisionedProfile[] = [];
  for (const profile of profiles) {
    store.save(profile);
    let secret: ProvisionedProfile['secret'] = 'needs-secret';
    if (profile.clientSecretEnv && env[profile.clientSecretEnv]) secret = 'from-environment';
    else if (await store.hasClientSecret(profile.id)) secret = 'already-set';
    else if (options.typedSecret) {
      const typed = await options.typedSecret(profile);
      if (typed) {
        await store.setClientSecret(profile.id, typed);
        secret = 'typed';
      }
    }
    results.push({ profile, secret });
  }
  return results;
}

function fail(issues: SettingsIssue[]): SettingsError {
  return new SettingsError(
    `The provisioning file is not valid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    { issues },
  );
}
