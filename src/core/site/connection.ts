import pg from 'pg';
import { SITE_PASSWORD_ENV } from './config.js';

/**
 * host, port, user and database from the URL; the password beside it (node-postgres lets a
 * connection string's missing password override the one given).
 */
export function connectionOf(url: string, password: string | undefined): pg.ClientConfig {
  const u = new URL(url);
  // TLS as libpq spells it: require encrypts; verify-full also checks the server's certificate
  // against the system's CAs (or NODE_EXTRA_CA_CERTS) and its name.
  const sslmode = u.searchParams.get('sslmode');
  const ssl =
    sslmode === 'verify-full' || sslmode === 'verify-ca'
      ? { rejectUnauthorized: true }
      : sslmode === 'require'
        ? { rejectUnauthorized: false }
        : undefined;
  return {
    ...(ssl ? { ssl } : {}),
    host: decodeURIComponent(u.hostname),
    port: u.port ? Number(u.port) : 5432,
    user: decodeURIComponent(u.username) || undefined,
    database: decodeURIComponent(u.pathname.slice(1)) || undefined,
    // Only the password the station was given: a string or a function keeps node-postgres from
    // reading PGPASSWORD or ~/.pgpass behind site IT's back. A server that asks for a password
    // when the station has none is told nothing; the connection ends with words for site IT.
    password: password
      ? password
      : () => {
          throw new NoSitePasswordError();
        },
  };
}

/** The server asked for a password and the station was given none (describeSiteError words it). */
export class NoSitePasswordError extends Error {
  constructor() {
    super(`the site store asked for a password and this station has none (${SITE_PASSWORD_ENV})`);
    this.name = 'NoSitePasswordError';
  }
}

/**
 * A client that closes its connection when connecting fails. pg-pool leaves a client whose
 * login failed in the client's own code (no password to send) connected, and the server holds
 * that half-open session until its authentication_timeout (a minute): a station retrying every
 * few seconds would fill the server's connections. The pool's clients are these.
 */
export class ClosingClient extends pg.Client {
  override connect(): Promise<void>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<void> | void {
    const close = () => void this.end().catch(() => {});
    if (!callback)
      return super.connect().catch((error: unknown) => {
        close();
        throw error;
      });
    super.connect((err) => {
      if (err) close();
      callback(err);
    });
  }
}
