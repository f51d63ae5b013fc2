import { describeSiteStore, SITE_IT_PASSWORD_ENV, SITE_PASSWORD_ENV } from './config.js';
import { NoSitePasswordError } from './connection.js';

/** Why the site store cannot be used, in words for site IT; `kind` drives what the station does. */
export interface SiteProblem {
  kind:
    | 'unreachable'
    | 'auth'
    | 'no-database'
    | 'newer-schema'
    | 'permission'
    /** Another running station checks in under this station's id (a copied file or disk). */
    | 'duplicate-station'
    /**
     * It answers, but cancelled the statement at its time limit (a lock held by maintenance or
     * a long migration, a store under load): not an outage, so the offline rule does not apply.
     */
    | 'busy'
    | 'other';
  message: string;
  /**
   * What happened alone, when `message` goes on to say what this station does about it (an
   * unreachable store: "works on its own"): for a message that says what happens instead.
   */
  fact?: string;
}

const ON_ITS_OWN = 'This station works on its own and catches up when it answers again.';

/** The store does not answer: the fact, and what the station does meanwhile. */
function unreachable(fact: string): SiteProblem {
  return { kind: 'unreachable', fact, message: `${fact} ${ON_ITS_OWN}` };
}

export class SiteStoreError extends Error {
  constructor(
    readonly problem: SiteProblem,
    options?: { cause?: unknown },
  ) {
    super(problem.message, options);
    this.name = 'SiteStoreError';
  }
}

/**
 * A store that does not answer and has never answered this station at its address (a mistyped
 * host or port, or a station not set up yet): not an outage the site's offline rule is for, but
 * a station set up wrong, which buys nothing, as one whose login is refused.
 */
export function neverAnsweredWords(url: string, problem: SiteProblem): string {
  const where = describeSiteStore(url);
  const fact = problem.fact ?? problem.message;
  const prefix = `The site store at ${where} `;
  // "… does not answer (connection refused)." said once, after the address to check.
  const why = fact.startsWith(prefix) ? fact.slice(prefix.length).replace(/\.$/, '') : null;
  const check = `The site store at ${where} has never answered this station: check its address in Settings → Site store (host, port and database) with site IT`;
  return why ? `${check} (it ${why}).` : `${check}. ${fact}`;
}

/**
 * node-postgres errors onto sentences. Never includes the password: the URL is shown without it
 * and the server's messages for authentication failures do not carry it.
 */
export function describeSiteError(error: unknown, url: string): SiteProblem {
  if (error instanceof SiteStoreError) return error.problem;
  const where = describeSiteStore(url);
  if (error instanceof NoSitePasswordError)
    return {
      kind: 'auth',
      message: `The site store at ${where} asks for a password and this station has none. Enter the station role's password in Settings → Site store (or set ${SITE_PASSWORD_ENV}); site IT has it.`,
    };
  const e = (error ?? {}) as { code?: string; message?: string };
  switch (e.code) {
    case '28P01':
    case '28000':
      return {
        kind: 'auth',
        message: `The site store at ${where} refused the station's user name or password. Check the password in Settings (or ${SITE_PASSWORD_ENV}) with site IT.`,
      };
    case '3D000':
      return {
        kind: 'no-database',
        message: `The site store at ${where} has no such database. Site IT creates it once (see docs/site.md).`,
      };
    case '42501':
      return {
        kind: 'permission',
        message: `The site store at ${where} does not allow this station's role to do that (${e.message ?? 'permission denied'}). Site IT grants the station role (resources/site/station-role.sql).`,
      };
    case '57014':
      // The server itself cancelled it (statement_timeout): it is there, and busy.
      return {
        kind: 'busy',
        fact: `The site store at ${where} answers, but did not finish in time (${e.message ?? 'statement timeout'}): it is busy (a lock held by maintenance or an upgrade, or too much load).`,
        message: `The site store at ${where} answers, but did not finish in time (${e.message ?? 'statement timeout'}): it is busy (a lock held by maintenance or an upgrade, or too much load). Site IT checks what holds it.`,
      };
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case '57P01':
    case '57P03':
      return unreachable(
        `The site store at ${where} does not answer (${e.code === 'ENOTFOUND' ? 'no such host' : e.code === 'ECONNREFUSED' ? 'connection refused' : 'connection lost'}).`,
      );
    default:
      // No password at all (node-postgres stops before the server can refuse one): a login
      // problem, said as one, not as the client's SCRAM internals.
      if (/^SASL: .*client password must be a (non-empty )?string/.test(e.message ?? ''))
        return {
          kind: 'auth',
          message: `The site store at ${where} refused the station's user name or password. Check the password in Settings (or ${SITE_PASSWORD_ENV}) with site IT.`,
        };
      if (/timeout|terminat|Connection|ECONN/i.test(e.message ?? ''))
        return unreachable(`The site store at ${where} does not answer (${e.message}).`);
      return {
        kind: 'other',
        message: `The site store at ${where} failed: ${e.message ?? String(error)}`,
      };
  }
}

