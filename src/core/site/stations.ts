import type pg from 'pg';
import { CONSOLE_CHANNEL, listed, type Heartbeat } from './console.js';
import type { ConsolePlatformView } from '../../shared/features/site-services.js';
import { SiteStoreError } from './errors.js';
import { SITE_SCHEMA_RETIRED } from './schema.js';
import { whenSaid } from './when-said.js';

/** A network printer of a station, as the site knows it. */
export interface SitePrinter {
  printerId: string;
  name: string;
  host: string;
  port: number;
  dpi: number;
}

/** A station's own queues, reported at each check-in for the site-wide view. */
export interface StationQueues {
  shipments: number;
  printJobs: number;
  needsAttention: number;
}

/** The check-in's upsert: the outbox and queues, and `extra` columns (the heartbeat's) after them. */
function checkInStatement(name: string, extra: readonly string[]): { name: string; text: string } {
  const columns = [
    'outbox_depth',
    'outbox_oldest_at',
    'queued_shipments',
    'queued_print_jobs',
    'needs_attention',
    ...extra,
  ];
  const jsonb = new Set(['printers', 'platform']);
  const params = columns.map((c, i) => `$${i + 3}${jsonb.has(c) ? '::jsonb' : ''}`);
  return {
    name,
    text: `INSERT INTO site_stations (station_id, station_name, last_seen_at, ${columns.join(', ')})
           VALUES ($1, $2, now(), ${params.join(', ')})
           ON CONFLICT (station_id) DO UPDATE SET station_name = EXCLUDED.station_name,
             last_seen_at = now(), ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
           ${CHECK_IN_RETURNING}`,
  };
}

/**
 * What each check-in reads back: the row's time before it (a sub-select sees the statement's
 * snapshot: written after this station's own last check-in means another running station
 * checks in under the same id), which database this is (the server's system identifier and the
 * database's OID: a store restored into the same name is another, and so is one moved to a new
 * server under the same address, whose database may well have the old one's OID), and the
 * schema's version (site IT's migrate is seen by the next
 * check-in, not a restart), and the site's users' version (how many, and the last change): a user
 * disabled or changed by site IT is copied at the next check-in, not at the next full read.
 */
const CHECK_IN_RETURNING = `RETURNING last_seen_at AS now_at,
  (SELECT s.last_seen_at FROM site_stations s WHERE s.station_id = $1) AS before_at,
  (SELECT c.system_identifier::text || ':' || d.oid::text FROM pg_control_system() c, pg_database d
    WHERE d.datname = current_database()) AS db_oid,
  (SELECT max(version) FROM site_schema_migrations) AS schema,
  (SELECT count(*)::text || ' ' || coalesce(max(updated_at)::text, '') FROM site_users) AS users_version`;
const HEARTBEAT = ['app_version', 'signed_in_user', 'printers'];
const CHECK_IN = checkInStatement('site-check-in', []);
const CHECK_IN_BEAT = checkInStatement('site-check-in-beat', HEARTBEAT);
/** With the platform's state: a store at site schema 5 or later. */
const CHECK_IN_PLATFORM = checkInStatement('site-check-in-beat-platform', [
  ...HEARTBEAT,
  'platform',
]);

/**
 * The site store's stations: each one's check-in (lag, queues, heartbeat) and its network
 * printers, and the site-wide lists of both. SiteStore delegates to it; `run` and `tx` turn a
 * pg error into words for site IT.
 */
