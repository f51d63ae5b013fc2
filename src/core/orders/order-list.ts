import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';

/**
 * The Orders view (issue 15.2): the station's orders with where each one is, paged and counted
 * in SQLite (a 20,000-order inbox never travels to the screen whole).
 *
 * An order's status, first that applies:
 * - `labelled`: a label was bought for it;
 * - `queued`: a shipment waits in the offline queue;
 * - `failed`: its newest attempt failed or has an unknown outcome (Needs attention), or a batch
 *   tried it and it failed before a shipment existed (no weight, customs data missing), and
 *   nothing has put it right since: neither a re-import (a new version) nor a newer shipment;
 * - `verified`: every item was scanned into the box, or a shift lead overrode it;
 * - `open`: anything else.
 */
export const orderStatuses = ['open', 'verified', 'labelled', 'queued', 'failed'] as const;
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
}

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
  /** Why a `failed` order failed, in words (its newest failure); null for the other statuses. */
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

const STATUS = `CASE
    WHEN EXISTS (SELECT 1 FROM labels l WHERE l.order_id = o.id) THEN 'labelled'
    WHEN EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.state = 'queued') THEN 'queued'
    WHEN (SELECT s.state FROM shipments s WHERE s.order_id = o.id AND s.state <> 'cancelled'
          ORDER BY s.id DESC LIMIT 1) IN ('failed', 'unknown') THEN 'failed'
    WHEN EXISTS (SELECT 1 ${BATCH_FAILURE}) THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM order_verifications v WHERE v.order_id = o.id
          AND v.order_version = o.updated_at AND (v.complete = 1 OR v.override_by IS NOT NULL)) THEN 'verified'
    ELSE 'open' END`;

/**
 * The newest failure of an order, for a page's rows: a batch's that still stands (it is newer
 * than any shipment), else its newest shipment's (failed, or of unknown outcome).
 */
const FAILURE = `coalesce(
    (SELECT b.failure ${BATCH_FAILURE} ORDER BY b.updated_at DESC LIMIT 1),
    (SELECT CASE WHEN json_valid(s.failure) THEN json_extract(s.failure, '$.message') END
       FROM shipments s WHERE s.order_id = o.id AND s.state <> 'cancelled' ORDER BY s.id DESC LIMIT 1))`;

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
  failure: string | null;
}

export class OrderList {
  constructor(private readonly db: Db) {}

  page(scope: StationScope, query: OrderListQuery = {}): OrderListPage {
    const limit = Math.min(Math.max(1, query.limit ?? 50), MAX_ORDER_PAGE);
    const offset = Math.max(0, query.offset ?? 0);
    const { sql, params } = this.matching(scope, query);
    // One pass over the matching orders for their statuses (small rows: id and status), counted
    // here; then the page's own rows. Each order's status is worked out once per page.
    const statuses = query.statuses?.length ? new Set(query.statuses) : null;
    const counts = Object.fromEntries(orderStatuses.map((s) => [s, 0])) as Record<
      OrderStatus,
      number
    >;
    const wanted: number[] = [];
    for (const r of this.db
      .prepare<Record<string, unknown>, { id: number; status: OrderStatus }>(
        `SELECT id, status FROM (${sql}) ORDER BY id DESC`,
      )
      .iterate(params)) {
      counts[r.status]++;
      if (!statuses || statuses.has(r.status)) wanted.push(r.id);
    }
    const ids = wanted.slice(offset, offset + limit);
    const rows = this.db
      .prepare<[string], Row>(
        `SELECT o.id, o.tenant_id, o.order_number, o.ship_to, o.imported_at,
           (SELECT count(*) FROM order_packages p WHERE p.order_id = o.id) AS package_count,
           (SELECT coalesce(sum(i.quantity), 0) FROM order_items i WHERE i.order_id = o.id) AS unit_count,
           NOT EXISTS (SELECT 1 FROM order_packages p WHERE p.order_id = o.id AND p.weight_lbs IS NULL) AS weight_known,
           ${STATUS} AS status, ${FAILURE} AS failure
         FROM orders o WHERE o.id IN (SELECT value FROM json_each(?)) ORDER BY o.id DESC`,
      )
      .all(JSON.stringify(ids));
    return { rows: rows.map(toRow), total: wanted.length, offset, counts };
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
          `SELECT o.id, ${STATUS} AS status FROM orders o WHERE o.id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(orderIds))
        .map((r) => [r.id, r.status]),
    );
  }

  private matching(
    scope: StationScope,
    query: OrderListQuery,
  ): { sql: string; params: Record<string, unknown> } {
    const where = ['o.profile_id = @profileId', 'o.environment = @environment'];
    const params: Record<string, unknown> = {
      profileId: scope.profileId,
      environment: scope.environment,
    };
    const term = query.search?.trim();
    if (term) {
      where.push(`(o.order_number LIKE @like ESCAPE '\\' OR o.ship_to LIKE @like ESCAPE '\\')`);
      params.like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
    const sql = `SELECT * FROM (
        SELECT o.id, ${sizes.map((c) => `${c}, `).join('')}${STATUS} AS status
        FROM orders o WHERE ${where.join(' AND ')}
      ) ${outer.length ? `WHERE ${outer.join(' AND ')}` : ''}`;
    return { sql, params };
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
    reason: r.status === 'failed' ? r.failure : null,
    importedAt: r.imported_at,
  };
}
