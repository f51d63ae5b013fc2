import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { usePostgres } from '../../support/use-postgres.js';
import { buyLumenLabel, clientFor } from '../platform/support.js';
import { startChild, type ChildStation } from './processes.js';
import { siteDatabase, STATION_PASSWORD } from './support.js';

const sb = useSandbox();
const pgc = usePostgres();
const child = join(import.meta.dirname, 'fixtures/site-tracker-child.ts');
const INTERVAL = 1500;

const trackerCalls = (from: number, to = Number.POSITIVE_INFINITY) =>
  sb.sandbox
    .requests()
    .filter((r) => r.method === 'GET' && r.path === '/api/v1/trackers')
    .filter((r) => r.at >= from && r.at < to)
    .map((r) => r.at);

/** Asks a station for a tracker's status until it is `want` (or the deadline passes). */
async function statusAt(s: ChildStation, tn: string, want: string, deadlineMs: number) {
  const until = Date.now() + deadlineMs;
  let last: unknown = null;
  while (Date.now() < until) {
    s.send(`status ${tn}`);
    last = (await s.next('status', (l) => l.tn === tn)).status;
    if (last === want) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

describe('one tracker poller per site (three station processes, one store, one sandbox)', () => {
  it('polls once per interval whatever the stations; a killed leader is replaced within an interval', async () => {
    const site = await siteDatabase(pgc.cluster);
    const leaders: string[] = [];
    const stations = ['st-1', 'st-2', 'st-3'].map((id) => {
      const s = startChild(child, {
        STATION_DB: join(tempDir(), 'station.db'),
        SANDBOX_URL: sb.url,
        SITE_URL: site.stationUrl,
        STATION_SECRET_SITE_STORE: STATION_PASSWORD,
        STATION_ID: id,
        INTERVAL_MS: String(INTERVAL),
      });
      // Every leadership any station takes, in order.
      const watch = (): void =>
        void s
          .next('role', (l) => l.role === 'leader')
          .then((l) => {
            leaders.push(String(l.station));
            watch();
          })
          .catch(() => {});
      watch();
      return { id, s };
    });
    const until = async (cond: () => boolean, ms: number) => {
      const end = Date.now() + ms;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return cond();
    };
    expect(await until(() => leaders.length === 1, 20_000)).toBe(true);
    const first = leaders[0]!;

    // A label bought and delivered: every station's own SQLite shows it (the board reads it).
    const { client } = clientFor(sb, DEMO.directBrand);
    const label = await buyLumenLabel(client, 'ORD-SITE-T1');
    const res = await fetch(`${sb.url}/sandbox/trackers/${label.trackingNumber}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'IN_TRANSIT' }),
    });
    expect(res.status).toBe(200);
    for (const { s } of stations)
      expect(await statusAt(s, label.trackingNumber, 'IN_TRANSIT', 4 * INTERVAL)).toBe(
        'IN_TRANSIT',
      );

    // Four intervals with three stations: one pass (one page) per interval.
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 4 * INTERVAL));
    const steady = trackerCalls(t0, Date.now());
    expect(steady.length).toBeGreaterThanOrEqual(3);
    expect(steady.length).toBeLessThanOrEqual(5);

    // The leader is killed mid-way: another station takes over and keeps the cadence.
    const killedAt = Date.now();
    await stations.find((x) => x.id === first)!.s.kill();
    expect(await until(() => leaders.length === 2, 2 * INTERVAL)).toBe(true);
    expect(leaders[1]).not.toBe(first);
    const tookOverIn = Date.now() - killedAt;
    expect(tookOverIn).toBeLessThan(INTERVAL);
    await new Promise((r) => setTimeout(r, 4 * INTERVAL));
    const all = trackerCalls(t0);
    const gaps = all.slice(1).map((at, i) => ({ from: all[i]!, gap: at - all[i]! }));
    // Never two passes in one interval.
    expect(Math.min(...gaps.map((g) => g.gap))).toBeGreaterThan(INTERVAL * 0.5);
    // Never a pass skipped: one interval apart (a check's tick of slack), except across the
    // kill, where the gap is what was left of the dead leader's interval (up to one, and a tick)
    // plus the take-over (under one interval, checked above): under two intervals and a tick.
    const tick = INTERVAL / 4;
    for (const { from, gap } of gaps) {
      const acrossKill = from <= killedAt && from + gap >= killedAt;
      expect(gap).toBeLessThan(acrossKill ? 2 * INTERVAL + 2 * tick : INTERVAL + 2 * tick);
    }
    const after = trackerCalls(killedAt, Date.now());
    expect(after.length).toBeLessThanOrEqual(Math.ceil((Date.now() - killedAt) / INTERVAL) + 1);

    // The new leader's statuses still reach the surviving follower.
    const res2 = await fetch(`${sb.url}/sandbox/trackers/${label.trackingNumber}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'DELIVERED' }),
    });
    expect(res2.status).toBe(200);
    for (const { s, id } of stations.filter((x) => x.id !== first))
      expect([id, await statusAt(s, label.trackingNumber, 'DELIVERED', 4 * INTERVAL)]).toEqual([
        id,
        'DELIVERED',
      ]);

    for (const { s, id } of stations) if (id !== first) s.send('exit');
    await Promise.all(stations.filter((x) => x.id !== first).map((x) => x.s.exited));
  }, 90_000);
});

