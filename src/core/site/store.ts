import pg from 'pg';
import type { SiteStoreConfig } from './config.js';
import { describeSiteError, SiteStoreError } from './errors.js';
import { SiteClaims } from './claims.js';
import { CONSOLE_CHANNEL, type Heartbeat } from './console.js';
import { connectionOf } from './connection.js';
import { SiteReads } from './reads.js';
import { siteMigrations, type SiteMigration } from './schema.js';
import type { UserRecord, UserRole } from '../users/types.js';
import type {
  ClaimResult,
  SiteAttentionItem,
  SiteChange,
  SiteLabel,
  SiteLabelSearch,
  SiteOrderRow,
  SiteScope,
} from './types.js';

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

/** A lock id of our own for migrations (pg_advisory_xact_lock): one station migrates at a time. */
const MIGRATION_LOCK = 0x5_1735;

export interface SiteStoreOptions {
  config: SiteStoreConfig;
  password: string | undefined;
  /** How long a connection attempt may take before the store counts as unreachable. */
  connectTimeoutMs?: number;
  /** Per statement; a claim must never hold a packer for long. */
  statementTimeoutMs?: number;
  poolSize?: number;
}

/**
 * The site store: node-postgres with a small pool, named (prepared) statements, numbered
 * migrations. Every write is an idempotent upsert keyed by station id + the station's own ids.
 */
export class SiteStore {
  readonly pool: pg.Pool;
  private readonly reads: SiteReads;
  private readonly claims: SiteClaims;
  readonly config: SiteStoreConfig;

  constructor(options: SiteStoreOptions) {
    this.config = options.config;
    this.pool = new pg.Pool({
      ...connectionOf(options.config.url, options.password),
      max: options.poolSize ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
      statement_timeout: options.statementTimeoutMs ?? 5000,
      query_timeout: (options.statementTimeoutMs ?? 5000) + 1000,
      idleTimeoutMillis: 30_000,
      application_name: `shipping-station ${options.config.stationId}`.slice(0, 63),
    });
    // An idle client that loses its server must not crash the station: the next query says so.
    this.pool.on('error', () => {});
    this.reads = new SiteReads(this.pool, (work) => this.run(work));
    this.claims = new SiteClaims(this.pool, (work) => this.run(work), options.config);
  }

  get stationId(): string {
    return this.config.stationId;
  }

