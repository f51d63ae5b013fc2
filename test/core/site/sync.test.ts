import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { readdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { OrderHotFolder } from '../../../src/core/orders/hot-folder.js';
import { tempDir } from '../../support/tmp.js';
import { SiteLink } from '../../../src/core/site/link.js';
import { SiteOutbox } from '../../../src/core/site/outbox.js';
import { siteHeader } from '../../../src/core/station/features/site.js';
import type { OrderClaims } from '../../../src/core/site/link.js';
import { useSandbox } from '../../support/sandbox.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { usePostgres } from '../../support/use-postgres.js';
import { waitUntil } from '../../support/virtual-printer.js';
import { lumenProfile } from '../packing/support/station.js';
import { ledgerFor, orderId, stationFor, type TestStation } from '../packing/support/harness.js';
import { grantStationRole, siteDatabase, STATION_PASSWORD, type SiteDatabase } from './support.js';
import { SiteStore } from '../../../src/core/site/store.js';
import { SUPERUSER_PASSWORD } from '../../support/postgres.js';

const sb = useSandbox();
const pgc = usePostgres();
const scope = { profileId: 'lumen-chicago-1', environment: 'sandbox' as const };

/** A station of the site: its own SQLite, the sandbox, and a link to the site store. */
async function siteStation(
  site: SiteDatabase,
  stationId: string,
  stationName: string,
  options: { url?: string; start?: boolean; pollMs?: number } = {},
): Promise<TestStation & { link: SiteLink }> {
  // The station's claim port follows whichever link the test gives it (a.link = …).
  const box: { self?: TestStation & { link: SiteLink } } = {};
  const claims: OrderClaims = { claim: (r) => box.self!.link.claims(scope).claim(r) };
  const station = await stationFor((p) => lumenProfile(sb.url, p), { orderClaims: claims });
  const link = new SiteLink(
    { url: options.url ?? site.stationUrl, stationId, stationName },
    { db: station.db, password: STATION_PASSWORD, pollMs: options.pollMs ?? 20 },
  );
  if (options.start !== false) link.start();
  station.importSamples();
  box.self = Object.assign(station, { link });
  return box.self;
}

describe('the station outbox drained into the site store', () => {
  it('a store that just failed to answer is not waited on again by a scan of an unknown order', async () => {
    // A "store" that accepts connections and never answers: every attempt waits for its timeout.
    const attempts: Socket[] = [];
    const silent = createServer((socket) => attempts.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    const link = new SiteLink(
      {
        url: `postgres://station@127.0.0.1:${port}/site`,
        stationId: 'st-9',
        stationName: 'Station 9',
      },
      { db: station.db, password: STATION_PASSWORD, connectTimeoutMs: 200 },
    );
    link.start();
    try {
      await waitUntil(() => link.sync.status().state === 'unreachable');
      const before = attempts.length;
      expect(await link.findOrders(scope, 'LUM-99999')).toMatchObject({
        orders: [],
        problem: { kind: 'unreachable' },
      });
      expect(await link.claimFile(scope, '[]', 'wave.json')).toBeNull();
      expect(attempts.length).toBe(before);
    } finally {
      await link.close();
      attempts.forEach((s) => s.destroy());
      silent.close();
    }
  });

  it('a station without a site store writes nothing to the outbox (as before issue 12)', async () => {
    const alone = await stationFor((p) => lumenProfile(sb.url, p));
    alone.importSamples();
    const shipped = await alone.workflow.ship(orderId(alone, 'LUM-10421'), { stationUser: 'ana' });
    expect(shipped.outcome).toBe('printed');
    expect(new SiteOutbox(alone.db, 'x').depth()).toEqual({ depth: 0, oldestAt: null });
  });

  it('the outbox triggers are plain SQL: another connection to the file (a tool, the sqlite3 shell) still writes', async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = await siteStation(site, 'st-4', 'Station 4', { start: false });
    expect((await a.workflow.ship(orderId(a, 'LUM-10421'), { stationUser: 'ana' })).outcome).toBe(
      'printed',
    );
    const before = a.link.outbox.depth().depth;
    const raw = new Database(a.dbFile);
    try {
      raw.prepare(`UPDATE label_purchases SET updated_at = updated_at`).run();
    } finally {
      raw.close();
    }
    expect(a.link.outbox.depth().depth).toBe(before + 1);
    await a.link.close();
  });

  it("the station's own commit wakes the drainer at once: a label reaches the site with the idle poll an hour away", async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = await siteStation(site, 'st-4', 'Station 4', { pollMs: 3_600_000 });
    await waitUntil(() => a.link.sync.status().state === 'synced');
    expect((await a.workflow.ship(orderId(a, 'LUM-10425'), { stationUser: 'ana' })).outcome).toBe(
      'printed',
    );
    // Only the wake can deliver it within the test's timeout: the next poll is an hour away.
    await waitUntil(
      async () =>
        (await site.owner.searchLabels(scope, { query: 'LUM-10425' })).labels.length === 1,
    );
    await waitUntil(() => a.link.sync.status().state === 'synced');
    await a.link.close();
  });

  it('a check-in is one statement with the heartbeat and one read of the site settings; consoles are told only of a change', async () => {
    const site = await siteDatabase(pgc.cluster);
    await site.owner.setSetting('offlinePurchase', 'refuse');
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    // Every statement the station's pool sends, in order; what each check-in handed over.
    const sent: string[] = [];
    const rounds: { settings: Record<string, string>; sentBefore: string[] }[] = [];
    let signedIn: string | null = 'Ana';
    const link = new SiteLink(
      { url: site.stationUrl, stationId: 'st-7', stationName: 'Station 7' },
      {
        db: station.db,
        password: STATION_PASSWORD,
        pollMs: 20,
        checkInMs: 50,
        heartbeat: () => ({
          appVersion: '0.16.0',
          signedInUser: signedIn,
          printers: [{ id: 'zd421', name: 'ZD421', state: 'ready', detail: null }],
        }),
        atCheckIn: async (_store, settings) =>
          void rounds.push({ settings, sentBefore: [...sent] }),
      },
    );
    const pool = link.store.pool as unknown as { query: (...args: unknown[]) => unknown };
    const query = pool.query.bind(pool);
    pool.query = (q: unknown, ...rest: unknown[]) => {
      sent.push(typeof q === 'string' ? q : (q as { text: string }).text);
      return query(q, ...rest);
    };
    const count = (texts: string[], pattern: RegExp) => texts.filter((t) => pattern.test(t)).length;
    link.start();
    try {
      await waitUntil(() => rounds.length >= 3);
      // Each check-in: one statement to site_stations (the heartbeat in it), one settings read.
      for (const [i, round] of rounds.slice(0, 3).entries()) {
        expect(count(round.sentBefore, /site_stations/)).toBe(i + 1);
        expect(count(round.sentBefore, /site_settings/)).toBe(i + 1);
      }
      expect(count(sent, /UPDATE site_stations/)).toBe(0);
      // The settings read once reach the station whole, offlinePurchase with them.
      expect(rounds[0]!.settings).toMatchObject({
        offlinePurchase: 'refuse',
        reprintsWithoutLead: '2',
      });
      expect(link.outbox.offlinePurchase()).toBe('refuse');
      // The first heartbeat notifies the consoles; the same one again does not.
      expect(count(rounds[2]!.sentBefore, /pg_notify/)).toBe(1);
      const { rows } = await site.owner.pool.query<{
        app_version: string;
        signed_in_user: string;
        printers: unknown;
      }>(
        `SELECT app_version, signed_in_user, printers FROM site_stations WHERE station_id = 'st-7'`,
      );
      expect(rows).toEqual([
        {
          app_version: '0.16.0',
          signed_in_user: 'Ana',
          printers: [{ id: 'zd421', name: 'ZD421', state: 'ready', detail: null }],
        },
      ]);

      // Someone signs out: the next check-in writes it and tells the consoles.
      signedIn = null;
      await waitUntil(() => count(sent, /pg_notify/) === 2);
      const after = await site.owner.pool.query<{ signed_in_user: string | null }>(
        `SELECT signed_in_user FROM site_stations WHERE station_id = 'st-7'`,
      );
      expect(after.rows).toEqual([{ signed_in_user: null }]);
    } finally {
      await link.close();
    }
  });

  it('says "connecting", not "synced", until the store has answered this station', async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = await siteStation(site, 'st-5', 'Station 5', { start: false });
    try {
      // Nothing was asked of the store yet: its orders wait for it, and it is not "synced".
      const before = a.link.sync.status();
      expect(before).toMatchObject({ state: 'waiting', connecting: true, problem: null });
      expect(siteHeader(before).text).toMatch(/^Site: \d+ changes waiting/);
      // With nothing of its own to send yet, the header says it is connecting.
      expect(siteHeader({ ...before, depth: 0, oldestAt: null }).text).toBe(
        'Site: connecting to the store…',
      );
      a.link.start();
      await waitUntil(() => a.link.sync.status().state === 'synced');
      expect(a.link.sync.status().connecting).toBe(false);
      expect(siteHeader(a.link.sync.status()).text).toBe('Site: synced');
    } finally {
      await a.link.close();
    }
  });

  it('a label bought at one station is found in a site search at another; replays do not double', async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = await siteStation(site, 'st-4', 'Station 4');
    const b = await siteStation(site, 'st-7', 'Station 7');
    const shipped = await a.workflow.ship(orderId(a, 'LUM-10421'), { stationUser: 'ana' });
    expect(shipped.outcome).toBe('printed');
    await waitUntil(
      async () =>
        (await b.link.store.searchLabels(scope, { query: 'LUM-10421' })).labels.length === 1,
    );
    const [found] = (await b.link.store.searchLabels(scope, { query: 'LUM-10421' })).labels;
    expect(found).toMatchObject({
      stationName: 'Station 4',
      packer: 'ana',
      orderNumber: 'LUM-10421',
    });
    await waitUntil(() => a.link.sync.status().state === 'synced');
    expect(siteHeader(a.link.sync.status()).text).toBe('Site: synced');

    // The same rows queued again (a crash before the acknowledgement) change nothing.
    await a.link.sync.stop();
    a.db.exec(`INSERT INTO site_outbox (entity, local_key, created_at)
               SELECT 'purchase', id, 0 FROM label_purchases UNION ALL SELECT 'label', id, 0 FROM labels`);
    await a.link.sync.drainOnce();
    const { rows } = await site.owner.pool.query(
      `SELECT (SELECT count(*) FROM site_labels)::int AS labels, (SELECT count(*) FROM site_purchases)::int AS purchases`,
    );
    expect(rows[0]).toEqual({ labels: 1, purchases: 1 });
    await Promise.all([a.link.close(), b.link.close()]);
  });

  it('the same order at two stations: the second is told where it was labelled and buys nothing', async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = await siteStation(site, 'st-4', 'Station 4');
    const b = await siteStation(site, 'st-7', 'Station 7');
    expect((await a.workflow.ship(orderId(a, 'LUM-10422'), { stationUser: 'ana' })).outcome).toBe(
      'printed',
    );
    await waitUntil(() => a.link.sync.status().state === 'synced');
    const second = await b.workflow.ship(orderId(b, 'LUM-10422'), { stationUser: 'bo' });
    expect(second).toMatchObject({
      outcome: 'invalid',
      failure: { code: 'order-claimed-elsewhere' },
    });
    expect(second.outcome === 'invalid' && second.failure.message).toMatch(
      /^Order LUM-10422 was labelled at Station 4 at \d\d:\d\d by ana — reprint it here\?/,
    );
    expect(await ledgerFor(sb.url, 'LUM-10422')).toHaveLength(1);
    await Promise.all([a.link.close(), b.link.close()]);
  });

  it("a store restored from a backup into the same database name gets the station's whole history again", async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = await siteStation(site, 'st-r', 'Station R');
    try {
      const shipped = await a.workflow.ship(orderId(a, 'LUM-10421'), { stationUser: 'ana' });
      expect(shipped.outcome).toBe('printed');
      const labelsInStore = async (owner: SiteStore) =>
        (await owner.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM site_labels'))
          .rows[0]!.n;
      await waitUntil(async () => (await labelsInStore(site.owner)) === 1);
      await site.owner.close();

      // Site IT restores a backup from before that label into the same name: a new database.
      const su = pgc.cluster.superuser();
      await su.connect();
      await su.query(`DROP DATABASE ${site.name} WITH (FORCE)`);
      await su.end();
      await pgc.cluster.createDatabase(site.name);
      const restored = new SiteStore({
        config: { url: site.ownerUrl, stationId: 'site-it', stationName: 'Site IT' },
        password: SUPERUSER_PASSWORD,
      });
      await restored.migrate();
      await grantStationRole(pgc.cluster, site.name);
      expect(await labelsInStore(restored)).toBe(0);

      // The station reconnects, finds another database under the name, and sends it everything:
      // the restored store knows LUM-10421 was labelled, so no other station buys it again.
      await waitUntil(async () => (await labelsInStore(restored)) === 1, 50);
      const orders = await restored.pool.query<{ order_number: string }>(
        'SELECT order_number FROM site_labels',
      );
      expect(orders.rows).toEqual([{ order_number: 'LUM-10421' }]);
      await restored.close();
    } finally {
      await a.link.close();
    }
  });

  it('store unreachable: the station buys (offlinePurchase allow), waits, and drains when it answers', async () => {
    const site = await siteDatabase(pgc.cluster);
    // The station reaches the store through a relay, which is then cut: the store is down
    // from the station's point of view (a store it never reached would buy nothing).
    const proxy = await startTcpProxy(pgc.cluster.port);
    const down = site.stationUrl.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`);
    const a = await siteStation(site, 'st-4', 'Station 4', { url: down });
    await waitUntil(() => a.link.hasReachedStore());
    await proxy.cut();
    await waitUntil(() => a.link.sync.status().state === 'unreachable');
    const shipped = await a.workflow.ship(orderId(a, 'LUM-10423'), { stationUser: 'ana' });
    expect(shipped.outcome).toBe('printed');
    const waiting = a.link.sync.status();
    expect(waiting.depth).toBeGreaterThan(0);
    expect(siteHeader(waiting).text).toMatch(
      /^Site: not reachable \(\d+ changes waiting, \d+ s\)$/,
    );
    expect(waiting.problem?.message).toMatch(/does not answer \(connection refused\)/);
    await a.link.close();

    // The store answers again (same SQLite, right address): the outbox drains to zero.
    const again = new SiteLink(
      { url: site.stationUrl, stationId: 'st-4', stationName: 'Station 4' },
      { db: a.db, password: STATION_PASSWORD, pollMs: 20 },
    );
    again.start();
    await waitUntil(() => again.sync.status().state === 'synced');
    expect(again.sync.status()).toMatchObject({ depth: 0, oldestAt: null, problem: null });
    expect((await site.owner.searchLabels(scope, { query: 'LUM-10423' })).labels).toHaveLength(1);
    await again.close();
  });

  it('offlinePurchase refuse: with the store unreachable nothing is bought, and the packer is told why', async () => {
    const site = await siteDatabase(pgc.cluster);
    await site.owner.setSetting('offlinePurchase', 'refuse');
    const a = await siteStation(site, 'st-4', 'Station 4');
    await waitUntil(() => a.link.outbox.offlinePurchase() === 'refuse');
    await a.link.close();
    const down = new SiteLink(
      {
        url: site.stationUrl.replace(`:${pgc.cluster.port}/`, ':1/'),
        stationId: 'st-4',
        stationName: 'Station 4',
      },
      { db: a.db, password: STATION_PASSWORD },
    );
    a.link = down;
    const shipped = await a.workflow.ship(orderId(a, 'LUM-10424'), { stationUser: 'ana' });
    expect(shipped).toMatchObject({
      outcome: 'invalid',
      failure: { code: 'site-store-unreachable' },
    });
    expect(shipped.outcome === 'invalid' && shipped.failure.message).toMatch(
      /does not answer \(connection refused\)\. This site buys no label while the site store is away \(site IT set it so\), so nothing was bought/,
    );
    expect(await ledgerFor(sb.url, 'LUM-10424')).toEqual([]);
    // The header's reason says the station cannot buy, not that it "works on its own".
    const fact = 'The site store at shipping_station@db/site does not answer (connection refused).';
    const header = siteHeader(
      {
        ...down.sync.status(),
        state: 'unreachable',
        problem: { kind: 'unreachable', fact, message: `${fact} This station works on its own.` },
      },
      Date.now(),
      down.outbox.offlinePurchase(),
    );
    expect(header.problem).toMatch(
      /does not answer .*This site buys no label while the site store is away \(site IT set it so\): nothing can be bought here until it answers\.$/,
    );
    expect(header.problem).not.toMatch(/works on its own/);
    await down.close();
  });

  it('an order file dropped in a hot folder two stations watch is imported by exactly one of them', async () => {
    const site = await siteDatabase(pgc.cluster);
    const stations = [
      await siteStation(site, 'st-4', 'Station 4'),
      await siteStation(site, 'st-7', 'Station 7'),
    ];
    const folder = tempDir('hot-');
    const watchers = stations.map(
      (s) =>
        new OrderHotFolder({
          folder,
          orders: s.workflow.orders,
          scope,
          tenants: { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] },
          claimFile: (text, name) => s.link.claimFile(scope, text, name),
          stableMs: 50,
        }),
    );
    await Promise.all(watchers.map((w) => w.start()));
    writeFileSync(
      join(folder, 'wave-7.json'),
      JSON.stringify([
        {
          orderNumber: 'HOT-1',
          shipTo: {
            name: 'Bo',
            addressLine1: '2 Elm St',
            city: 'Austin',
            stateProvince: 'TX',
            postalCode: '78701',
            countryCode: 'US',
          },
          packages: [{ weightLbs: 1, items: [{ sku: 'C-1', name: 'Candle', quantity: 1 }] }],
        },
      ]),
    );
    await waitUntil(() =>
      readdirSync(join(folder, 'processed')).some((f) => f.endsWith('wave-7.json')),
    );
    await Promise.all(watchers.map((w) => w.idle()));
    await Promise.all(watchers.map((w) => w.stop()));
    const holders = stations.filter(
      (s) => s.workflow.orders.findByNumber(scope, 'HOT-1').length > 0,
    );
    expect(holders).toHaveLength(1);
    const { rows } = await site.owner.pool.query(`SELECT file_name FROM site_import_claims`);
    expect(rows).toEqual([{ file_name: 'wave-7.json' }]);
    await Promise.all(stations.map((s) => s.link.close()));
  });
});
