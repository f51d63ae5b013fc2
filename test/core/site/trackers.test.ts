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

/** A scope of the site's trackers for one test (each test its own profile id). */
const scopeOf = (profileId: string) => ({
  profileId,
  environment: 'sandbox' as const,
  tenantId: 'tnt_lumen',
});

/**
 * One station's tracker election in this process: its own SQLite file, platform client and
 * poller (1 s interval), on the test's site store. `roles` records each station's last role.
 */
async function electingStation(o: {
  siteUrl: string;
  id: string;
  scope: ReturnType<typeof scopeOf>;
  roles: Map<string, string>;
  onLeader?: (id: string) => void;
  client?: Parameters<typeof clientFor>[2];
}) {
  const { openDatabase } = await import('../../../src/core/storage/database.js');
  const { TrackerBoard, TrackerPoller, TrackerStore } =
    await import('../../../src/core/tracking/index.js');
  const { SiteTrackers } = await import('../../../src/core/site/trackers.js');
  const { trackingSync } = await import('../../../src/core/station/map.js');
  const db = openDatabase(join(tempDir(), 'station.db'));
  const { client } = clientFor(sb, DEMO.directBrand, o.client ?? {});
  const trackers = new TrackerStore(db);
  const poller = new TrackerPoller({
    client: { listTrackers: client.listTrackers.bind(client), environment: 'sandbox' },
    store: trackers,
    scope: o.scope,
    intervalMs: 1000,
    jitter: 0,
  });
  const t = new SiteTrackers({
    url: o.siteUrl,
    password: STATION_PASSWORD,
    stationId: o.id,
    scope: o.scope,
    poller,
    trackers,
    intervalMs: 1000,
    onRole: (role) => {
      o.roles.set(o.id, role);
      if (role === 'leader') o.onLeader?.(o.id);
    },
  });
  return {
    id: o.id,
    t,
    board: new TrackerBoard(db),
    /** What the header reads (src/core/station/map.ts), this station's connection being fine. */
    header: () =>
      trackingSync({
        trackers,
        trackingScope: o.scope,
        client: { connectivity: { capability: () => ({ state: 'online' }) } },
      }),
    async stop() {
      await t.stop();
      db.close();
    },
  };
}

/** Whether `cond` holds within `ms` (checked every 25 ms). */
async function within(cond: () => boolean, ms = 15_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
  return cond();
}

describe('tracker leadership and its connection', () => {
  it('a leader whose store connection is cut stops leading, and another station takes over', async () => {
    const site = await siteDatabase(pgc.cluster);
    const scope = scopeOf('lumen-chicago-1');
    const roles = new Map<string, string>();
    const made = await Promise.all(
      ['st-a', 'st-b'].map((id) => electingStation({ siteUrl: site.stationUrl, id, scope, roles })),
    );
    for (const m of made) m.t.start();
    expect(await within(() => [...roles.values()].includes('leader'))).toBe(true);
    const leader = [...roles.entries()].find(([, r]) => r === 'leader')![0];
    const other = made.find((m) => m.id !== leader)!.id;
    // Site IT (or the network) ends the leader's session: the lock goes with it.
    const { rowCount } = await site.owner.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
      [`shipping-station ${leader} trackers`],
    );
    expect(rowCount).toBe(1);
    expect(await within(() => roles.get(other) === 'leader')).toBe(true);
    expect(roles.get(leader)).not.toBe('leader');
    for (const m of made) await m.stop();
  }, 30_000);

  it('a leader that cannot poll (no client secret at this station) hands the site to one that can', async () => {
    const { SecretMissingError } = await import('../../../src/core/profiles/secret-vault.js');
    const site = await siteDatabase(pgc.cluster);
    const scope = scopeOf('lumen-chicago-2');
    const { client: buyer } = clientFor(sb, DEMO.directBrand);
    const bought = await buyLumenLabel(buyer, 'ORD-HANDOVER');
    const roles = new Map<string, string>();
    const led = new Set<string>();
    const station = (id: string, secret: boolean) =>
      electingStation({
        siteUrl: site.stationUrl,
        id,
        scope,
        roles,
        onLeader: (leader) => led.add(leader),
        client: secret
          ? {}
          : {
              getSecret: () => {
                throw new SecretMissingError(`No client secret for profile "${scope.profileId}"`);
              },
            },
      });
    // The station without its secret starts first and takes the lock.
    const broken = await station('st-nosecret', false);
    broken.t.start();
    expect(await within(() => led.has('st-nosecret'))).toBe(true);
    const healthy = await station('st-ok', true);
    healthy.t.start();
    // Its pass fails for a reason of its own: it lets go, the healthy station leads and polls.
    expect(await within(() => roles.get('st-ok') === 'leader')).toBe(true);
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
    expect(await within(() => broken.board.get(scope, bought.trackingNumber) !== null)).toBe(true);
    for (const m of [broken, healthy]) await m.stop();
  }, 40_000);

  it("a follower says Tracking delayed when the site's poll fails at the leader, and clears when it answers", async () => {
    const site = await siteDatabase(pgc.cluster);
    const scope = scopeOf('lumen-chicago-3');
    const roles = new Map<string, string>();
    const station = (id: string) => electingStation({ siteUrl: site.stationUrl, id, scope, roles });
    const leader = await station('st-lead');
    leader.t.start();
    expect(await within(() => roles.get('st-lead') === 'leader', 20_000)).toBe(true);
    const follower = await station('st-follow');
    follower.t.start();
    expect(await within(() => roles.get('st-follow') === 'follower', 20_000)).toBe(true);
    expect(await within(() => follower.header().lastSuccessAt !== null, 20_000)).toBe(true);
    expect(follower.header().delayed).toBe(false);
    try {
      // The platform's tracker list fails: the leader's passes fail, and the follower says so.
      sb.sandbox.faults.add({
        method: 'GET',
        path: '/api/v1/trackers',
        kind: 'status',
        status: 503,
      });
      expect(await within(() => follower.header().delayed, 20_000)).toBe(true);
      expect(follower.header().message).toMatch(
        /^Tracking delayed \(last updated .+\): the site's tracker poll at st-lead failed: .+ Packing and labels are not affected/,
      );
    } finally {
      sb.sandbox.faults.clear();
    }
    // The next pass succeeds: the follower's header clears.
    expect(await within(() => !follower.header().delayed, 20_000)).toBe(true);
    expect(roles.get('st-follow')).toBe('follower');
    for (const m of [leader, follower]) await m.stop();
  }, 60_000);
});
