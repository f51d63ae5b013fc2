import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { usePostgres } from '../../support/use-postgres.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { ledgerFor } from '../packing/support/harness.js';
import { siteDatabase, STATION_PASSWORD, type SiteDatabase } from './support.js';

const sb = useSandbox();
const pgc = usePostgres();
const repo = join(import.meta.dirname, '../../..');
const childScript = join(import.meta.dirname, 'fixtures/site-station-child.ts');
const scope = { profileId: 'lumen-chicago-1', environment: 'sandbox' as const };

type Line = Record<string, unknown>;

/** A station process of the site, driven line by line (fixtures/site-station-child.ts). */
interface StationProcess {
  send(command: string): void;
  /** The next JSON line that has `key` (earlier ones are kept for later calls). */
  next(key: string): Promise<Line>;
  kill(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startStation(env: Record<string, string>): StationProcess {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', childScript], {
    cwd: repo,
    env: {
      ...process.env,
      SANDBOX_URL: sb.url,
      STATION_SECRET_SITE_STORE: STATION_PASSWORD,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  const waiting: { key: string; resolve: (l: Line) => void }[] = [];
  let stderr = '';
  let buffer = '';
  const deliver = () => {
    for (const w of [...waiting]) {
      const i = lines.findIndex((l) => w.key in l);
      if (i >= 0) {
        const [line] = lines.splice(i, 1);
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve(line!);
      }
    }
  };
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const p of parts) if (p.startsWith('{')) lines.push(JSON.parse(p) as Line);
    deliver();
  });
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return {
    send: (command) => proc.stdin!.write(`${command}\n`),
    next: (key) =>
      Promise.race([
        new Promise<Line>((resolve) => {
          waiting.push({ key, resolve });
          deliver();
        }),
        exited.then((e) => {
          throw new Error(`station exited (${e.code ?? e.signal}) before "${key}": ${e.stderr}`);
        }),
      ]),
    kill: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
    exited,
  };
}

/** Two station processes on one site store and one sandbox, each with its own SQLite. */
async function twoStations(
  site: SiteDatabase,
  url = site.stationUrl,
  extra: Record<string, string> = {},
) {
  const dirs = [tempDir(), tempDir()];
  const stations = [
    startStation({
      STATION_DB: join(dirs[0]!, 'station.db'),
      SITE_URL: url,
      STATION_ID: 'st-4',
      STATION_NAME: 'Station 4',
      ...extra,
    }),
    startStation({
      STATION_DB: join(dirs[1]!, 'station.db'),
      SITE_URL: url,
      STATION_ID: 'st-7',
      STATION_NAME: 'Station 7',
      ...extra,
    }),
  ] as const;
  await Promise.all(stations.map((s) => s.next('ready')));
  return { stations, dbFiles: dirs.map((d) => join(d, 'station.db')) };
}

async function siteCounts(site: SiteDatabase) {
  const { rows } = await site.owner.pool.query<{ labels: number; purchases: number }>(
    `SELECT (SELECT count(*) FROM site_labels)::int AS labels, (SELECT count(*) FROM site_purchases)::int AS purchases`,
  );
  return rows[0]!;
}

/**
 * Stations cut off from a store they have reached (its address through a relay that is then
 * cut): an outage, under the site's offline rule. A store a station has never reached at its
 * address buys nothing (a mistyped address, not an outage).
 */
