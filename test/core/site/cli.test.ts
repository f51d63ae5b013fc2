import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { usePostgres } from '../../support/use-postgres.js';
import { SiteStore } from '../../../src/core/site/store.js';
import { consoleSnapshot } from '../../../src/core/site/console.js';
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
    // Not a healthy store: said, and a non-zero exit for a monitoring script.
    expect(r).toMatchObject({ code: 1 });
    expect(r.stdout).toMatch(
      /^site store .* is not set up yet \(no site schema\): run npm run site -- migrate --url /,
    );
    expect(r.stdout + r.stderr).not.toMatch(/relation|does not exist/);
  });

  it('stations list shows when each was seen; stations retire takes a gone station off the lists, never a running one', async () => {
    const db = await siteDatabase(pgc.cluster);
    const station = (stationId: string, stationName: string) =>
      new SiteStore({
        config: { url: db.stationUrl, stationId, stationName },
        password: STATION_PASSWORD,
      });
    const old = station('pack-old', 'Old packer PC');
    const live = station('pack-1', 'Packing 1');
    for (const s of [old, live]) await s.checkIn({ depth: 0, oldestAt: null });
    await old.registerPrinters([
      { printerId: 'zebra-old', name: 'Old Zebra', host: '10.0.0.9', port: 9100, dpi: 203 },
    ]);
    await Promise.all([old.close(), live.close()]);
    const c = pgc.cluster.superuser(db.name);
    await c.connect();
    await c.query(
      `UPDATE site_stations SET last_seen_at = now() - interval '9 days' WHERE station_id = 'pack-old'`,
    );
    const env = { PGPASSWORD: SUPERUSER_PASSWORD };
    const url = db.ownerUrl;

    const list = await site(['stations', 'list', '--url', url], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^Old packer PC \(pack-old\): version not said; last seen \d{4}-\d\d-\d\d \d\d:\d\d UTC, 9 days ago; 0 change\(s\) waiting$/m,
    );
    expect(list.stdout).toMatch(
      /^Packing 1 \(pack-1\): version not said; last seen .* UTC, \d+ s ago;/m,
    );

    const running = await site(['stations', 'retire', 'pack-1', '--url', url], env);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(
      /^Packing 1 \(pack-1\) checked in \d+ s ago: it may still be running \(a station is taken for running until two minutes after its last check-in\)/,
    );
    const unknown = await site(['stations', 'retire', 'pack-9', '--url', url], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'No station "pack-9" in this site store. Its stations: pack-1, pack-old.',
    );
    const missing = await site(['stations', 'retire', '--url', url], env);
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/needs the station id/),
    });

    const retired = await site(['stations', 'retire', 'pack-old', '--url', url], env);
    expect(retired.code).toBe(0);
    expect(retired.stdout).toMatch(
      /^Old packer PC \(pack-old\) is no longer listed \(last seen .*9 days ago\)\. Its labels, reprints and history stay/,
    );
    const after = await site(['status', '--url', url], env);
    expect(after.stdout).toContain('Packing 1 (pack-1)');
    expect(after.stdout).not.toContain('pack-old');
    const printers = await c.query(
      `SELECT active FROM site_printers WHERE station_id = 'pack-old'`,
    );
    expect(printers.rows).toEqual([{ active: false }]);
    // Its labels still name it (its row is kept, marked, from site migration 6).
    await c.query(
      `INSERT INTO site_labels (station_id, local_id, purchase_id, platform_label_id, profile_id,
         environment, tenant_id, order_number, order_reference, tracking_number, carrier,
         service_level, cost_cents, currency, packer, created_at)
       VALUES ('pack-old', 1, 'pur-1', 'lbl-1', 'p', 'sandbox', 't', 'OLD-1', 'OLD-1-ref', '1Z1',
         'UPS', 'UPS_GROUND', 500, 'USD', 'ana', now())`,
    );
    const reader = station('pack-1', 'Packing 1');
    const scope = { profileId: 'p', environment: 'sandbox' } as const;
    const found = await reader.searchLabels(scope, {});
    expect(found.labels.map((l) => [l.stationId, l.stationName])).toEqual([
      ['pack-old', 'Old packer PC'],
    ]);
    // The console's labels today by station name it too, not by its id.
    const day = new Date(Date.now() - 3_600_000).toISOString();
    const picture = await consoleSnapshot(reader.pool, scope, day, 0, true, ['t']);
    expect(picture.stations.map((x) => x.stationId)).toEqual(['pack-1']);
    expect(picture.labelsPerHour.map((h) => picture.stationNames[h.stationId])).toEqual([
      'Old packer PC',
    ]);
    // Brought back under its id, it checks in and is listed again.
    const back = station('pack-old', 'Old packer PC');
    await back.checkIn({ depth: 0, oldestAt: null });
    expect((await reader.stations()).map((x) => x.stationId).sort()).toEqual([
      'pack-1',
      'pack-old',
    ]);
    await Promise.all([reader.close(), back.close()]);
    // The stations' own role cannot do it.
    await expect(
      c.query(`SET ROLE shipping_station; DELETE FROM site_stations WHERE station_id = 'pack-1'`),
    ).rejects.toThrow(/permission denied/);
    await c.end();
  });
});