/** Where the command line's password came from (never the password itself). */
export interface PasswordSource {
  /** The variable it was read from, or null when none was set. */
  variable: string | null;
}

/**
 * The same failures as describeSiteError, in site IT's words for the command line (`npm run
 * site`): what was tried (host, port, database, user) and what to check on the server, not what
 * a station does meanwhile. Never the password: only where it came from.
 */
export function describeSiteErrorForSiteIt(
  error: unknown,
  url: string,
  password: PasswordSource,
): string {
  const problem = describeSiteError(error, url);
  const cause = (error instanceof SiteStoreError ? error.cause : error) as
    { code?: string; message?: string } | undefined;
  let target: { host: string; port: string; database: string; user: string };
  try {
    const u = new URL(url);
    target = {
      host: decodeURIComponent(u.hostname),
      port: u.port || '5432',
      database: decodeURIComponent(u.pathname.slice(1)),
      user: decodeURIComponent(u.username) || '(no user in the address)',
    };
  } catch {
    return problem.message;
  }
  const { host, port, database, user } = target;
  const tried = `tried host ${host}, port ${port}, database ${database}, user ${user}`;
  const passwordWhere = password.variable
    ? `the password in ${password.variable}`
    : `the password: none was given (set ${SITE_IT_PASSWORD_ENV}, or ${SITE_PASSWORD_ENV} when ${SITE_IT_PASSWORD_ENV} is not set)`;
  switch (problem.kind) {
    case 'unreachable': {
      const why =
        cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN'
          ? 'no such host'
          : cause?.code === 'ECONNREFUSED'
            ? 'connection refused'
            : cause?.code === 'ETIMEDOUT' || /timeout/i.test(cause?.message ?? '')
              ? 'no answer in time'
              : 'connection lost';
      return `The site store does not answer: ${tried} (${why}). Check that the host name is right, that PostgreSQL is running on ${host} and listens on port ${port} (listen_addresses and port in postgresql.conf), and that no firewall between this computer and ${host} blocks the port.`;
    }
    case 'auth': {
      // node-postgres's words when it had no password to send are its SCRAM internals.
      const said =
        cause instanceof NoSitePasswordError || /^SASL: /.test(cause?.message ?? '')
          ? 'no password to send'
          : cause?.message;
      return `The site store refused the login: ${tried}${said ? ` (${said})` : ''}. Check ${passwordWhere}, and pg_hba.conf on ${host}: it needs a line that lets user ${user} reach database ${database} from this computer (scram-sha-256), and the server reloaded after a change.`;
    }
    case 'no-database':
      return `The site store has no database ${database}: ${tried}. Create it once (createdb ${database}, owned by the site's owner role), then run npm run site -- migrate.`;
    case 'permission':
      return `User ${user} may not do that on database ${database} (${cause?.message ?? 'permission denied'}). Site settings, users and migrations are site IT's: run this command as the site's owner role (the one that ran migrate), not the stations' role, which may only read them.`;
    default:
      return problem.message;
  }
}