async function cutOff(stations: readonly StationProcess[], proxy: TcpProxy) {
  for (const s of stations) s.send('drain');
  await Promise.all(stations.map((s) => s.next('drained')));
  await proxy.cut();
}
const viaProxy = (site: SiteDatabase, proxy: TcpProxy) =>
  site.stationUrl.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`);

describe('several station processes on one site store and one sandbox', () => {
  it('the same order scanned at two stations at once: one label in the sandbox ledger', async () => {
    const site = await siteDatabase(pgc.cluster);
    const { stations } = await twoStations(site);
    stations[0].send('ship LUM-10421 ana');
    stations[1].send('ship LUM-10421 bo');
    const results = await Promise.all(stations.map((s) => s.next('shipped')));
    expect(results.map((r) => r.outcome).sort()).toEqual(['invalid', 'printed']);
    // Bought under the store's claim: nothing to check later.
    expect(results.find((r) => r.outcome === 'printed')!.unclaimed).toBe(false);
    const refused = results.find((r) => r.outcome === 'invalid')!;
    expect(refused.code).toBe('order-claimed-elsewhere');
    expect(refused.message).toMatch(
      /^Order LUM-10421 (was labelled|is being labelled) at Station [47]/,
    );
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(1);
    for (const s of stations) s.send('exit');
    await Promise.all(stations.map((s) => s.exited));
  });

  it('a station killed with SIGKILL in the middle of syncing: nothing lost or doubled after restart', async () => {
    const site = await siteDatabase(pgc.cluster);
    const dbFile = join(tempDir(), 'station.db');
    // Three labels bought while the store it reached is unreachable: they wait in the outbox.
    const proxy = await startTcpProxy(pgc.cluster.port);
    const offline = startStation({
      STATION_DB: dbFile,
      SITE_URL: viaProxy(site, proxy),
      STATION_ID: 'st-4',
      STATION_NAME: 'Station 4',
    });
    await offline.next('ready');
    await cutOff([offline], proxy);
    const purchasesSent = async () =>
      Number(
        (await site.owner.pool.query<{ n: number }>('SELECT count(*) AS n FROM site_purchases'))
          .rows[0]!.n,
      );
    expect(await purchasesSent()).toBe(0);
    for (const order of ['LUM-10422', 'LUM-10423', 'LUM-10424']) {
      offline.send(`ship ${order} ana`);
      expect((await offline.next('shipped')).outcome).toBe('printed');
    }
    offline.send('exit');
    await offline.exited;

    // Restarted against the store: killed after the store committed a batch, before the ack.
    const dying = startStation({
      STATION_DB: dbFile,
      SITE_URL: site.stationUrl,
      STATION_ID: 'st-4',
      STATION_NAME: 'Station 4',
      PAUSE_AFTER_APPLY: '1',
      BATCH_SIZE: '2',
    });
    await dying.next('applied');
    await dying.kill();
    expect((await dying.exited).signal).toBe('SIGKILL');
    const partial = await siteCounts(site);
    expect(await purchasesSent()).toBeGreaterThan(0);
    expect(partial.labels).toBeLessThan(3);

    // Restarted again: the outbox replays the unacknowledged batch and the rest, once each.
    const again = startStation({
      STATION_DB: dbFile,
      SITE_URL: site.stationUrl,
      STATION_ID: 'st-4',
      STATION_NAME: 'Station 4',
    });
    await again.next('ready');
    again.send('drain');
    await again.next('drained');
    again.send('exit');
    await again.exited;
    const db = openDatabase(dbFile);
    const local = db
      .prepare<[], { labels: number; purchases: number }>(
        `SELECT (SELECT count(*) FROM labels) AS labels, (SELECT count(*) FROM label_purchases) AS purchases`,
      )
      .get()!;
    db.close();
    expect(local).toEqual({ labels: 3, purchases: 3 });
    expect(await siteCounts(site)).toEqual(local);
    const found = await site.owner.searchLabels(scope, { stationId: 'st-4' });
    expect(found.labels.map((l) => l.orderNumber).sort()).toEqual([
      'LUM-10422',
      'LUM-10423',
      'LUM-10424',
    ]);
  });

  it('the store stopped for a while and started again: both outboxes drain, lag back to zero', async () => {
    const site = await siteDatabase(pgc.cluster);
    const { stations } = await twoStations(site);
    // Both have reached the store before it stops: an outage (the offline rule), not a store
    // never reached at its address (which buys nothing).
    for (const s of stations) s.send('drain');
    await Promise.all(stations.map((s) => s.next('drained')));
    pgc.cluster.stop();
    try {
      stations[0].send('ship LUM-10423 ana');
      stations[1].send('ship LUM-10426 bo');
      for (const r of await Promise.all(stations.map((s) => s.next('shipped'))))
        expect(r.outcome).toBe('printed');
    } finally {
      pgc.cluster.start();
    }
    for (const s of stations) s.send('drain');
    await Promise.all(stations.map((s) => s.next('drained')));
    expect((await site.owner.searchLabels(scope, { query: 'LUM-10423' })).labels[0]).toMatchObject({
      stationName: 'Station 4',
    });
    expect((await site.owner.searchLabels(scope, { query: 'LUM-10426' })).labels[0]).toMatchObject({
      stationName: 'Station 7',
    });
    for (const s of stations) s.send('exit');
    await Promise.all(stations.map((s) => s.exited));
    // Each station checked in with an empty outbox as it left: no lag anywhere on the site.
    const lag = await site.owner.stations();
    expect(lag.map((s) => [s.stationId, s.depth, s.oldestAt])).toEqual([
      ['st-4', 0, null],
      ['st-7', 0, null],
    ]);
  });

  it('a partition where both stations buy the same order: exactly one possible-double-label item, seen at both', async () => {
    const site = await siteDatabase(pgc.cluster);
    const proxy = await startTcpProxy(pgc.cluster.port);
    const cut = await twoStations(site, viaProxy(site, proxy));
    await cutOff(cut.stations, proxy);
    for (const s of cut.stations) s.send('ship LUM-10425 ana');
    // Each bought without the store's word, and says so (Pack shows it beside the label).
    for (const r of await Promise.all(cut.stations.map((s) => s.next('shipped'))))
      expect(r).toMatchObject({ outcome: 'printed', unclaimed: true });
    expect(await ledgerFor(sb.url, 'LUM-10425')).toHaveLength(2);
    for (const s of cut.stations) s.send('exit');
    await Promise.all(cut.stations.map((s) => s.exited));

    // The partition heals: the same stations (same SQLite files) reach the store again.
    const healed = [
      startStation({
        STATION_DB: cut.dbFiles[0]!,
        SITE_URL: site.stationUrl,
        STATION_ID: 'st-4',
        STATION_NAME: 'Station 4',
      }),
      startStation({
        STATION_DB: cut.dbFiles[1]!,
        SITE_URL: site.stationUrl,
        STATION_ID: 'st-7',
        STATION_NAME: 'Station 7',
      }),
    ];
    for (const s of healed) s.send('drain');
    await Promise.all(healed.map((s) => s.next('drained')));
    for (const s of healed) s.send('attention');
    const seen = await Promise.all(healed.map((s) => s.next('attention')));
    for (const view of seen) {
      const items = (
        view.attention as {
          kind: string;
          orderNumber: string;
          message: string;
          labels: { stationName: string }[];
        }[]
      ).filter((i) => i.kind === 'possible-double-label');
      expect(items).toHaveLength(1);
      expect(items[0]!.orderNumber).toBe('LUM-10425');
      // When each station bought it, and that the second did so without the store's claim.
      expect(items[0]!.message).toMatch(
        /^Possible double label: order LUM-10425 was labelled at Station [47] \(\d\d:\d\d\) and at Station [47] \(\d\d:\d\d\), Station [47] at least without the site store's order claim \(it could not reach the store, or the store refused its login\)\. Keep one label and void the other at the carrier, then mark it voided in History at the station that bought it \(the console then leaves it out of the day's labels and cost\)\.$/,
      );
      expect(items[0]!.labels.map((l) => l.stationName).sort()).toEqual(['Station 4', 'Station 7']);
    }
    // A lead resolves it; then the store is restored from a backup taken after, and both
    // stations send their history again: the item is not raised a second time.
    await site.owner.pool.query(
      `UPDATE site_attention SET resolved_at = now(), resolved_by = 'Bo', resolution = 'kept one'`,
    );
    await site.owner.pool.query(
      `SELECT site_apply_batch(p.station_id, p.station_id, jsonb_build_array(jsonb_build_object(
                'kind', 'purchase', 'row', jsonb_build_object('purchaseId', p.purchase_id,
                'profileId', p.profile_id, 'environment', p.environment, 'tenantId', p.tenant_id,
                'orderNumber', p.order_number, 'orderReference', p.order_reference,
                'state', p.state, 'packer', p.packer, 'createdAt', p.created_at,
                'updatedAt', p.updated_at))))
         FROM site_purchases p WHERE p.order_number = 'LUM-10425'`,
    );
    const open = await site.owner.pool.query(
      `SELECT id FROM site_attention WHERE order_number = 'LUM-10425' AND resolved_at IS NULL`,
    );
    expect(open.rows).toEqual([]);
    for (const s of healed) s.send('exit');
    await Promise.all(healed.map((s) => s.exited));
  });
});