describe('tracker leadership and its connection', () => {
  it('a leader whose store connection is cut stops leading, and another station takes over', async () => {
    const { openDatabase } = await import('../../../src/core/storage/database.js');
    const { TrackerPoller, TrackerStore } = await import('../../../src/core/tracking/index.js');
    const { SiteTrackers } = await import('../../../src/core/site/trackers.js');
    const site = await siteDatabase(pgc.cluster);
    const scope = {
      profileId: 'lumen-chicago-1',
      environment: 'sandbox' as const,
      tenantId: 'tnt_lumen',
    };
    const roles = new Map<string, string>();
    const made = ['st-a', 'st-b'].map((id) => {
      const db = openDatabase(join(tempDir(), 'station.db'));
      const { client } = clientFor(sb, DEMO.directBrand);
      const trackers = new TrackerStore(db);
      const poller = new TrackerPoller({
        client: { listTrackers: client.listTrackers.bind(client), environment: 'sandbox' },
        store: trackers,
        scope,
        intervalMs: 1000,
        jitter: 0,
      });
      const t = new SiteTrackers({
        url: site.stationUrl,
        password: STATION_PASSWORD,
        stationId: id,
        scope,
        poller,
        trackers,
        intervalMs: 1000,
        onRole: (role) => roles.set(id, role),
      });
      t.start();
      return { id, t, db };
    });
    const until = async (cond: () => boolean) => {
      const end = Date.now() + 15_000;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return cond();
    };
    expect(await until(() => [...roles.values()].includes('leader'))).toBe(true);
    const leader = [...roles.entries()].find(([, r]) => r === 'leader')![0];
    const other = made.find((m) => m.id !== leader)!.id;
    // Site IT (or the network) ends the leader's session: the lock goes with it.
    const { rowCount } = await site.owner.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
      [`shipping-station ${leader} trackers`],
    );
    expect(rowCount).toBe(1);
    expect(await until(() => roles.get(other) === 'leader')).toBe(true);
    expect(roles.get(leader)).not.toBe('leader');
    for (const m of made) {
      await m.t.stop();
      m.db.close();
    }
  }, 30_000);
  it('a leader that cannot poll (no client secret at this station) hands the site to one that can', async () => {
    const { openDatabase } = await import('../../../src/core/storage/database.js');
    const { TrackerBoard, TrackerPoller, TrackerStore } =
      await import('../../../src/core/tracking/index.js');
    const { SiteTrackers } = await import('../../../src/core/site/trackers.js');
    const { SecretMissingError } = await import('../../../src/core/profiles/secret-vault.js');
    const site = await siteDatabase(pgc.cluster);
    const scope = {
      profileId: 'lumen-chicago-2',
      environment: 'sandbox' as const,
      tenantId: 'tnt_lumen',
    };
    const { client: buyer } = clientFor(sb, DEMO.directBrand);
    const bought = await buyLumenLabel(buyer, 'ORD-HANDOVER');
    const roles = new Map<string, string>();
    const led = new Set<string>();
    const station = (id: string, secret: boolean) => {
      const db = openDatabase(join(tempDir(), 'station.db'));
      const { client } = clientFor(
        sb,
        DEMO.directBrand,
        secret
          ? {}
          : {
              getSecret: () => {
                throw new SecretMissingError(`No client secret for profile "${scope.profileId}"`);
              },
            },
      );
      const trackers = new TrackerStore(db);
      const poller = new TrackerPoller({
        client: { listTrackers: client.listTrackers.bind(client), environment: 'sandbox' },
        store: trackers,
        scope,
        intervalMs: 1000,
        jitter: 0,
      });
      const t = new SiteTrackers({
        url: site.stationUrl,
        password: STATION_PASSWORD,
        stationId: id,
        scope,
        poller,
        trackers,
        intervalMs: 1000,
        onRole: (role) => {
          roles.set(id, role);
          if (role === 'leader') led.add(id);
        },
      });
      return { id, t, db, board: new TrackerBoard(db) };
    };
    const until = async (cond: () => boolean) => {
      const end = Date.now() + 15_000;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return cond();
    };
    // The station without its secret starts first and takes the lock.
    const broken = station('st-nosecret', false);
    broken.t.start();
    expect(await until(() => led.has('st-nosecret'))).toBe(true);
    const healthy = station('st-ok', true);
    healthy.t.start();
    // Its pass fails for a reason of its own: it lets go, the healthy station leads and polls.
    expect(await until(() => roles.get('st-ok') === 'leader')).toBe(true);
    expect(roles.get('st-nosecret')).toBe('follower');
    const written = async () =>
      (
        await site.owner.pool.query(
          `SELECT count(*)::int AS n FROM site_trackers WHERE profile_id = $1 AND tracking_number = $2`,
          [scope.profileId, bought.trackingNumber],
        )
      ).rows[0].n as number;
    const end = Date.now() + 15_000;
    while ((await written()) === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await written()).toBe(1);
    // And the station without a secret still gets the site's trackers on its own board.
    expect(await until(() => broken.board.get(scope, bought.trackingNumber) !== null)).toBe(true);
    for (const m of [broken, healthy]) {
      await m.t.stop();
      m.db.close();
    }
  }, 40_000);
  it("a follower says Tracking delayed when the site's poll fails at the leader, and clears when it answers", async () => {
    const { openDatabase } = await import('../../../src/core/storage/database.js');
    const { TrackerPoller, TrackerStore } = await import('../../../src/core/tracking/index.js');
    const { SiteTrackers } = await import('../../../src/core/site/trackers.js');
    const { trackingSync } = await import('../../../src/core/station/map.js');
    const site = await siteDatabase(pgc.cluster);
    const scope = {
      profileId: 'lumen-chicago-3',
      environment: 'sandbox' as const,
      tenantId: 'tnt_lumen',
    };
    const roles = new Map<string, string>();
    const station = (id: string) => {
      const db = openDatabase(join(tempDir(), 'station.db'));
      const { client } = clientFor(sb, DEMO.directBrand);
      const trackers = new TrackerStore(db);
      const poller = new TrackerPoller({
        client: { listTrackers: client.listTrackers.bind(client), environment: 'sandbox' },
        store: trackers,
        scope,
        intervalMs: 1000,
        jitter: 0,
      });
      const t = new SiteTrackers({
        url: site.stationUrl,
        password: STATION_PASSWORD,
        stationId: id,
        scope,
        poller,
        trackers,
        intervalMs: 1000,
        onRole: (role) => roles.set(id, role),
      });
      // What the header reads (src/core/station/map.ts), this station's connection being fine.
      const header = () =>
        trackingSync({
          trackers,
          trackingScope: scope,
          client: { connectivity: { capability: () => ({ state: 'online' }) } },
        });
      return { id, t, db, header };
    };
    const until = async (cond: () => boolean) => {
      const end = Date.now() + 20_000;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return cond();
    };
    const leader = station('st-lead');
    leader.t.start();
    expect(await until(() => roles.get('st-lead') === 'leader')).toBe(true);
    const follower = station('st-follow');
    follower.t.start();
    expect(await until(() => roles.get('st-follow') === 'follower')).toBe(true);
    expect(await until(() => follower.header().lastSuccessAt !== null)).toBe(true);
    expect(follower.header().delayed).toBe(false);
    try {
      // The platform's tracker list fails: the leader's passes fail, and the follower says so.
      sb.sandbox.faults.add({
        method: 'GET',
        path: '/api/v1/trackers',
        kind: 'status',
        status: 503,
      });
      expect(await until(() => follower.header().delayed)).toBe(true);
      expect(follower.header().message).toMatch(
        /^Tracking delayed \(last updated .+\): the site's tracker poll at st-lead failed: .+ Packing and labels are not affected/,
      );
    } finally {
      sb.sandbox.faults.clear();
    }
    // The next pass succeeds: the follower's header clears.
    expect(await until(() => !follower.header().delayed)).toBe(true);
    expect(roles.get('st-follow')).toBe('follower');
    for (const m of [leader, follower]) {
      await m.t.stop();
      m.db.close();
    }
  }, 60_000);
});
