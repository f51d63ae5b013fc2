import { describeSiteStore } from './config.js';

/** Why the site store cannot be used, in words for site IT; `kind` drives what the station does. */
export interface SiteProblem {
  kind: 'unreachable' | 'auth' | 'no-database' | 'newer-schema' | 'permission' | 'other';
  message: string;
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
 * node-postgres errors onto sentences. Never includes the password: the URL is shown without it
 * and the server's messages for authentication failures do not carry it.
 */
export function describeSiteError(error: unknown, url: string): SiteProblem {
  if (error instanceof SiteStoreError) return error.problem;
  const where = describeSiteStore(url);
  const e = (error ?? {}) as { code?: string; message?: string };
  switch (e.code) {
    case '28P01':
    case '28000':
      return {
        kind: 'auth',
        message: `The site store at ${where} refused the station's user name or password. Check the password in Settings (or STATION_SECRET_SITE_STORE) with site IT.`,
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
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case '57P01':
    case '57P03':
      return {
        kind: 'unreachable',
        message: `The site store at ${where} does not answer (${e.code === 'ENOTFOUND' ? 'no such host' : e.code === 'ECONNREFUSED' ? 'connection refused' : 'connection lost'}). This station works on its own and catches up when it answers again.`,
      };
    default:
      if (/timeout|terminat|Connection|ECONN/i.test(e.message ?? ''))
        return {
          kind: 'unreachable',
          message: `The site store at ${where} does not answer (${e.message}). This station works on its own and catches up when it answers again.`,
        };
      return {
        kind: 'other',
        message: `The site store at ${where} failed: ${e.message ?? String(error)}`,
      };
  }
}
