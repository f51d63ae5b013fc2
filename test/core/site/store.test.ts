import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { binDir, SUPERUSER_PASSWORD } from '../../support/postgres.js';
import { SiteStore } from '../../../src/core/site/store.js';
import { siteMigrations } from '../../../src/core/site/schema.js';
import { connectionOf } from '../../../src/core/site/connection.js';
import type { SitePurchaseRow, SiteLabelRow } from '../../../src/core/site/types.js';
import { grantStationRole, siteDatabase } from './support.js';
import { usePostgres } from '../../support/use-postgres.js';

const pgc = usePostgres();
const scope = { profileId: 'lumen-chicago-1', environment: 'sandbox' as const };

async function siteDb(): Promise<{ url: string; stationUrl: string; owner: SiteStore }> {
  const db = await siteDatabase(pgc.cluster);
  return { url: db.ownerUrl, stationUrl: db.stationUrl, owner: db.owner };
}

function station(url: string, stationId: string, stationName: string, password = 'station-pw') {
  return new SiteStore({ config: { url, stationId, stationName }, password });
}

const purchase = (over: Partial<SitePurchaseRow> = {}): SitePurchaseRow => ({
  purchaseId: 'lp_a1',
  profileId: scope.profileId,
  environment: scope.environment,
  tenantId: 'tnt_lumen',
  orderNumber: 'DW-55012',
  orderReference: 'DW-55012-A1',
  state: 'purchased',
  packer: 'ana',
  failure: null,
  confirmedBy: null,
  resolution: null,
  resolvedBy: null,
  resolvedAt: null,
  createdAt: '2026-11-23T10:42:00.000Z',
  updatedAt: '2026-11-23T10:42:01.000Z',
  ...over,
});

const label = (over: Partial<SiteLabelRow> = {}): SiteLabelRow => ({
  localId: 1,
  purchaseId: 'lp_a1',
  platformLabelId: 'lbl_1',
  profileId: scope.profileId,
  environment: scope.environment,
  tenantId: 'tnt_lumen',
  orderNumber: 'DW-55012',
  orderReference: 'DW-55012-A1',
  trackingNumber: '1Z0001',
  carrier: 'ups',
  serviceLevel: 'ground',
  costCents: 812,
  currency: 'USD',
  packer: 'ana',
  createdAt: '2026-11-23T10:42:01.000Z',
  ...over,
});