export class SiteStations {
  /** The store's time of this station's own last check-in (see checkIn). */
  private lastCheckIn: Date | null = null;
  /** The store's database (`<server system identifier>:<OID>`) as the last check-in found it. */
  database: string | null = null;
  /**
   * The store's schema version as last read (SiteSync's preparation, then every check-in): what
   * this station may write (SITE_SCHEMA_OLDEST). null: not read yet (nothing newer is written).
   */
  schema: number | null = null;
  /** The site's users as the last check-in found them (their count and last change). */
  usersVersion: string | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
    private readonly tx: <T>(work: (c: pg.PoolClient) => Promise<T>) => Promise<T>,
    private readonly station: { stationId: string; stationName: string },
  ) {}

  /**
   * The station checks in: its name, how far behind its outbox is and its queues (for every
   * console), and with `beat` its heartbeat (version, who is signed in, its label printer), all
   * in one statement. `notify`: consoles are told (NOTIFY site_console) that what they show of
   * this station changed.
   */
  async checkIn(
    outbox: { depth: number; oldestAt: string | null },
    queues: StationQueues = { shipments: 0, printJobs: 0, needsAttention: 0 },
    beat?: Heartbeat,
    notify = false,
  ): Promise<void> {
    // The platform's state (site migration 5) only where the store has its column.
    const platform = beat?.platform !== undefined && (this.schema ?? 0) >= 5;
    const values: unknown[] = [
      this.station.stationId,
      this.station.stationName,
      outbox.depth,
      outbox.oldestAt,
      queues.shipments,
      queues.printJobs,
      queues.needsAttention,
    ];
    if (beat) values.push(beat.appVersion, beat.signedInUser, JSON.stringify(beat.printers));
    if (beat && platform) values.push(JSON.stringify(beat.platform));
    const statement = beat ? (platform ? CHECK_IN_PLATFORM : CHECK_IN_BEAT) : CHECK_IN;
    await this.run(async () => {
      const { rows } = await this.pool.query<{
        now_at: Date;
        before_at: Date | null;
        db_oid: string;
        schema: number | null;
        users_version: string | null;
      }>({ ...statement, values });
      const row = rows[0];
      const mine = this.lastCheckIn;
      if (row) {
        this.lastCheckIn = row.now_at;
        this.database = row.db_oid;
        if (row.schema !== null) this.schema = Number(row.schema);
        this.usersVersion = row.users_version;
      }
      if (row?.before_at && mine && row.before_at.getTime() > mine.getTime())
        throw new SiteStoreError({
          kind: 'duplicate-station',
          message: `Another running station checks in to the site store as ${this.station.stationName} (${this.station.stationId}), last at ${whenSaid(row.before_at)}: a copied provisioning file or disk image. This station sends nothing to the site and buys nothing until each station has its own station id (Settings → Site store, or "stationId" in its provisioning file).`,
        });
      if (notify)
        await this.pool.query('SELECT pg_notify($1, $2)', [
          CONSOLE_CHANNEL,
          this.station.stationId,
        ]);
    });
  }

  /**
   * Registers this station's network printers (label role) for the site; printers it no longer
   * has are marked inactive, never deleted.
   */
  async registerPrinters(printers: readonly SitePrinter[]): Promise<void> {
    await this.tx(async (c) => {
      for (const p of printers)
        await c.query({
          name: 'site-register-printer',
          text: `INSERT INTO site_printers (station_id, printer_id, name, host, port, dpi, active, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, true, now())
                 ON CONFLICT (station_id, printer_id) DO UPDATE SET name = EXCLUDED.name, host = EXCLUDED.host,
                   port = EXCLUDED.port, dpi = EXCLUDED.dpi, active = true, updated_at = now()
                 WHERE (site_printers.name, site_printers.host, site_printers.port, site_printers.dpi, site_printers.active)
                   IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.host, EXCLUDED.port, EXCLUDED.dpi, true)`,
          values: [this.station.stationId, p.printerId, p.name, p.host, p.port, p.dpi],
        });
      await c.query(
        `UPDATE site_printers SET active = false, updated_at = now()
          WHERE station_id = $1 AND active AND NOT (printer_id = ANY($2))`,
        [this.station.stationId, printers.map((p) => p.printerId)],
      );
    });
  }

  /**
   * The network printers of every station of the site that still has them, with the profile
   * each station's heartbeat says it packs under (null: not said; see inProfileScope).
   */
  async printers(): Promise<
    (SitePrinter & {
      stationId: string;
      stationName: string;
      profile: NonNullable<ConsolePlatformView['profile']> | null;
    })[]
  > {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        station_id: string;
        station_name: string;
        printer_id: string;
        name: string;
        host: string;
        port: number;
        dpi: number;
        profile: NonNullable<ConsolePlatformView['profile']> | null;
      }>(
        // to_jsonb: a store before site migration 5 has no platform column (no profile said).
        `SELECT p.*, COALESCE(s.station_name, p.station_id) AS station_name,
                to_jsonb(s) -> 'platform' -> 'profile' AS profile
           FROM site_printers p LEFT JOIN site_stations s ON s.station_id = p.station_id
          WHERE p.active ORDER BY station_name, p.name`,
      );
      return rows.map((r) => ({
        stationId: r.station_id,
        stationName: r.station_name,
        printerId: r.printer_id,
        name: r.name,
        host: r.host,
        port: r.port,
        dpi: r.dpi,
        profile: r.profile ?? null,
      }));
    });
  }

  /**
   * Site IT takes a station off the site's lists (the console, Settings → Site store, status):
   * a computer replaced or gone for good. Its labels, reprints and claims stay in the store,
   * under its id; its printers are no longer offered to the others. A station that checked in
   * within `quietForMs` is running: it is left, as it would be listed again at its next
   * check-in. (Site IT's command; the stations' role has no DELETE on site_stations.)
   */
  async retire(
    stationId: string,
    quietForMs = 120_000,
  ): Promise<
    | { outcome: 'retired'; stationName: string; lastSeenAt: string }
    | { outcome: 'running'; stationName: string; lastSeenAt: string }
    | { outcome: 'unknown'; known: string[] }
  > {
    return this.tx(async (c) => {
      const { rows } = await c.query<{ station_name: string; last_seen_at: Date; quiet: boolean }>(
        `SELECT station_name, last_seen_at, last_seen_at < now() - make_interval(secs => $2::float8 / 1000) AS quiet
           FROM site_stations WHERE station_id = $1 FOR UPDATE`,
        [stationId, quietForMs],
      );
      const row = rows[0];
      if (!row) {
        const all = await c.query<{ station_id: string }>(
          'SELECT station_id FROM site_stations ORDER BY station_id',
        );
        return { outcome: 'unknown', known: all.rows.map((r) => r.station_id) };
      }
      const seen = { stationName: row.station_name, lastSeenAt: row.last_seen_at.toISOString() };
      if (!row.quiet) return { outcome: 'running', ...seen };
      // From site migration 6 the row stays, marked, so History and the console still name the
      // station's labels; before it, the row goes (and its labels show the station id).
      const { rows: schema } = await c.query<{ v: number | null }>(
        'SELECT max(version) AS v FROM site_schema_migrations',
      );
      if (Number(schema[0]?.v ?? 0) >= SITE_SCHEMA_RETIRED)
        await c.query('UPDATE site_stations SET retired_at = now() WHERE station_id = $1', [
          stationId,
        ]);
      else await c.query('DELETE FROM site_stations WHERE station_id = $1', [stationId]);
      await c.query(
        'UPDATE site_printers SET active = false, updated_at = now() WHERE station_id = $1 AND active',
        [stationId],
      );
      await c.query('SELECT pg_notify($1, $2)', [CONSOLE_CHANNEL, stationId]);
      return { outcome: 'retired', ...seen };
    });
  }

  /** The stations of the site with their outbox, lag and queues, for Settings and consoles. */
  async stations(): Promise<
    ({
      stationId: string;
      stationName: string;
      lastSeenAt: string;
      depth: number;
      oldestAt: string | null;
      /** As its heartbeat said it ("0.2.0 · site schema 5"); null before its first heartbeat. */
      appVersion: string | null;
      /** The profile it packs under, as its heartbeat said it (null: not said). */
      profile: NonNullable<ConsolePlatformView['profile']> | null;
    } & StationQueues)[]
  > {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        station_id: string;
        station_name: string;
        last_seen_at: Date;
        outbox_depth: number;
        outbox_oldest_at: Date | null;
        queued_shipments: number;
        queued_print_jobs: number;
        needs_attention: number;
        app_version: string | null;
        retired_at?: Date | null;
        platform?: ConsolePlatformView | null;
      }>('SELECT * FROM site_stations ORDER BY station_name');
      return rows.filter(listed).map((r) => ({
        stationId: r.station_id,
        stationName: r.station_name,
        lastSeenAt: r.last_seen_at.toISOString(),
        depth: r.outbox_depth,
        oldestAt: r.outbox_oldest_at?.toISOString() ?? null,
        shipments: r.queued_shipments,
        printJobs: r.queued_print_jobs,
        needsAttention: r.needs_attention,
        appVersion: r.app_version,
        profile: r.platform?.profile ?? null,
      }));
    });
  }
}
