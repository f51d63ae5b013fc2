import { foldedLikePattern } from '../../shared/search-fold.js';
import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';

/**
 * The Orders view (issue 15.2): the station's orders with where each one is, paged and counted
 * in SQLite (a 20,000-order inbox never travels to the screen whole).
 *
 * An order's status (open, verified, labelled, queued, failed, cancelled: see migrations 12 and
 * 17 for the rules)
 * is kept in `order_status` by triggers on every table it depends on, so a page counts and
 * reads it from an index instead of working it out for every matching order.
 */
export const orderStatuses = [
  'open',
  'verified',
  'labelled',
  'queued',
  'failed',
  'cancelled',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export interface OrderListQuery {
  /** Order number, ship-to name, company, city or postal code contains it (any case). */
  search?: string | undefined;
  statuses?: readonly OrderStatus[] | undefined;
  tenantId?: string | undefined;
  /** Only orders of one package holding one unit of one item. */
  singleItem?: boolean | undefined;
  /** Only orders whose every package has a weight in the order file. */
  weightKnown?: boolean | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  /**
   * The station has a site store: an order another station labelled (as this station keeps the
   * site's labels, `site_labelled_elsewhere`) is `labelled` here too, not open, verified or
   * failed (nothing is to be bought for it; a batch skips it before asking).
   */
  siteLabels?: boolean | undefined;
}

/** Kept statuses an order labelled at another station of the site overrides. */
const ELSEWHERE = `EXISTS (SELECT 1 FROM site_labelled_elsewhere e
    WHERE e.profile_id = st.profile_id AND e.environment = st.environment
      AND e.tenant_id = o.tenant_id AND e.order_number = o.order_number)`;
const statusSql = (siteLabels: boolean | undefined) =>
  siteLabels
    ? `CASE WHEN st.status IN ('open', 'verified', 'failed') AND ${ELSEWHERE} THEN 'labelled'
         ELSE st.status END`
    : 'st.status';

export interface OrderListRow {
  id: number;
  tenantId: string;
  orderNumber: string;
  shipTo: {
    name?: string;
    company?: string;
    city: string;
    stateProvince?: string;
    countryCode: string;
  };
  packageCount: number;
  /** Units over all items. */
  unitCount: number;
  weightKnown: boolean;
  status: OrderStatus;
  /** `labelled` because another station of the site labelled it (siteLabels). */
  labelledElsewhere: boolean;
  /**
   * Why a `failed` order failed, in words (its newest failure), or who cancelled a `cancelled`
   * one and why; null for the other statuses.
   */
  reason: string | null;
  importedAt: string;
}

export interface OrderListPage {
  rows: OrderListRow[];
  /** Orders matching the query (all statuses asked for). */
  total: number;
  offset: number;
  /** Per status, for the same search and filters but every status. */
  counts: Record<OrderStatus, number>;
}

export const MAX_ORDER_PAGE = 200;

/**
 * A batch's failure of the order that left no shipment, still standing (see migration 011): the
 * order is as the batch tried it, and no shipment was made since. Newer than any shipment of it.
 */
const BATCH_FAILURE = `FROM batch_items b WHERE b.order_id = o.id AND b.state = 'failed'
      AND b.shipment_id IS NULL AND b.order_version = o.updated_at
      AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.id > b.last_shipment_id)`;

/**
 * The newest failure of an order, for a page's rows: a batch's that still stands (it is newer
 * than any shipment), else its newest shipment's (failed, or of unknown outcome).
 */
const FAILURE = `coalesce(
    (SELECT b.failure ${BATCH_FAILURE} ORDER BY b.updated_at DESC LIMIT 1),
    (SELECT CASE WHEN json_valid(s.failure) THEN json_extract(s.failure, '$.message') END
       FROM shipments s WHERE s.order_id = o.id AND s.state <> 'cancelled' ORDER BY s.id DESC LIMIT 1))`;

/** The orders a query matches, as SQL (`id`, `status`), and whether each must be worked out. */
interface Matching {
  sql: string;
  params: Record<string, unknown>;
  /**
   * A search, or a filter on each order's packages and units: every match is read (and worked
   * out) anyway, so the counts and the page come from one pass over them.
   */
  perOrder: boolean;
}

/** Which page of which statuses (null: every status). */
interface PageAsked {
  statuses: OrderStatus[] | null;
  limit: number;
  offset: number;
}

/** The counts per status, the orders of the statuses asked, and the page's ids. */
interface PageFound {
  counts: Record<OrderStatus, number>;
  total: number;
  ids: number[];
}

const noCounts = () =>
  Object.fromEntries(orderStatuses.map((s) => [s, 0])) as Record<OrderStatus, number>;

interface Row {
  id: number;
  tenant_id: string;
  order_number: string;
  ship_to: string;
  imported_at: string;
  package_count: number;
  unit_count: number;
  weight_known: number;
  status: OrderStatus;
  kept_status: OrderStatus;
  failure: string | null;
}

export class OrderList {
  constructor(private readonly db: Db) {}

  page(scope: StationScope, query: OrderListQuery = {}): OrderListPage {
    const limit = Math.min(Math.max(1, query.limit ?? 50), MAX_ORDER_PAGE);
    const offset = Math.max(0, query.offset ?? 0);
    const matching = this.matching(scope, query);
    const statuses = query.statuses?.length ? [...new Set(query.statuses)] : null;
    const { counts, total, ids } = matching.perOrder
      ? this.scanned(matching, { statuses, limit, offset })
      : this.indexed(matching, { statuses, limit, offset });
    const rows = this.db
      .prepare<[string], Row>(
        `SELECT o.id, o.tenant_id, o.order_number, o.ship_to, o.imported_at,
           (SELECT count(*) FROM order_packages p WHERE p.order_id = o.id) AS package_count,
           (SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS unit_count,
           NOT EXISTS (SELECT 1 FROM order_packages p WHERE p.order_id = o.id AND p.weight_lbs IS NULL) AS weight_known,
           ${statusSql(query.siteLabels)} AS status, st.status AS kept_status,
           CASE st.status WHEN 'failed' THEN ${FAILURE}
             WHEN 'cancelled' THEN 'Cancelled by ' || json_extract(o.cancelled, '$.by') || ': '
               || json_extract(o.cancelled, '$.reason') END AS failure
         FROM orders o JOIN order_status st ON st.order_id = o.id
         WHERE o.id IN (SELECT value FROM json_each(?)) ORDER BY o.id DESC`,
      )
      .all(JSON.stringify(ids));
    return { rows: rows.map(toRow), total, offset, counts };
  }

  /**
   * The counts per status (every status, for the same search and filters) and the page's ids,
   * read from the kept statuses: the counts from the status index, the page in id order.
   */
  private indexed({ sql, params }: Matching, ask: PageAsked): PageFound {
    const { statuses, limit, offset } = ask;
    const counts = noCounts();
    for (const r of this.db
      .prepare<Record<string, unknown>, { status: OrderStatus; n: number }>(
        `SELECT status, count(*) AS n FROM (${sql}) GROUP BY status`,
      )
      .all(params))
      counts[r.status] = r.n;
    const total = (statuses ?? [...orderStatuses]).reduce<number>((n, s) => n + counts[s], 0);
    // One status: read in its index's order (newest first), no sort of every match.
    const byStatus = !statuses
      ? ''
      : statuses.length === 1
        ? `WHERE status = @status`
        : `WHERE status IN (SELECT value FROM json_each(@statuses))`;
    const ids = this.db
      .prepare<Record<string, unknown>, { id: number }>(
        `SELECT id FROM (${sql}) ${byStatus} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({
        ...params,
        statuses: JSON.stringify(statuses ?? []),
        status: statuses?.[0] ?? null,
        limit,
        offset,
      })
      .map((r) => r.id);
    return { counts, total, ids };
  }

  /**
   * The same when each order must be worked out (its packages and units, for the single-item
   * and weight filters): in one pass over the matching orders, counted here.
   */
  private scanned({ sql, params }: Matching, ask: PageAsked): PageFound {
    const { statuses, limit, offset } = ask;
    const counts = noCounts();
    const wanted: number[] = [];
    const asked = statuses ? new Set(statuses) : null;
    for (const r of this.db
      .prepare<Record<string, unknown>, { id: number; status: OrderStatus }>(
        `SELECT id, status FROM (${sql}) ORDER BY id DESC`,
      )
      .iterate(params)) {
      counts[r.status]++;
      if (!asked || asked.has(r.status)) wanted.push(r.id);
    }
    return { counts, total: wanted.length, ids: wanted.slice(offset, offset + limit) };
  }

  /** The ids of every order the query matches (newest first), at most `max`: a batch's orders. */
  ids(scope: StationScope, query: OrderListQuery, max: number): number[] {
    const { sql, params } = this.matching(scope, query);
    const statuses = query.statuses?.length ? query.statuses : null;
    const byStatus = statuses ? `WHERE status IN (SELECT value FROM json_each(@statuses))` : '';
    return this.db
      .prepare<Record<string, unknown>, { id: number }>(
        `WITH m AS (${sql}) SELECT id FROM m ${byStatus} ORDER BY id DESC LIMIT @max`,
      )
      .all({ ...params, statuses: JSON.stringify(statuses ?? []), max })
      .map((r) => r.id);
  }

  /** The statuses of some orders (one query). */
  statusOf(orderIds: readonly number[]): Map<number, OrderStatus> {
    return new Map(
      this.db
        .prepare<[string], { id: number; status: OrderStatus }>(
          `SELECT order_id AS id, status FROM order_status
           WHERE order_id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(orderIds))
        .map((r) => [r.id, r.status]),
    );
  }

  private matching(scope: StationScope, query: OrderListQuery): Matching {
    const where = ['st.profile_id = @profileId', 'st.environment = @environment'];
    const params: Record<string, unknown> = {
      profileId: scope.profileId,
      environment: scope.environment,
    };
    const term = query.search?.trim();
    if (term) {
      where.push(`o.search_text LIKE @like ESCAPE '\\'`);
      params.like = foldedLikePattern(term);
    }
    if (query.tenantId) {
      where.push('o.tenant_id = @tenantId');
      params.tenantId = query.tenantId;
    }
    const outer: string[] = [];
    if (query.singleItem) outer.push('package_count = 1 AND unit_count = 1');
    if (query.weightKnown) outer.push('weight_known = 1');
    // The size columns only when a filter needs them: every column is worked out per order.
    const sizes = [
      ...(query.singleItem
        ? [
            '(SELECT count(*) FROM order_packages p WHERE p.order_id = o.id) AS package_count',
            '(SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS unit_count',
          ]
        : []),
      ...(query.weightKnown
        ? [
            'NOT EXISTS (SELECT 1 FROM order_packages p WHERE p.order_id = o.id AND p.weight_lbs IS NULL) AS weight_known',
          ]
        : []),
    ];
    // Only the columns asked for: with none of the filters, the counts are read from the
    // status index alone (orders is joined only to search or filter by brand).
    const byOrder = Boolean(term || query.tenantId || sizes.length || query.siteLabels);
    const sql = `SELECT * FROM (
        SELECT st.order_id AS id, ${sizes.map((c) => `${c}, `).join('')}${statusSql(query.siteLabels)} AS status
        FROM order_status st ${byOrder ? 'JOIN orders o ON o.id = st.order_id' : ''}
        WHERE ${where.join(' AND ')}
      ) ${outer.length ? `WHERE ${outer.join(' AND ')}` : ''}`;
    return { sql, params, perOrder: sizes.length > 0 || Boolean(term) };
  }
}

function toRow(r: Row): OrderListRow {
  const shipTo = JSON.parse(r.ship_to) as OrderListRow['shipTo'];
  return {
    id: r.id,
    tenantId: r.tenant_id,
    orderNumber: r.order_number,
    shipTo: {
      ...(shipTo.name ? { name: shipTo.name } : {}),
      ...(shipTo.company ? { company: shipTo.company } : {}),
      city: shipTo.city,
      ...(shipTo.stateProvince ? { stateProvince: shipTo.stateProvince } : {}),
      countryCode: shipTo.countryCode,
    },
    packageCount: r.package_count,
    unitCount: r.unit_count,
    weightKnown: r.weight_known === 1,
    status: r.status,
    labelledElsewhere: r.status !== r.kept_status,
    reason: r.status === 'failed' || r.status === 'cancelled' ? r.failure : null,
    importedAt: r.imported_at,
  };
}
