import type pg from 'pg';
import { countSiteAttention, readSiteAttention } from './attention-reads.js';
import { siteLabelOf, voidMarkOf, type SiteLabelDbRow } from './label-rows.js';
import type {
  LabelVoidMark,
  SiteAttentionItem,
  SiteLabel,
  SiteReprint,
  SiteLabelSearch,
  SiteOrderRow,
  SiteScope,
} from './types.js';

const MAX_PAGE = 500;

/** One label another station bought, as a station keeps it for an outage. */
export interface LabelledElsewhereRow {
  tenant_id: string;
  order_number: string;
  station_id: string;
  station_name: string;
  packer: string | null;
  local_id: string;
  tracking_number: string;
  created_at: Date;
}
/** Up to this many labels matching a search are read through their indexes and sorted. */
const SORT_MATCHES = 20_000;

/**
 * The site store's site-wide reads: History search, one label, Needs attention, the orders
 * of a scan. SiteStore delegates to it; `run` turns a pg error into words for site IT.
 */
export class SiteReads {
  constructor(
    private readonly pool: pg.Pool,
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
  ) {}

  /**
   * Labels other stations bought after `since` (their time), oldest first, at most `limit`:
   * what a station keeps so that an order labelled elsewhere is still refused while the store
   * is away (LabelledElsewhere). Along site_labels_by_time.
   */
  async labelledSince(
    scope: SiteScope,
    exceptStationId: string,
    since: Date,
    limit: number,
  ): Promise<LabelledElsewhereRow[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<LabelledElsewhereRow>(
        `SELECT l.tenant_id, l.order_number, l.station_id,
                coalesce(s.station_name, l.station_id) AS station_name, l.packer,
                l.local_id::text AS local_id, l.tracking_number, l.created_at
           FROM site_labels l LEFT JOIN site_stations s ON s.station_id = l.station_id
          WHERE l.profile_id = $1 AND l.environment = $2 AND l.created_at > $3
            AND l.station_id <> $4
          ORDER BY l.created_at
          LIMIT $5`,
        [scope.profileId, scope.environment, since, exceptStationId, limit],
      );
      return rows;
    });
  }

  /**
   * The voided marks of some stations' labels, by `stationId:localId` (a label not voided, or
   * unknown to the store, is not in the map). Read through `to_jsonb`, so a store before site
   * migration 6, which keeps no marks, answers none instead of refusing the statement.
   */
  async labelVoids(
    labels: readonly { stationId: string; localId: number }[],
  ): Promise<Map<string, LabelVoidMark>> {
    const marks = new Map<string, LabelVoidMark>();
    if (labels.length === 0) return marks;
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        station_id: string;
        local_id: string;
        voided: unknown;
      }>(
        `SELECT l.station_id, l.local_id::text AS local_id, to_jsonb(l)->'voided' AS voided
           FROM site_labels l
           JOIN unnest($1::text[], $2::bigint[]) AS k(station_id, local_id)
             ON l.station_id = k.station_id AND l.local_id = k.local_id`,
        [labels.map((l) => l.stationId), labels.map((l) => l.localId)],
      );
      for (const r of rows) {
        const mark = voidMarkOf(r.voided);
        if (mark) marks.set(`${r.station_id}:${r.local_id}`, mark);
      }
      return marks;
    });
  }

  /**
   * This station's labels since `since` that the store keeps without their packages (sent before
   * site migration 8, or by an older version), by local id after `after`, at most `limit`: their
   * local ids.
   */
  async labelsWithoutPackages(
    stationId: string,
    since: Date,
    after: number,
    limit: number,
  ): Promise<number[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ local_id: string }>(
        `SELECT local_id::text AS local_id FROM site_labels
          WHERE station_id = $1 AND local_id > $2 AND created_at > $3 AND packages IS NULL
          ORDER BY local_id LIMIT $4`,
        [stationId, after, since, limit],
      );
      return rows.map((r) => Number(r.local_id));
    });
  }

  /** The voided mark of one station's label (null: not voided, or unknown to the store). */
  async labelVoid(stationId: string, localId: number): Promise<LabelVoidMark | null> {
    const marks = await this.labelVoids([{ stationId, localId }]);
    return marks.get(`${stationId}:${localId}`) ?? null;
  }

  /**
   * Site-wide History: by order (or its start; in either case), tracking number, brand, date,
   * station, packer.
   */
  async searchLabels(
    scope: SiteScope,
    search: SiteLabelSearch,
  ): Promise<{ labels: SiteLabel[]; more: boolean }> {
    const page = await this.searchAsTyped(scope, search);
    const typed = search.query?.trim();
    if (!typed || page.labels.length > 0) return page;
    // Typed in the other case ("lum-20010", Caps Lock): order numbers are stored as the file
    // wrote them, so the search is asked again in upper and lower case, as a scan is. Decided on
    // the first page, so every page of one search reads the same spelling.
    const first = (query: string) =>
      this.searchAsTyped(scope, { ...search, query, offset: 0, limit: 1 });
    if ((search.offset ?? 0) > 0 && (await first(typed)).labels.length > 0) return page;
    for (const other of new Set([typed.toUpperCase(), typed.toLowerCase()]))
      if (other !== typed && (await first(other)).labels.length > 0)
        return this.searchAsTyped(scope, { ...search, query: other });
    return page;
  }

  private async searchAsTyped(
    scope: SiteScope,
    search: SiteLabelSearch,
  ): Promise<{ labels: SiteLabel[]; more: boolean }> {
    const limit = Math.min(Math.max(1, Math.floor(search.limit ?? 50)), MAX_PAGE);
    const where = ['l.profile_id = $1', 'l.environment = $2'];
    const values: unknown[] = [scope.profileId, scope.environment];
    const add = (sql: (n: string) => string, value: unknown) => {
      values.push(value);
      where.push(sql(`$${values.length}`));
    };
    const q = search.query?.trim();
    // Newest first, by default along site_labels_by_time. A search by order or tracking number
    // reads its matches through their indexes and sorts them instead, when they are few: the
    // planner cannot know that one order-number prefix's labels were all bought in the same
    // weeks (order numbers follow time), so it would walk the time index from the newest
    // label, through millions, to find them (seconds at 10,000,000 labels; see
    // docs/benchmarks.md). Only a prefix matching more than SORT_MATCHES labels (the first
    // characters of every order) keeps the walk, where the matches are everywhere.
    let newest = 'l.created_at DESC';
    if (q) {
      const prefix = `${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      values.push(q, prefix);
      const n = values.length;
      // Each side of the OR has its index (by_tracking, by_order text_pattern_ops).
      where.push(`(l.tracking_number = $${n - 1} OR l.order_number LIKE $${n})`);
      if ((await this.orderMatches(scope, prefix)) <= SORT_MATCHES)
        newest = `l.created_at + interval '0 seconds' DESC`;
    }
    // A station as the table names it ("Station 1") or by its id; a packer by any part of the
    // name, in any case ("ana" finds Ana Ruiz).
    if (search.stationId)
      add(
        (n) => `(l.station_id = ${n} OR lower(s.station_name) = lower(${n}))`,
        search.stationId.trim(),
      );
    if (search.packer)
      add(
        (n) => `l.packer ILIKE ${n}`,
        `%${search.packer.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%`,
      );
    if (search.tenantId) add((n) => `l.tenant_id = ${n}`, search.tenantId);
    if (search.tenantIds) add((n) => `l.tenant_id = ANY(${n})`, [...search.tenantIds]);
    if (search.from) add((n) => `l.created_at >= ${n}`, search.from);
    if (search.to) add((n) => `l.created_at < ${n}`, search.to);
    values.push(limit + 1, Math.max(0, Math.floor(search.offset ?? 0)));
    const sql = `SELECT l.*, COALESCE(s.station_name, l.station_id) AS station_name,
                   (SELECT count(*) FROM site_reprints r
                     WHERE r.label_station_id = l.station_id AND r.label_local_id = l.local_id) AS reprints
                   FROM site_labels l LEFT JOIN site_stations s ON s.station_id = l.station_id
                  WHERE ${where.join(' AND ')}
                  ORDER BY ${newest}, l.station_id, l.local_id DESC
                  LIMIT $${values.length - 1} OFFSET $${values.length}`;
    return this.run(async () => {
      const { rows } = await this.pool.query<SiteLabelDbRow>(sql, values);
      return { labels: rows.slice(0, limit).map(siteLabelOf), more: rows.length > limit };
    });
  }

  /** How many labels' order numbers start so (counted up to SORT_MATCHES + 1, in the index). */
  private async orderMatches(scope: SiteScope, prefix: string): Promise<number> {
    return this.run(async () => {
      // Not a named statement: a generic plan of LIKE $3 could not use the prefix's index range.
      const { rows } = await this.pool.query<{ n: number }>({
        text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM site_labels
                WHERE profile_id = $1 AND environment = $2 AND order_number LIKE $3 LIMIT $4) m`,
        values: [scope.profileId, scope.environment, prefix, SORT_MATCHES + 1],
      });
      return rows[0]!.n;
    });
  }

  async label(stationId: string, localId: number): Promise<SiteLabel | null> {
    return this.run(async () => {
      const { rows } = await this.pool.query<SiteLabelDbRow>(
        `SELECT l.*, COALESCE(s.station_name, l.station_id) AS station_name,
                (SELECT count(*) FROM site_reprints r
                  WHERE r.label_station_id = l.station_id AND r.label_local_id = l.local_id) AS reprints
           FROM site_labels l LEFT JOIN site_stations s ON s.station_id = l.station_id
          WHERE l.station_id = $1 AND l.local_id = $2`,
        [stationId, localId],
      );
      return rows[0] ? siteLabelOf(rows[0]) : null;
    });
  }

  /**
   * Every reprint of one label, at any station (the site's audit, site_reprints): when, where,
   * who and why, oldest first.
   */
  async reprintsOf(stationId: string, localId: number): Promise<SiteReprint[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        station_id: string;
        station_name: string;
        station_user: string;
        reason: string;
        created_at: Date;
        source: 'local' | 'site';
        local_id: string;
      }>(
        `SELECT r.station_id, COALESCE(s.station_name, r.station_id) AS station_name,
                r.station_user, r.reason, r.created_at, r.source, r.local_id
           FROM site_reprints r LEFT JOIN site_stations s ON s.station_id = r.station_id
          WHERE r.label_station_id = $1 AND r.label_local_id = $2
          ORDER BY r.created_at, r.station_id`,
        [stationId, localId],
      );
      return rows.map((r) => ({
        stationId: r.station_id,
        stationName: r.station_name,
        stationUser: r.station_user,
        reason: r.reason,
        at: r.created_at.toISOString(),
        source: r.source,
        localId: Number(r.local_id),
      }));
    });
  }

  /**
   * How many times other stations reprinted each of these labels of `stationId` (site_reprints,
   * one statement for a page of History): by local label id; labels never reprinted elsewhere
   * are left out.
   */
  async reprintsElsewhere(stationId: string, localIds: number[]): Promise<Map<number, number>> {
    if (localIds.length === 0) return new Map();
    return this.run(async () => {
      const { rows } = await this.pool.query<{ label_local_id: string; n: number }>(
        `SELECT label_local_id, count(*)::int AS n FROM site_reprints
          WHERE label_station_id = $1 AND label_local_id = ANY($2::bigint[]) AND station_id <> $1
          GROUP BY label_local_id`,
        [stationId, localIds],
      );
      return new Map(rows.map((r) => [Number(r.label_local_id), r.n]));
    });
  }

  /** See readSiteAttention (attention-reads.ts). */
  attention(
    scope: SiteScope,
    exceptStationId?: string,
    tenantIds?: readonly string[],
  ): Promise<SiteAttentionItem[]> {
    return this.run(() => readSiteAttention(this.pool, scope, exceptStationId, tenantIds));
  }

  /** See countSiteAttention (attention-reads.ts). */
  attentionCount(
    scope: SiteScope,
    exceptStationId: string,
    tenantIds?: readonly string[],
  ): Promise<number> {
    return this.run(() => countSiteAttention(this.pool, scope, exceptStationId, tenantIds));
  }

  /** Orders of the site with this number (any brand of the profile), for a scan at any station. */
  async findOrders(
    scope: SiteScope,
    orderNumber: string,
    tenantIds?: readonly string[],
  ): Promise<SiteOrderRow[]> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{
        tenant_id: string;
        order_number: string;
        source: string;
        order_json: SiteOrderRow['order'];
        station_name: string;
        station_id: string;
      }>({
        name: 'site-find-orders-brands',
        text: `SELECT o.tenant_id, o.order_number, o.source, o.order_json, o.station_id,
                      COALESCE(st.station_name, o.station_id) AS station_name
                 FROM site_orders o LEFT JOIN site_stations st ON st.station_id = o.station_id
                WHERE o.profile_id = $1 AND o.environment = $2 AND o.order_number = $3
                  AND ($4::text[] IS NULL OR o.tenant_id = ANY($4))`,
        values: [
          scope.profileId,
          scope.environment,
          orderNumber,
          tenantIds ? [...tenantIds] : null,
        ],
      });
      return rows.map((r) => ({
        profileId: scope.profileId,
        environment: scope.environment,
        tenantId: r.tenant_id,
        orderNumber: r.order_number,
        source: r.source,
        order: r.order_json,
        stationName: r.station_name,
        stationId: r.station_id,
      }));
    });
  }
}

export { whenSaid } from './when-said.js';