describe('site store on a real PostgreSQL', () => {
  it('migrates forward once, and refuses a database from a newer version untouched', async () => {
    const { owner, url } = await siteDb();
    expect(await owner.schemaVersion()).toBe(siteMigrations.length);
    const n = siteMigrations.length;
    expect(await owner.migrate()).toEqual({ from: n, to: n });
    const c = pgc.cluster.superuser(url.split('/').pop());
    await c.connect();
    await c.query(`INSERT INTO site_schema_migrations (version, name) VALUES (99, 'future')`);
    await c.end();
    await expect(owner.migrate()).rejects.toThrow(
      new RegExp(
        String.raw`set up by a newer version of Shipping Station \(schema 99, this station knows ${n}\).*left untouched`,
      ),
    );
    await owner.close();
  });

  it('a site at schema 1 (issue 12) migrates forward to the site services schema', async () => {
    const url = await pgc.cluster.createDatabase(`site_v1_${process.pid}`);
    const owner = new SiteStore({
      config: { url, stationId: 'site-it', stationName: 'Site IT' },
      password: SUPERUSER_PASSWORD,
    });
    expect(await owner.migrate(siteMigrations.slice(0, 1))).toEqual({ from: 0, to: 1 });
    expect(await owner.migrate()).toEqual({ from: 1, to: siteMigrations.length });
    const { rows } = await owner.pool.query<{ t: string | null }>(
      `SELECT to_regclass('site_trackers')::text AS t`,
    );
    expect(rows[0]!.t).toBe('site_trackers');
    await owner.close();
  });

  it('two stations claim the same order at once: exactly one gets it; the other is told who and when', async () => {
    const { stationUrl, owner } = await siteDb();
    const a = station(stationUrl, 'st-4', 'Station 4');
    const b = station(stationUrl, 'st-7', 'Station 7');
    const claim = (s: SiteStore, purchaseId: string, packer: string) =>
      s.claimOrder(scope, {
        tenantId: 'tnt_lumen',
        orderNumber: 'DW-55012',
        purchaseId,
        packer,
        confirmed: false,
      });
    const results = await Promise.all([claim(a, 'lp_a1', 'ana'), claim(b, 'lp_b1', 'bo')]);
    expect(results.filter((r) => r.granted)).toHaveLength(1);
    const refused = results.find((r) => !r.granted)!;
    expect(refused).toMatchObject({ granted: false, code: 'order-claimed-elsewhere' });
    expect(!refused.granted && refused.message).toMatch(
      /^Order DW-55012 is being labelled at Station [47] right now \(since \d\d:\d\d by (ana|bo)\)/,
    );
    // The holder dies mid-purchase: once it has been quiet two minutes the refusal says so, and
    // how to buy here all the same.
    const holder = results[0]!.granted ? 'st-4' : 'st-7';
    const holderName = holder === 'st-4' ? 'Station 4' : 'Station 7';
    await owner.pool.query(
      `INSERT INTO site_stations (station_id, station_name, last_seen_at)
       VALUES ($1, $2, now() - interval '5 minutes')
       ON CONFLICT (station_id) DO UPDATE SET last_seen_at = now() - interval '5 minutes'`,
      [holder, holderName],
    );
    const later = await claim(holder === 'st-4' ? b : a, 'lp_later', 'cy');
    expect(!later.granted && later.message).toMatch(
      new RegExp(
        `^Order DW-55012 was being labelled at ${holderName} \\(since \\d\\d:\\d\\d by (ana|bo)\\), but ${holderName} has not checked in since \\d\\d:\\d\\d: its purchase may or may not have gone through\\. Nothing was bought here\\..*Ctrl\\+Shift\\+A, then Ctrl\\+Enter`,
      ),
    );

    // A burst: eight stations on each of twenty orders at the same instant. Exactly one claim per
    // order is granted and every other station is told who holds it (none fails to answer).
    const eight = Array.from({ length: 8 }, (_, i) =>
      station(stationUrl, `st-b${i}`, `Bench ${i}`),
    );
    // Connected first, so the claims really meet at the server.
    await Promise.all(eight.map((s) => s.setting('offlinePurchase')));
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, k) => `B-${k}`).flatMap((orderNumber) =>
        eight.map((s, i) =>
          s
            .claimOrder(scope, {
              tenantId: 'tnt_lumen',
              orderNumber,
              purchaseId: `lp_${orderNumber}_${i}`,
              packer: `p${i}`,
              confirmed: false,
            })
            .then((r) => ({ orderNumber, granted: r.granted })),
        ),
      ),
    );
    for (let k = 0; k < 20; k++)
      expect(burst.filter((r) => r.orderNumber === `B-${k}` && r.granted)).toHaveLength(1);
    await Promise.all(eight.map((s) => s.close()));

    // Once the label is synced, the message is the issue's: labelled at, when, by whom.
    const winner = results[0]!.granted ? a : b;
    const loser = winner === a ? b : a;
    const winnerPurchase = winner === a ? 'lp_a1' : 'lp_b1';
    await winner.apply([{ kind: 'purchase', row: purchase({ purchaseId: winnerPurchase }) }]);
    const again = await claim(loser, 'lp_x2', 'zed');
    expect(!again.granted && again.message).toMatch(
      new RegExp(
        `^Order DW-55012 was labelled at ${winner === a ? 'Station 4' : 'Station 7'} at \\d\\d:\\d\\d by (ana|bo) — reprint it here\\?`,
      ),
    );
    // A purchase that failed releases the order for every station.
    await winner.apply([
      { kind: 'purchase', row: purchase({ purchaseId: winnerPurchase, state: 'failed' }) },
    ]);
    expect(await claim(loser, 'lp_x3', 'zed')).toEqual({ granted: true, mode: 'claimed' });
    await Promise.all([a.close(), b.close(), owner.close()]);
  });

  it('an order file claimed by a station that has not checked in yet is told by its name', async () => {
    const { stationUrl } = await siteDb();
    const a = station(stationUrl, 'st-a', 'Station A');
    const b = station(stationUrl, 'st-b', 'Station B');
    try {
      const sha = 'f'.repeat(64);
      expect(await a.claimImport(scope, sha, 'wave-12.json')).toEqual({ claimed: true });
      expect(await b.claimImport(scope, sha, 'wave-12-copy.json')).toMatchObject({
        claimed: false,
        stationName: 'Station A',
        fileName: 'wave-12.json',
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('replayed outbox batches change nothing; site-wide search finds labels of every station', async () => {
    const { stationUrl, owner } = await siteDb();
    const a = station(stationUrl, 'st-4', 'Station 4');
    await a.checkIn({ depth: 0, oldestAt: null });
    const batch = [
      { kind: 'purchase' as const, row: purchase() },
      { kind: 'label' as const, row: label() },
      {
        kind: 'reprint' as const,
        row: {
          source: 'local' as const,
          localId: 1,
          labelStationId: 'st-4',
          labelLocalId: 1,
          profileId: scope.profileId,
          environment: scope.environment,
          tenantId: 'tnt_lumen',
          stationUser: 'lead',
          reason: 'torn label',
          printerId: 'p1',
          createdAt: '2026-11-23T10:50:00.000Z',
        },
      },
    ];
    await a.apply(batch);
    await a.apply(batch);
    const found = await owner.searchLabels(scope, { query: '1Z0001' });
    expect(found.labels).toHaveLength(1);
    expect(found.labels[0]).toMatchObject({
      stationName: 'Station 4',
      orderNumber: 'DW-55012',
      packer: 'ana',
      reprints: 1,
    });
    expect((await owner.searchLabels(scope, { query: 'DW-55' })).labels).toHaveLength(1);
    expect((await owner.searchLabels(scope, { query: 'DW-55', stationId: 'st-9' })).labels).toEqual(
      [],
    );
    expect(
      (await owner.searchLabels(scope, { packer: 'ana', tenantId: 'tnt_lumen' })).labels,
    ).toHaveLength(1);
    // As a shift lead types them: the station's name as the table shows it, part of a packer's
    // name in any case; "%" is a character, not a wildcard.
    for (const search of [{ stationId: 'station 4' }, { stationId: 'st-4' }, { packer: 'AN' }])
      expect((await owner.searchLabels(scope, search)).labels, JSON.stringify(search)).toHaveLength(
        1,
      );
    expect((await owner.searchLabels(scope, { packer: '%' })).labels).toEqual([]);
    expect((await owner.searchLabels(scope, { stationId: 'Station' })).labels).toEqual([]);
    expect(
      (await owner.searchLabels({ ...scope, profileId: 'other' }, { query: 'DW-55' })).labels,
    ).toEqual([]);
    await Promise.all([a.close(), owner.close()]);
  });

  it('an unknown-outcome purchase is listed at every station until its station resolves it', async () => {
    const { stationUrl, owner } = await siteDb();
    const a = station(stationUrl, 'st-4', 'Station 4');
    const b = station(stationUrl, 'st-7', 'Station 7');
    await a.checkIn({ depth: 0, oldestAt: null });
    await a.apply([{ kind: 'purchase', row: purchase({ state: 'unknown' }) }]);
    const seenAtB = await b.attention(scope);
    expect(seenAtB).toEqual([
      expect.objectContaining({
        kind: 'unknown-purchase',
        orderNumber: 'DW-55012',
        message:
          'The label for DW-55012-A1 at Station 4 may or may not have been bought; resolve it at Station 4 under Needs attention.',
      }),
    ]);
    // While unknown, the order stays held: another station cannot buy it.
    const held = await b.claimOrder(scope, {
      tenantId: 'tnt_lumen',
      orderNumber: 'DW-55012',
      purchaseId: 'lp_b9',
      packer: 'bo',
      confirmed: false,
    });
    expect(held.granted).toBe(false);
    // Resolved at Station 4 (not bought): gone everywhere, and the order is free again.
    await a.apply([
      {
        kind: 'purchase',
        row: purchase({ state: 'not-bought', resolution: 'not-bought', resolvedBy: 'lead' }),
      },
    ]);
    expect(await b.attention(scope)).toEqual([]);
    expect(
      await b.claimOrder(scope, {
        tenantId: 'tnt_lumen',
        orderNumber: 'DW-55012',
        purchaseId: 'lp_b9',
        packer: 'bo',
        confirmed: false,
      }),
    ).toEqual({ granted: true, mode: 'claimed' });
    await Promise.all([a.close(), b.close(), owner.close()]);
  });

  it('site migration 9 grants its table to the role that writes labels, whatever site IT named it', async () => {
    const db = await siteDatabase(pgc.cluster, { schema: 8 });
    const role = `dock_station_${process.pid}`;
    const c = pgc.cluster.superuser(db.name);
    await c.connect();
    try {
      await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'`);
      await c.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
      await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${role}`);
      await c.query(`GRANT INSERT, UPDATE ON site_labels TO ${role}`);
      expect(await db.owner.migrate()).toEqual({ from: 8, to: siteMigrations.length });
      const { rows } = await c.query<{ role: string; insert: boolean }>(
        `SELECT r.rolname AS role, has_table_privilege(r.oid, 'site_manifest_labels', 'INSERT') AS insert
           FROM pg_roles r WHERE r.rolname IN ($1, 'shipping_station') ORDER BY 1`,
        [role],
      );
      expect(rows).toEqual([
        { role, insert: true },
        { role: 'shipping_station', insert: true },
      ]);
    } finally {
      await c.end();
      await db.owner.close();
    }
  });

  it('the station role of station-role.sql cannot delete labels or drop tables', async () => {
    const { stationUrl, owner } = await siteDb();
    const a = station(stationUrl, 'st-4', 'Station 4');
    await a.apply([{ kind: 'label', row: label() }]);
    await expect(a.pool.query('DELETE FROM site_labels')).rejects.toThrow(/permission denied/);
    await expect(a.pool.query('DELETE FROM site_purchases')).rejects.toThrow(/permission denied/);
    await expect(a.pool.query('DROP TABLE site_labels')).rejects.toThrow(/must be owner/);
    await expect(a.pool.query(`UPDATE site_settings SET value = 'refuse'`)).rejects.toThrow(
      /permission denied/,
    );
    // The file grants what each migration grants a role that exists already: a role made after
    // `migrate` (as site.md says) may record a close-out's manifest, and never delete one.
    const manifest = { manifestId: 'mf_1', tenantId: 'tnt_x', carrier: 'UPS', labelIds: ['lbl_1'] };
    const scope = { profileId: 'p', environment: 'sandbox' as const };
    await owner.pool.query('REVOKE INSERT ON site_manifest_labels FROM shipping_station');
    await expect(a.recordManifest(scope, manifest)).rejects.toThrow(/permission|not permitted/);
    await grantStationRole(pgc.cluster, stationUrl.split('/').pop()!);
    await a.recordManifest(scope, manifest);
    expect([...(await a.manifestedLabelIds(scope, ['lbl_1', 'lbl_2']))]).toEqual(['lbl_1']);
    await expect(a.pool.query('DELETE FROM site_manifest_labels')).rejects.toThrow(
      /permission denied/,
    );
    // A migration attempt by a station is refused in words that send site IT to the right step.
    await expect(
      a.migrate([
        ...siteMigrations,
        { version: siteMigrations.length + 1, name: 'x', sql: 'CREATE TABLE x (a int)' },
      ]),
    ).rejects.toThrow(/does not allow this station's role.*station-role\.sql/);
    // A store a newer version migrated is said as that to a station role too (its missing DDL
    // rights were reported instead when it restarted).
    const c = pgc.cluster.superuser(stationUrl.split('/').pop());
    await c.connect();
    await c.query(`INSERT INTO site_schema_migrations (version, name) VALUES (99, 'future')`);
    await c.end();
    await expect(a.migrate()).rejects.toThrow(
      /set up by a newer version of Shipping Station \(schema 99.*Update this station/,
    );
    await Promise.all([a.close(), owner.close()]);
  });

  it('a wrong password and an unreachable store are said in words, without the password', async () => {
    const { stationUrl } = await siteDb();
    const wrong = station(stationUrl, 'st-4', 'Station 4', 'not-the-password');
    const error = await wrong.setting('offlinePurchase').catch((e: Error) => e);
    expect(String(error)).toMatch(
      /refused the station's user name or password\. Check the password in Settings/,
    );
    expect(String(error)).not.toContain('not-the-password');
    await wrong.close();
    const nowhere = station('postgres://shipping_station@127.0.0.1:1/site', 'st-4', 'Station 4');
    await expect(nowhere.setting('offlinePurchase')).rejects.toThrow(
      /site store at shipping_station@127\.0\.0\.1:1\/site does not answer \(connection refused\)\. This station works on its own/,
    );
    await nowhere.close();
  });

  it('a station given no password says so, reads neither PGPASSWORD nor ~/.pgpass, and leaves no session open', async () => {
    const { stationUrl, owner } = await siteDb();
    // Connections to the server that are established, as the kernel has them (a session whose
    // login is still pending is not in pg_stat_activity yet): this computer's side of each.
    const port = Number(new URL(stationUrl).port).toString(16).toUpperCase().padStart(4, '0');
    const sessions = async () =>
      (await readFile('/proc/net/tcp', 'utf8'))
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((f) => f[2]?.endsWith(`:${port}`) && f[3] === '01').length;
    await owner.setting('offlinePurchase'); // the owner's own session, open before counting
    const before = await sessions();
    // The right password in PostgreSQL's own variable: node-postgres would have used it.
    const saved = process.env.PGPASSWORD;
    process.env.PGPASSWORD = 'station-pw';
    try {
      const none = new SiteStore({
        config: { url: stationUrl, stationId: 'st-6', stationName: 'Station 6' },
        password: undefined,
      });
      for (let i = 0; i < 3; i++) {
        const error = await none.setting('offlinePurchase').catch((e: Error) => e);
        expect(String(error)).toMatch(
          /site store at shipping_station@127\.0\.0\.1:\d+\/\w+ asks for a password and this station has none\. Enter the station role's password in Settings → Site store \(or set STATION_SECRET_SITE_STORE\)/,
        );
        expect(String(error)).not.toMatch(/SASL|SCRAM/);
      }
      await none.close();
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD;
      else process.env.PGPASSWORD = saved;
    }
    // The refused logins' connections are closed by the station, not left for the server's
    // authentication_timeout (a minute each).
    const end = Date.now() + 5000;
    while ((await sessions()) > before && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect(await sessions()).toBe(before);
  });

  it('site IT migrates a new database with npm run site -- migrate, then sets offlinePurchase', async () => {
    const url = await pgc.cluster.createDatabase(`site_cli_${process.pid}`);
    const cli = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, '../../../src/core/site/cli.ts'),
          ...args,
          '--url',
          url,
        ],
        { env: { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD } },
      );
    expect((await cli('migrate')).stdout).toMatch(
      new RegExp(`migrated from schema 0 to ${siteMigrations.length}\\.`),
    );
    expect((await cli('migrate')).stdout).toMatch(
      new RegExp(`is already at schema ${siteMigrations.length}\\.`),
    );
    expect((await cli('offline-purchase', 'refuse')).stdout).toMatch(
      /offlinePurchase is now refuse/,
    );
    expect((await cli('status')).stdout).toMatch(/offlinePurchase: refuse/);
  });

  it('station-role.sql through psql: a second site on the same server gets its own stations role, which cannot read the first site', async () => {
    const { url: firstUrl } = await siteDb(); // its stations log in as shipping_station
    const secondUrl = await pgc.cluster.createDatabase(`site_two_${process.pid}`);
    const owner = new SiteStore({
      config: { url: secondUrl, stationId: 'site-it', stationName: 'Site IT' },
      password: SUPERUSER_PASSWORD,
    });
    await owner.migrate();
    await owner.close();
    const psql = join(binDir(), 'psql');
    const run = (args: string[]) =>
      promisify(execFile)(
        psql,
        [
          secondUrl,
          '-X',
          '-q',
          ...args,
          '-f',
          join(import.meta.dirname, '../../../resources/site/station-role.sql'),
        ],
        { env: { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD } },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
    // As the docs first say: the default name is taken on this server by the first site.
    const again = await run(['-v', "station_password='pw-2'"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/role "shipping_station" already exists/);
    // With a role of its own, as the docs say for a second site.
    const own = await run([
      '-v',
      'station_role=shipping_station_two',
      '-v',
      "station_password='pw-2'",
    ]);
    expect(own).toEqual({ code: 0, stderr: '' });
    const asTwo = (url: string) =>
      new SiteStore({
        config: {
          url: url.replace('postgres://postgres@', 'postgres://shipping_station_two@'),
          stationId: 'st-2',
          stationName: 'Two',
        },
        password: 'pw-2',
        connectTimeoutMs: 3000,
      });
    const two = asTwo(secondUrl);
    expect(await two.setting('offlinePurchase')).toBe('allow');
    await two.close();
    // The second site's stations cannot read the first site's store: its schema is not theirs
    // to use (REVOKE ALL ON SCHEMA public FROM PUBLIC), so not even its tables are visible.
    const other = asTwo(firstUrl);
    await expect(other.setting('offlinePurchase')).rejects.toThrow(
      /"site_settings" does not exist|permission denied/,
    );
    await other.close();
  });

  it("npm run site says site IT's sentence when the store does not answer or refuses: what it tried, what to check, no password", async () => {
    const run = (url: string, env: Record<string, string>) =>
      promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, '../../../src/core/site/cli.ts'),
          'status',
          '--url',
          url,
        ],
        { env: { ...process.env, PGPASSWORD: '', ...env } },
      ).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
    // Nothing listens on port 1.
    const nowhere = await run('postgres://site_it@127.0.0.1:1/shipping_site', {
      PGPASSWORD: 'cli-secret-1',
    });
    expect(nowhere?.code).toBe(1);
    expect(nowhere?.stderr.trim()).toBe(
      'The site store does not answer: tried host 127.0.0.1, port 1, database shipping_site, user site_it (connection refused). ' +
        'Check that the host name is right, that PostgreSQL is running on 127.0.0.1 and listens on port 1 (listen_addresses and port in postgresql.conf), ' +
        'and that no firewall between this computer and 127.0.0.1 blocks the port.',
    );
    // A running server, a wrong password: the variable it came from and pg_hba.conf, never the value.
    const { stationUrl } = await siteDb();
    const refused = await run(stationUrl, { PGPASSWORD: 'cli-secret-2' });
    expect(refused?.code).toBe(1);
    const port = new URL(stationUrl).port;
    expect(refused?.stderr).toMatch(
      new RegExp(
        `^The site store refused the login: tried host 127\\.0\\.0\\.1, port ${port}, database \\w+, user shipping_station \\(.*password authentication failed.*\\)\\. Check the password in PGPASSWORD, and pg_hba\\.conf on 127\\.0\\.0\\.1`,
      ),
    );
    for (const e of [nowhere, refused]) {
      expect(e?.stderr).not.toMatch(/cli-secret|This station works on its own|Settings|\n\s+at /);
    }
  });

  it('npm run site with a bad address says what is wrong in words, not a stack trace', async () => {
    const cli = promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../../../src/core/site/cli.ts'),
        'status',
        '--url',
        'db.site.local/shipping_site',
      ],
      { env: { ...process.env, PGPASSWORD: 'pw' } },
    );
    const failed = await cli.then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(
      /^--url "db\.site\.local\/shipping_site" is not a database address; expected postgres:\/\/user@host:5432\/database\.\n/,
    );
    expect(failed?.stderr).not.toMatch(/TypeError|\n\s+at /);
  });

  it('reads host, port, user, database and TLS mode from the address; the password never comes from it', () => {
    expect(
      connectionOf(
        'postgres://shipping_station@db.site.local:6432/shipping_site?sslmode=verify-full',
        'pw',
      ),
    ).toEqual({
      ssl: { rejectUnauthorized: true },
      host: 'db.site.local',
      port: 6432,
      user: 'shipping_station',
      database: 'shipping_site',
      password: 'pw',
    });
    // No password: a function that refuses, so node-postgres reads no PGPASSWORD or ~/.pgpass.
    const none = connectionOf('postgres://u@db/site', undefined);
    expect(none).toMatchObject({ port: 5432 });
    expect(typeof none.password).toBe('function');
    expect(() => (none.password as () => string)()).toThrow(/has none/);
    expect(connectionOf('postgres://u@db/site', undefined)).not.toHaveProperty('ssl');
  });
});
