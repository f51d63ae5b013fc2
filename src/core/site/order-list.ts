import type pg from 'pg';
import { voidMarkOf } from './label-rows.js';
import type { LabelVoidMark, SiteScope } from './types.js';

/** Where an order of the site stands, as the site store knows it. */
export type SiteOrderState = 'open' | 'being-labelled' | 'labelled' | 'cancelled';

export interface SiteOrderListQuery {
  /** The start of an order number (case ignored); none: every order. */
  query?: string | undefined;
  state?: SiteOrderState | undefined;
  /** The brands the station's profile ships for: another profile's orders are not listed. */
  tenantIds: readonly string[];
  limit: number;
}

export interface SiteOrderListRow {
  tenantId: string;
  orderNumber: string;
  /** The station that imported it (the order's row in the store is its copy). */
  stationId: string;
  stationName: string;
  shipToName: string | null;
  shipToCity: string | null;
  /** When the store last heard of the order (an import, a re-import, a cancel). */
  updatedAt: string;
  state: SiteOrderState;
  cancelled: { by: string; reason: string; at: string; stationName: string } | null;
  /**
   * Its claim, when one was taken: who labels or labelled it, where and when, and whether that
   * label was marked voided at the carrier there since (site migration 6; null: not, or unknown).
   */
  claim: {
    stationName: string;
    packer: string | null;
    at: string;
    voided: LabelVoidMark | null;
  } | null;
}

const MAX_ROWS = 200;

// The order's state: a label (its claim purchased) or a purchase under way first, whatever
// happened to the order after; then a cancel; else open. The same precedence as the station's
// own Orders view, where a labelled order is labelled even if cancelled since.
const CANCELLED = `jsonb_typeof(o.order_json->'cancelled') = 'object'`;
// Said as an anti-join, not as the left join's NULL: the planner then counts on most orders of
// a state being found early in the newest changes, instead of reading them all and sorting.
const UNCLAIMED = `NOT EXISTS (SELECT 1 FROM site_order_claims k
    WHERE k.profile_id = o.profile_id AND k.environment = o.environment
      AND k.tenant_id = o.tenant_id AND k.order_number = o.order_number
      AND k.state IN ('purchased', 'in-flight'))`;
const STATE = `CASE
    WHEN c.state = 'purchased' THEN 'labelled'
    WHEN c.state = 'in-flight' THEN 'being-labelled'
    WHEN ${CANCELLED} THEN 'cancelled'
    ELSE 'open' END`;
/**
 * Each state as a condition written out (not a parameter compared with STATE), so that the
 * planner can take the index that fits it (site migration 7): the cancelled orders' own index,
 * the claims in flight, or the newest changes walked until 200 match.
 */
const STATE_WHERE: Record<SiteOrderState, string> = {
  labelled: `c.state = 'purchased'`,
  'being-labelled': `c.state = 'in-flight'`,
  cancelled: `${CANCELLED} AND ${UNCLAIMED}`,
  open: `(${CANCELLED}) IS NOT TRUE AND ${UNCLAIMED}`,
};

export async function listSiteOrders(
  pool: pg.Pool,
  scope: SiteScope,
  q: SiteOrderListQuery,
): Promise<{ orders: SiteOrderListRow[]; more: boolean }> {
  const limit = Math.max(1, Math.min(q.limit, MAX_ROWS));
  const prefix = q.query?.trim() ? `${q.query.trim().replace(/[\\%_]/g, '\\$&')}%` : null;
  const { rows } = await pool.query<{
    tenant_id: string;
    order_number: string;
    station_id: string;
    station_name: string;
    ship_to_name: string | null;
    ship_to_city: string | null;
    updated_at: Date;
    state: SiteOrderState;
    cancelled: { by?: string; reason?: string; at?: string } | null;
    claim_station: string | null;
    claim_packer: string | null;
    claim_at: Date | null;
    label_voided: unknown;
  }>({
    // Unnamed: planned for its values each time (a prefix's range in the number index).
    text: `SELECT o.tenant_id, o.order_number, o.station_id,
                  COALESCE(st.station_name, o.station_id) AS station_name,
                  o.order_json->'shipTo'->>'name' AS ship_to_name,
                  o.order_json->'shipTo'->>'city' AS ship_to_city,
                  o.updated_at, ${STATE} AS state,
                  CASE WHEN ${CANCELLED} THEN o.order_json->'cancelled' END AS cancelled,
                  CASE WHEN c.state IN ('purchased', 'in-flight') THEN c.station_name END AS claim_station,
                  CASE WHEN c.state IN ('purchased', 'in-flight') THEN c.packer END AS claim_packer,
                  -- When it was labelled (its label's time) or taken: not when the store last
                  -- heard of it (a restore's re-sent history would make that the restore's time).
                  CASE WHEN c.state = 'purchased' THEN coalesce(l.created_at, c.claimed_at)
                       WHEN c.state = 'in-flight' THEN c.claimed_at END AS claim_at,
                  -- The claim's label, voided at the carrier since? (to_jsonb: a store before
                  -- site migration 6 has no such column, and answers null.)
                  to_jsonb(l)->'voided' AS label_voided
             FROM site_orders o
             LEFT JOIN site_stations st ON st.station_id = o.station_id
             LEFT JOIN site_order_claims c
               ON c.profile_id = o.profile_id AND c.environment = o.environment
              AND c.tenant_id = o.tenant_id AND c.order_number = o.order_number
             LEFT JOIN site_labels l
               ON c.state = 'purchased' AND l.station_id = c.station_id
              AND l.purchase_id = c.purchase_id
            WHERE o.profile_id = $1 AND o.environment = $2 AND o.tenant_id = ANY($3::text[])
              ${prefix === null ? '' : 'AND lower(o.order_number) LIKE lower($5)'}
              ${q.state && STATE_WHERE[q.state] ? `AND ${STATE_WHERE[q.state]}` : ''}
            ORDER BY o.updated_at DESC, o.order_number
            LIMIT $4`,
    values: [
      scope.profileId,
      scope.environment,
      [...q.tenantIds],
      limit + 1,
      ...(prefix === null ? [] : [prefix]),
    ],
  });
  return {
    more: rows.length > limit,
    orders: rows.slice(0, limit).map((r) => ({
      tenantId: r.tenant_id,
      orderNumber: r.order_number,
      stationId: r.station_id,
      stationName: r.station_name,
      shipToName: r.ship_to_name,
      shipToCity: r.ship_to_city,
      updatedAt: r.updated_at.toISOString(),
      state: r.state,
      cancelled: r.cancelled
        ? {
            by: r.cancelled.by ?? 'a shift lead',
            reason: r.cancelled.reason ?? '',
            at: r.cancelled.at ?? r.updated_at.toISOString(),
            stationName: r.station_name,
          }
        : null,
      claim:
        r.claim_station && r.claim_at
          ? {
              stationName: r.claim_station,
              packer: r.claim_packer,
              at: r.claim_at.toISOString(),
              voided: voidMarkOf(r.label_voided),
            }
          : null,
    })),
  };
}
