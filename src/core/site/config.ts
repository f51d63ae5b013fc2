import type { SecretVault } from '../profiles/secret-vault.js';

/**
 * Where this station finds its site store: a station setting (and provisioning field). The
 * password is never part of it: it comes from the OS keychain (vault key `site-store:password`)
 * or from the environment variable STATION_SECRET_SITE_STORE, never from a file.
 */
export interface SiteStoreConfig {
  /** postgres://station@db.site.local:5432/shipping_site (no password in it). */
  url: string;
  /** Stable and unique within the site: "chi-04". Keys every row this station writes. */
  stationId: string;
  /** What the floor calls it: "Station 4". */
  stationName: string;
}

export const SITE_PASSWORD_KEY = 'site-store:password';
export const SITE_PASSWORD_ENV = 'STATION_SECRET_SITE_STORE';

export class SiteConfigError extends Error {
  readonly code = 'validation';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'SiteConfigError';
  }
}

const STATION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** Names a password or other secret (a key of the setting, a parameter of the address). */
const SECRET_WORD = /pass|secret|token/i;

/** Where a station's password goes, for the messages that refuse one in the wrong place. */
const STATION_PASSWORD_HOME = `the keychain (Settings) or in ${SITE_PASSWORD_ENV}`;

/**
 * Checks a site store setting; every problem is said for site IT, naming the field.
 * `passwordHome` is where the caller reads the password from, for the messages that refuse one
 * in the wrong place (`npm run site` reads PGPASSWORD, not a keychain).
 */
export function parseSiteStoreConfig(
  value: unknown,
  passwordHome: string = STATION_PASSWORD_HOME,
): SiteStoreConfig {
  if (!value || typeof value !== 'object')
    throw new SiteConfigError(
      'siteStore must be an object with url, stationId and stationName.',
      'siteStore',
    );
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (SECRET_WORD.test(key))
      throw new SiteConfigError(
        `siteStore.${key} is not allowed: the site store password never goes in settings or a file; put it in ${passwordHome}.`,
        `siteStore.${key}`,
      );
  const url = typeof v.url === 'string' ? v.url.trim() : '';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Said back without a password typed in it ("host=db password=…", a libpq string).
    const shown = SECRET_WORD.test(url) ? '' : ` "${url}"`;
    throw new SiteConfigError(
      `siteStore.url${shown} is not a database address; expected postgres://user@host:5432/database.`,
      'siteStore.url',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new SiteConfigError(
      `siteStore.url must start with postgres:// (it starts with ${parsed.protocol}//).`,
      'siteStore.url',
    );
  // In the user part or as a parameter (`?password=…`, which PostgreSQL's driver uses too).
  if (parsed.password || [...parsed.searchParams.keys()].some((k) => SECRET_WORD.test(k)))
    throw new SiteConfigError(
      `siteStore.url contains a password; remove it and put the password in ${passwordHome}.`,
      'siteStore.url',
    );
  if (!parsed.hostname || parsed.pathname.length < 2)
    throw new SiteConfigError(
      `siteStore.url must name a host and a database: postgres://user@host:5432/database.`,
      'siteStore.url',
    );
  const stationId = typeof v.stationId === 'string' ? v.stationId.trim() : '';
  if (!STATION_ID.test(stationId))
    throw new SiteConfigError(
      'siteStore.stationId must be 1 to 63 letters, digits, dots, dashes or underscores, unique within the site ("chi-04").',
      'siteStore.stationId',
    );
  const stationName = typeof v.stationName === 'string' ? v.stationName.trim() : '';
  if (stationName.length < 1 || stationName.length > 100)
    throw new SiteConfigError(
      'siteStore.stationName must be the name the floor uses for this station ("Station 4").',
      'siteStore.stationName',
    );
  return { url, stationId, stationName };
}

/** The password: the keychain first, then STATION_SECRET_SITE_STORE; undefined when neither. */
export async function siteStorePassword(
  vault: SecretVault,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  return (await vault.get(SITE_PASSWORD_KEY)) ?? (env[SITE_PASSWORD_ENV] || undefined);
}

/** The variable `npm run site` takes the password from first: PostgreSQL's own, as psql's. */
export const SITE_IT_PASSWORD_ENV = 'PGPASSWORD';

/**
 * The password of `npm run site` (site IT's command line) and the variable it came from:
 * PGPASSWORD, as psql and pg_dump read it, else STATION_SECRET_SITE_STORE (set on a station's
 * computer). A variable set to nothing counts as not set, as a station's does. Never from the
 * command line or the address.
 */
export function siteItPassword(env: NodeJS.ProcessEnv = process.env): {
  password: string | undefined;
  variable: string | null;
} {
  for (const variable of [SITE_IT_PASSWORD_ENV, SITE_PASSWORD_ENV])
    if (env[variable]) return { password: env[variable], variable };
  return { password: undefined, variable: null };
}

/** The URL for display: user, host, port and database, never a password. */
export function describeSiteStore(url: string): string {
  try {
    const u = new URL(url);
    return `${u.username ? `${decodeURIComponent(u.username)}@` : ''}${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return '(not a valid address)';
  }
}
