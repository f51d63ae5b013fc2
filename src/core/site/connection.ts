import type pg from 'pg';

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
    // Without a password the server's own refusal says what is wrong, not a client error.
    password: password ?? '',
  };
}
