import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { usePostgres } from '../../support/use-postgres.js';
import { siteDatabase, STATION_PASSWORD } from './support.js';
import { SUPERUSER_PASSWORD } from '../../support/postgres.js';

const pgc = usePostgres();

/**
 * `npm run site -- <args>` with only the password variables given here (none inherited), and
 * no ~/.pgpass for node-postgres to find behind the command's back.
 */
function site(args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => k !== 'PGPASSWORD' && k !== 'STATION_SECRET_SITE_STORE',
    ),
  );
  return promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../../../src/core/site/cli.ts'), ...args],
    { env: { ...clean, PGPASSFILE: '/nonexistent/pgpass', ...env } },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('npm run site names the password variable it reads', () => {
  it('its help says which variable comes first and that the command line never carries it', async () => {
    const help = await site(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'The password is read from PGPASSWORD (STATION_SECRET_SITE_STORE when PGPASSWORD is not set), never from the command line or the address',
    );
  });

  it('a password in --url is sent to PGPASSWORD, not to a keychain the command line never reads', async () => {
    const r = await site(['status', '--url', 'postgres://site_it:hunter2@127.0.0.1:1/site'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^--url contains a password; remove it and put the password in PGPASSWORD \(never on the command line, which ps shows\)\.\n/,
    );
    expect(r.stderr).not.toMatch(/keychain|Settings|hunter2/);
  });

  it('reads STATION_SECRET_SITE_STORE when PGPASSWORD is empty or unset, and says that is the one it read', async () => {
    const { stationUrl } = await siteDatabase(pgc.cluster);
    // Right password in STATION_SECRET_SITE_STORE, PGPASSWORD exported empty: it logs in.
    const ok = await site(['status', '--url', stationUrl], {
      PGPASSWORD: '',
      STATION_SECRET_SITE_STORE: STATION_PASSWORD,
    });
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/^site store /) });
    // A wrong one there: refused, naming STATION_SECRET_SITE_STORE, never the value.
    const wrong = await site(['status', '--url', stationUrl], {
      PGPASSWORD: '',
      STATION_SECRET_SITE_STORE: 'cli-secret-3',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /^The site store refused the login: .*password authentication failed.*\. Check the password in STATION_SECRET_SITE_STORE, and pg_hba\.conf/,
    );
    // Both set: PGPASSWORD is the one read (a wrong one fails though the other is right).
    const both = await site(['status', '--url', stationUrl], {
      PGPASSWORD: 'cli-secret-4',
      STATION_SECRET_SITE_STORE: STATION_PASSWORD,
    });
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/Check the password in PGPASSWORD, and pg_hba\.conf/);
    for (const r of [wrong, both]) expect(r.stderr).not.toMatch(/cli-secret|\n\s+at /);
  });

  it('with no password anywhere it says none was given and where to put one, not SCRAM internals', async () => {
    const { stationUrl } = await siteDatabase(pgc.cluster);
    const r = await site(['status', '--url', stationUrl], {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^The site store refused the login: tried host 127\.0\.0\.1, port \d+, database \w+, user shipping_station \(no password to send\)\. Check the password: none was given \(set PGPASSWORD, or STATION_SECRET_SITE_STORE when PGPASSWORD is not set\), and pg_hba\.conf/,
    );
    expect(r.stderr).not.toMatch(/SASL|SCRAM/);
  });

  it('status on a database not set up yet says to run migrate, not a missing relation', async () => {
    const url = await pgc.cluster.createDatabase(`site_fresh_${process.pid}`);
    const r = await site(['status', '--url', url], { PGPASSWORD: SUPERUSER_PASSWORD });
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(
      /^site store .* is not set up yet \(no site schema\): run npm run site -- migrate --url /,
    );
    expect(r.stdout + r.stderr).not.toMatch(/relation|does not exist/);
  });
});
