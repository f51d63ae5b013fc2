import type { EndOfDayQuery } from '../labels/end-of-day.js';
import { siteEndOfDay, siteManifestGroups } from './end-of-day.js';
import type { ManifestRecord } from '../labels/manifest-records.js';
import { recordSiteManifest, siteManifestedLabelIds } from './manifest-records.js';
import pg from 'pg';
import type { SiteStoreConfig } from './config.js';
import { describeSiteError, SiteStoreError } from './errors.js';
import { SiteAdmin } from './admin.js';
import { SiteClaims } from './claims.js';
import type { Heartbeat } from './console.js';
import { ClosingClient, connectionOf } from './connection.js';
import { SiteMigrator } from './migrator.js';
import { SiteReads, type LabelledElsewhereRow } from './reads.js';
import type { SiteMigration } from './schema.js';
import { SiteStations, type SitePrinter, type StationQueues } from './stations.js';
import type { UserRecord } from '../users/types.js';
import type {
  ClaimResult,
  SiteAttentionItem,
  SiteChange,
  SiteLabel,
  SiteReprint,
  SiteLabelSearch,
  SiteOrderRow,
  SiteScope,
} from './types.js';
import { listSiteOrders, type SiteOrderListQuery } from './order-list.js';

export type { SitePrinter, StationQueues } from './stations.js';

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
 * It owns the pool and the words for site IT of every pg error; SiteMigrator, SiteStations,
 * SiteAdmin, SiteReads and SiteClaims do the work of their part.
 */
export class SiteStore {
  readonly pool: pg.Pool;
  private readonly reads: SiteReads;
  private readonly claims: SiteClaims;
  private readonly migrator: SiteMigrator;
  private readonly siteStations: SiteStations;
  private readonly admin: SiteAdmin;
  readonly config: SiteStoreConfig;

