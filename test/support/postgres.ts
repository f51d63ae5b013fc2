// A throwaway PostgreSQL cluster for the site-store tests: initdb + pg_ctl from Debian's
// server packages on a temp dir and a free port. initdb refuses root, so as root the cluster
// belongs to the `postgres` OS user (runuser); otherwise it runs as the current user.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const SUPERUSER_PASSWORD = 'test-superuser-password';

/** The newest PostgreSQL server's bin directory (initdb, pg_ctl, psql). */
export function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0])
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install -y postgresql).',
    );
  return join(root, versions[0], 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  port: number;
  dir: string;
  /** postgres://postgres@127.0.0.1:port/<db> (password SUPERUSER_PASSWORD). */
  url(database?: string): string;
  /** A fresh database; with `role`, a station role (resources/site/station-role.sql) owning nothing. */
  createDatabase(name: string): Promise<string>;
  superuser(database?: string): pg.Client;
  stop(): void;
  start(): void;
}

/** Starts a cluster; scram-sha-256 over TCP so wrong passwords are really refused. */
export async function startPostgres(
  /** More server settings, as `-c name=value` flags (the benchmark gives the server memory). */
  settings: Record<string, string> = {},
): Promise<PostgresCluster> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'site-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, SUPERUSER_PASSWORD);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (cmd: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--pwfile',
    pwfile,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=32MB -c max_connections=200${Object.entries(
    settings,
  )
    .map(([k, v]) => ` -c ${k}=${v}`)
    .join('')}`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  start();
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const superuser = (database = 'postgres') =>
    new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database,
      password: SUPERUSER_PASSWORD,
    });
  return {
    port,
    dir,
    url,
    superuser,
    async createDatabase(name) {
      const c = superuser();
      await c.connect();
      try {
        await c.query(`CREATE DATABASE "${name}"`);
      } finally {
        await c.end();
      }
      return url(name);
    },
    stop() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    start,
  };
}

export function removeCluster(cluster: PostgresCluster): void {
  try {
    cluster.stop();
  } catch {
    // already stopped
  }
  rmSync(cluster.dir, { recursive: true, force: true });
}