  /** Any pg error as a SiteStoreError with words for site IT. */
  private wrap(error: unknown): SiteStoreError {
    return error instanceof SiteStoreError
      ? error
      : new SiteStoreError(describeSiteError(error, this.config.url), { cause: error });
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.wrap(error);
    }
  }

  private async tx<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.run(async () => {
      const client = await this.pool.connect();
      // A server that goes away between two statements must fail this call, not the process.
      const ignore = () => {};
      client.on('error', ignore);
      let failed: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        failed = error instanceof Error ? error : new Error(String(error));
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.off('error', ignore);
        // A client that failed is dropped, not handed to the next caller half-broken.
        client.release(failed);
      }
    });
  }

  /** The schema version of the database (0 when nothing was ever migrated). */
  async schemaVersion(): Promise<number> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ v: number | null }>(
        `SELECT CASE WHEN to_regclass('site_schema_migrations') IS NULL THEN 0
                ELSE (SELECT COALESCE(max(version), 0) FROM site_schema_migrations) END AS v`,
      );
      return Number(rows[0]?.v ?? 0);
    });
  }

  /**
   * Brings the database to this version's schema, all pending migrations in one transaction
   * under an advisory lock (two stations starting at once migrate once). A database from a
   * newer version is refused and left untouched.
   */
  async migrate(
    list: readonly SiteMigration[] = siteMigrations,
  ): Promise<{ from: number; to: number }> {
    list.forEach((m, i) => {
      if (m.version !== i + 1) throw new Error(`site migration ${m.name} is numbered ${m.version}`);
    });
    return this.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query(`CREATE TABLE IF NOT EXISTS site_schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const { rows } = await c.query<{ v: number | null }>(
        'SELECT max(version) AS v FROM site_schema_migrations',
      );
      const from = Number(rows[0]?.v ?? 0);
      if (from > list.length)
        throw new SiteStoreError({
          kind: 'newer-schema',
          message: `The site store was set up by a newer version of Shipping Station (schema ${from}, this station knows ${list.length}). Update this station; the site store was left untouched.`,
        });
      for (const m of list.slice(from)) {
        await c.query(m.sql);
        await c.query('INSERT INTO site_schema_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
      }
      return { from, to: list.length };
    });
  }

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
    const values = [
      this.stationId,
      this.config.stationName,
      outbox.depth,
      outbox.oldestAt,
      queues.shipments,
      queues.printJobs,
      queues.needsAttention,
    ];
    await this.run(async () => {
      await this.pool.query(
        beat
          ? {
              name: 'site-check-in-beat',
              text: `INSERT INTO site_stations (station_id, station_name, last_seen_at, outbox_depth, outbox_oldest_at,
                       queued_shipments, queued_print_jobs, needs_attention, app_version, signed_in_user, printers)
                     VALUES ($1, $2, now(), $3, $4, $5, $6, $7, $8, $9, $10::jsonb)
                     ON CONFLICT (station_id) DO UPDATE SET station_name = EXCLUDED.station_name,
                       last_seen_at = now(), outbox_depth = EXCLUDED.outbox_depth, outbox_oldest_at = EXCLUDED.outbox_oldest_at,
                       queued_shipments = EXCLUDED.queued_shipments, queued_print_jobs = EXCLUDED.queued_print_jobs,
                       needs_attention = EXCLUDED.needs_attention, app_version = EXCLUDED.app_version,
                       signed_in_user = EXCLUDED.signed_in_user, printers = EXCLUDED.printers`,
              values: [
                ...values,
                beat.appVersion,
                beat.signedInUser,
                JSON.stringify(beat.printers),
              ],
            }
          : {
              name: 'site-check-in',
              text: `INSERT INTO site_stations (station_id, station_name, last_seen_at, outbox_depth, outbox_oldest_at,
                       queued_shipments, queued_print_jobs, needs_attention)
                     VALUES ($1, $2, now(), $3, $4, $5, $6, $7)
                     ON CONFLICT (station_id) DO UPDATE SET station_name = EXCLUDED.station_name,
                       last_seen_at = now(), outbox_depth = EXCLUDED.outbox_depth, outbox_oldest_at = EXCLUDED.outbox_oldest_at,
                       queued_shipments = EXCLUDED.queued_shipments, queued_print_jobs = EXCLUDED.queued_print_jobs,
                       needs_attention = EXCLUDED.needs_attention`,
              values,
            },
      );
      if (notify)
        await this.pool.query('SELECT pg_notify($1, $2)', [CONSOLE_CHANNEL, this.stationId]);
    });
  }

  /** One site setting (site IT's CLI; a station reads them all at once with settings()). */
  async setting(key: 'offlinePurchase'): Promise<string | null> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ value: string }>({
        name: 'site-setting',
        text: 'SELECT value FROM site_settings WHERE key = $1',
        values: [key],
      });
      return rows[0]?.value ?? null;
    });
  }

  /**
   * Every site setting (issue 14: offline purchase, box presets, rate rule, packing slip, …), as
   * stored (text): a station reads them once per check-in.
   */
  async settings(): Promise<Record<string, string>> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ key: string; value: string }>({
        name: 'site-settings',
        text: 'SELECT key, value FROM site_settings',
      });
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    });
  }

  /** Removes a site setting (site IT; stations then use their own). */
  async clearSetting(key: string): Promise<boolean> {
    return this.run(async () => {
      const res = await this.pool.query('DELETE FROM site_settings WHERE key = $1', [key]);
      return (res.rowCount ?? 0) > 0;
    });
  }

  /** The site's users (active and not), for sign-in at any station. Hashes only. */
  async users(): Promise<UserRecord[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        user_id: string;
        name: string;
        role: UserRole;
        badge_sha256: string | null;
        pin_hash: string | null;
        active: boolean;
      }>({ name: 'site-users', text: 'SELECT * FROM site_users ORDER BY name' });
      return rows.map((r) => ({
        userId: r.user_id,
        name: r.name,
        role: r.role,
        badgeSha256: r.badge_sha256,
        pinHash: r.pin_hash,
        active: r.active,
      }));
    });
  }

  /** Adds or changes a site user (site IT's role: the station role cannot write users). */
  async saveUser(user: UserRecord): Promise<void> {
    await this.run(() =>
      this.pool.query(
        `INSERT INTO site_users (user_id, name, role, badge_sha256, pin_hash, active, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now())
         ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name, role = EXCLUDED.role,
           badge_sha256 = EXCLUDED.badge_sha256, pin_hash = EXCLUDED.pin_hash,
           active = EXCLUDED.active, updated_at = now()`,
        [user.userId, user.name, user.role, user.badgeSha256, user.pinHash, user.active],
      ),
    );
  }

  async setSetting(key: string, value: string): Promise<void> {
    await this.run(() =>
      this.pool.query(
        `INSERT INTO site_settings (key, value, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [key, value],
      ),
    );
  }

  /** See SiteClaims.claimOrder: the order claim taken before POST /api/v1/labels. */
  claimOrder(
    scope: SiteScope,
    claim: Parameters<SiteClaims['claimOrder']>[1],
  ): Promise<ClaimResult> {
    return this.claims.claimOrder(scope, claim);
  }

  /** Releases claims this station holds for purchases it never committed (a crash in between). */
  releaseOrphanClaims(isKnown: (purchaseId: string) => boolean): Promise<number> {
    return this.claims.releaseOrphanClaims(isKnown);
  }

  /**
   * One outbox batch, in order, in one transaction and one round trip: the batch goes as a
   * JSON array to site_apply_batch (site migration 3), one statement that applies each change
   * (upserts keyed by station id + local id, so a batch replayed after a crash or a reconnect
   * changes nothing) and notifies the other stations.
   */
  async apply(changes: readonly SiteChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.run(() =>
      this.pool.query({
        name: 'site-apply-batch',
        text: 'SELECT site_apply_batch($1, $2, $3::jsonb)',
        values: [this.stationId, this.config.stationName, JSON.stringify(changes)],
      }),
    );
  }

  /** Site-wide History: by order (or its start), tracking number, brand, date, station, packer. */
  searchLabels(
    scope: SiteScope,
    search: SiteLabelSearch,
  ): Promise<{ labels: SiteLabel[]; more: boolean }> {
    return this.reads.searchLabels(scope, search);
  }

  label(stationId: string, localId: number): Promise<SiteLabel | null> {
    return this.reads.label(stationId, localId);
  }

  /** Needs attention for the whole site (see SiteReads.attention). */
  attention(scope: SiteScope): Promise<SiteAttentionItem[]> {
    return this.reads.attention(scope);
  }

  /** Closes a site-wide item (the shift lead kept one label and voided the other). */
  async resolveAttention(id: number, by: string, resolution: string): Promise<boolean> {
    return this.run(async () => {
      const res = await this.pool.query(
        `UPDATE site_attention SET resolved_at = now(), resolved_by = $2, resolution = $3
          WHERE id = $1 AND resolved_at IS NULL`,
        [id, by, resolution],
      );
      return (res.rowCount ?? 0) === 1;
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
          values: [this.stationId, p.printerId, p.name, p.host, p.port, p.dpi],
        });
      await c.query(
        `UPDATE site_printers SET active = false, updated_at = now()
          WHERE station_id = $1 AND active AND NOT (printer_id = ANY($2))`,
        [this.stationId, printers.map((p) => p.printerId)],
      );
    });
  }

  /** The network printers of every station of the site that still has them. */
  async printers(): Promise<(SitePrinter & { stationId: string; stationName: string })[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        station_id: string;
        station_name: string;
        printer_id: string;
        name: string;
        host: string;
        port: number;
        dpi: number;
      }>(
        `SELECT p.*, COALESCE(s.station_name, p.station_id) AS station_name
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
      }));
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
      }>('SELECT * FROM site_stations ORDER BY station_name');
      return rows.map((r) => ({
        stationId: r.station_id,
        stationName: r.station_name,
        lastSeenAt: r.last_seen_at.toISOString(),
        depth: r.outbox_depth,
        oldestAt: r.outbox_oldest_at?.toISOString() ?? null,
        shipments: r.queued_shipments,
        printJobs: r.queued_print_jobs,
        needsAttention: r.needs_attention,
      }));
    });
  }

  /** See SiteClaims.claimImport: an order file is imported by exactly one station. */
  claimImport(
    scope: SiteScope,
    fileSha256: string,
    fileName: string,
  ): ReturnType<SiteClaims['claimImport']> {
    return this.claims.claimImport(scope, fileSha256, fileName);
  }

  /** Orders of the site with this number (any brand of the profile), for a scan at any station. */
  async findOrders(scope: SiteScope, orderNumber: string): Promise<SiteOrderRow[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        tenant_id: string;
        order_number: string;
        source: string;
        order_json: SiteOrderRow['order'];
      }>({
        name: 'site-find-orders',
        text: `SELECT tenant_id, order_number, source, order_json FROM site_orders
                WHERE profile_id = $1 AND environment = $2 AND order_number = $3`,
        values: [scope.profileId, scope.environment, orderNumber],
      });
      return rows.map((r) => ({
        profileId: scope.profileId,
        environment: scope.environment,
        tenantId: r.tenant_id,
        orderNumber: r.order_number,
        source: r.source,
        order: r.order_json,
      }));
    });
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