  constructor(options: SiteStoreOptions) {
    this.config = options.config;
    this.pool = new pg.Pool({
      ...connectionOf(options.config.url, options.password),
      Client: ClosingClient,
      max: options.poolSize ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
      statement_timeout: options.statementTimeoutMs ?? 5000,
      query_timeout: (options.statementTimeoutMs ?? 5000) + 1000,
      idleTimeoutMillis: 30_000,
      application_name: `shipping-station ${options.config.stationId}`.slice(0, 63),
    });
    // An idle client that loses its server must not crash the station: the next query says so.
    this.pool.on('error', () => {});
    const run = <T>(work: () => Promise<T>) => this.run(work);
    const tx = <T>(work: (c: pg.PoolClient) => Promise<T>) => this.tx(work);
    this.reads = new SiteReads(this.pool, run);
    this.claims = new SiteClaims(this.pool, run, options.config, () => this.schema);
    this.migrator = new SiteMigrator(this.pool, run, tx);
    this.siteStations = new SiteStations(this.pool, run, tx, options.config);
    this.admin = new SiteAdmin(this.pool, run);
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

  /**
   * The schema this station works with, as last read (SiteSync's preparation, every check-in):
   * a store at SITE_SCHEMA_OLDEST or later that a station did not upgrade. null: not read yet.
   */
  get schema(): number | null {
    return this.siteStations.schema;
  }

  set schema(version: number | null) {
    this.siteStations.schema = version;
  }

  /** The site's users as the last check-in found them (see SiteStations.checkIn). */
  get usersVersion(): string | null {
    return this.siteStations.usersVersion;
  }

  /** See SiteMigrator.readersFrom: which stations may use a store newer than `known`. */
  readersFrom(known: number): Promise<number> {
    return this.migrator.readersFrom(known);
  }

  /** See SiteMigrator.schemaVersion (0 when nothing was ever migrated). */
  schemaVersion(): Promise<number> {
    return this.migrator.schemaVersion();
  }

  /**
   * Which database the last check-in reached: the server's system identifier and the database's
   * OID there. A restore (a dump into a re-created database of the same name) gives a new OID, a
   * move to another server a new system identifier; the same database keeps both.
   */
  get database(): string | null {
    return this.siteStations.database;
  }

  /** See SiteMigrator.migrate: all pending migrations in one transaction, a newer schema refused. */
  migrate(list?: readonly SiteMigration[]): Promise<{ from: number; to: number }> {
    return this.migrator.migrate(list);
  }

  /** See SiteStations.checkIn: the station's lag, queues and heartbeat, for every console. */
  checkIn(
    outbox: Parameters<SiteStations['checkIn']>[0],
    queues?: StationQueues,
    beat?: Heartbeat,
    notify?: boolean,
  ): Promise<void> {
    return this.siteStations.checkIn(outbox, queues, beat, notify);
  }

  /** See SiteAdmin.setting: one site setting, for site IT's CLI. */
  setting(key: 'offlinePurchase'): Promise<string | null> {
    return this.admin.setting(key);
  }

  /** See SiteAdmin.settings: every site setting as stored (text), read once per check-in. */
  settings(): Promise<Record<string, string>> {
    return this.admin.settings();
  }

  /** See SiteAdmin.clearSetting: stations then use their own. */
  clearSetting(key: string): Promise<boolean> {
    return this.admin.clearSetting(key);
  }

  /** See SiteAdmin.users: for sign-in at any station, hashes only. */
  users(): Promise<UserRecord[]> {
    return this.admin.users();
  }

  /** See SiteAdmin.saveUser: site IT's role only. */
  saveUser(user: UserRecord): Promise<void> {
    return this.admin.saveUser(user);
  }

  setSetting(key: string, value: string): Promise<void> {
    return this.admin.setSetting(key, value);
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

  /** See SiteReads.reprintsOf: every station's reprints of one label. */
  reprintsOf(stationId: string, localId: number): Promise<SiteReprint[]> {
    return this.reads.reprintsOf(stationId, localId);
  }

  /** See SiteReads.reprintsElsewhere: other stations' reprints of a page of this station's labels. */
  reprintsElsewhere(stationId: string, localIds: number[]): Promise<Map<number, number>> {
    return this.reads.reprintsElsewhere(stationId, localIds);
  }

  /** Labels other stations bought since `since` (see SiteReads.labelledSince). */
  labelledSince(scope: SiteScope, since: Date, limit = 5000): Promise<LabelledElsewhereRow[]> {
    return this.reads.labelledSince(scope, this.stationId, since, limit);
  }

  /** See SiteReads.labelsWithoutPackages: this station's labels sent before site migration 8. */
  labelsWithoutPackages(since: Date, after = 0, limit = 5000): Promise<number[]> {
    return this.reads.labelsWithoutPackages(this.stationId, since, after, limit);
  }

  /** See SiteReads.labelVoid: whether another station's label was marked voided there. */
  labelVoid(stationId: string, localId: number): ReturnType<SiteReads['labelVoid']> {
    return this.reads.labelVoid(stationId, localId);
  }

  /** See SiteReads.labelVoids: the voided marks of some stations' labels. */
  labelVoids(
    labels: readonly { stationId: string; localId: number }[],
  ): ReturnType<SiteReads['labelVoids']> {
    return this.reads.labelVoids(labels);
  }

  /** Needs attention for the whole site (see SiteReads.attention). */
  attention(
    scope: SiteScope,
    exceptStationId?: string,
    tenantIds?: readonly string[],
  ): Promise<SiteAttentionItem[]> {
    return this.reads.attention(scope, exceptStationId, tenantIds);
  }

  /** The header's site-wide part of Needs attention (see SiteReads.attentionCount). */
  attentionCount(
    scope: SiteScope,
    exceptStationId: string,
    tenantIds?: readonly string[],
  ): Promise<number> {
    return this.reads.attentionCount(scope, exceptStationId, tenantIds);
  }

  /**
   * Closes a site-wide item (the shift lead kept one label and voided the other) and, in the
   * same statement, tells the other stations (NOTIFY site_changes, delivered at commit), so
   * their Needs attention and header counts drop it at once.
   */
  async resolveAttention(id: number, by: string, resolution: string): Promise<boolean> {
    return this.run(async () => {
      const res = await this.pool.query(
        `WITH resolved AS (
           UPDATE site_attention SET resolved_at = now(), resolved_by = $2, resolution = $3
            WHERE id = $1 AND resolved_at IS NULL RETURNING id)
         SELECT pg_notify('site_changes', $4) FROM resolved`,
        [id, by, resolution, this.stationId],
      );
      return (res.rowCount ?? 0) === 1;
    });
  }

  /** See SiteStations.registerPrinters: printers it no longer has are marked inactive. */
  registerPrinters(printers: readonly SitePrinter[]): Promise<void> {
    return this.siteStations.registerPrinters(printers);
  }

  /** See SiteStations.printers: every station's network printers that are still there. */
  printers(): ReturnType<SiteStations['printers']> {
    return this.siteStations.printers();
  }

  /** See SiteStations.stations: every station's lag and queues, for Settings and consoles. */
  stations(): ReturnType<SiteStations['stations']> {
    return this.siteStations.stations();
  }

  /** See SiteStations.retire: site IT takes a station that is gone off the site's lists. */
  retireStation(stationId: string, quietForMs?: number): ReturnType<SiteStations['retire']> {
    return this.siteStations.retire(stationId, quietForMs);
  }

  /** See SiteClaims.claimImport: an order file is imported by exactly one station. */
  claimImport(
    scope: SiteScope,
    fileSha256: string,
    fileName: string,
  ): ReturnType<SiteClaims['claimImport']> {
    return this.claims.claimImport(scope, fileSha256, fileName);
  }
  /** See SiteClaims.releaseImport: a file whose import brought in nothing is claimed no more. */
  releaseImport(scope: SiteScope, fileSha256: string): Promise<void> {
    return this.claims.releaseImport(scope, fileSha256);
  }

  /** See listSiteOrders: the site's orders, newest change first, with where each stands. */
  listOrders(scope: SiteScope, q: SiteOrderListQuery): ReturnType<typeof listSiteOrders> {
    return this.run(() => listSiteOrders(this.pool, scope, q));
  }

  /** See siteEndOfDay: the whole site's End of day (site migration 8). */
  endOfDay(
    scope: SiteScope,
    q: EndOfDayQuery,
    brandName: (tenantId: string) => string,
    tenantIds: readonly string[],
  ): ReturnType<typeof siteEndOfDay> {
    return this.run(() => siteEndOfDay(this.pool, scope, q, brandName, tenantIds));
  }

  /** See siteManifestGroups: the whole site's outbound labels of those days. */
  manifestGroups(
    scope: SiteScope,
    q: EndOfDayQuery,
    tenantIds: readonly string[],
  ): ReturnType<typeof siteManifestGroups> {
    return this.run(() => siteManifestGroups(this.pool, scope, q, tenantIds));
  }

  /** See recordSiteManifest: which labels a manifest made here took (site migration 9). */
  recordManifest(scope: SiteScope, manifest: ManifestRecord): Promise<void> {
    return this.run(() => recordSiteManifest(this.pool, scope, this.stationId, manifest));
  }

  /** See siteManifestedLabelIds: those of `labelIds` on a manifest made anywhere on the site. */
  manifestedLabelIds(scope: SiteScope, labelIds: readonly string[]): Promise<Set<string>> {
    return this.run(() => siteManifestedLabelIds(this.pool, scope, labelIds));
  }

  /** See SiteReads.findOrders: the site's orders with this number, for a scan at any station. */
  findOrders(
    scope: SiteScope,
    orderNumber: string,
    tenantIds?: readonly string[],
  ): Promise<SiteOrderRow[]> {
    return this.reads.findOrders(scope, orderNumber, tenantIds);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }
}
