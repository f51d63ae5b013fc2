import type pg from 'pg';
import { siteLabelOf, type SiteLabelDbRow } from './label-rows.js';
import { whenSaid } from './when-said.js';
import type { SiteAttentionItem, SiteScope } from './types.js';

// Needs attention across the site (SiteReads.attention and attentionCount delegate here).

/**
 * Needs attention for the whole site: open possible-double-label items (with both labels)
 * and every station's unknown-outcome purchases. A purchase resolved at its station leaves
 * this list everywhere as soon as the resolution is synced. `exceptStationId`: without that
 * station's own unknown purchases (it lists them with its own items), as attentionCount.
 */
export async function readSiteAttention(
  pool: pg.Pool,
  scope: SiteScope,
  exceptStationId?: string,
  /** Only these brands' items (the asking station's profile's); all when absent. */
  tenantIds?: readonly string[],
): Promise<SiteAttentionItem[]> {
  const brands = tenantIds ? [...tenantIds] : null;
  const doubles = await pool.query<{
    id: string;
    tenant_id: string;
    order_number: string;
    message: string;
    created_at: Date;
    purchases: { stationId: string; purchaseId: string }[];
  }>(
    `SELECT id, tenant_id, order_number, message, created_at, purchases FROM site_attention
          WHERE profile_id = $1 AND environment = $2 AND resolved_at IS NULL
            AND ($3::text[] IS NULL OR tenant_id = ANY($3)) ORDER BY id`,
    [scope.profileId, scope.environment, brands],
  );
  const items: SiteAttentionItem[] = [];
  for (const d of doubles.rows) {
    const { rows } = await pool.query<SiteLabelDbRow>(
      `SELECT l.*, COALESCE(s.station_name, l.station_id) AS station_name, 0 AS reprints
             FROM site_labels l LEFT JOIN site_stations s ON s.station_id = l.station_id
            WHERE l.purchase_id = ANY($1) ORDER BY l.created_at`,
      [d.purchases.map((p) => p.purchaseId)],
    );
    // A purchase with no label in the store (its outcome unknown at its station, or its label
    // not sent yet): said as such, not as a label (trial of 2026-11-29).
    const { rows: bought } = await pool.query<PurchaseDbRow>(
      `SELECT p.purchase_id, p.state, p.created_at, COALESCE(s.station_name, p.station_id) AS station_name
             FROM site_purchases p LEFT JOIN site_stations s ON s.station_id = p.station_id
            WHERE p.purchase_id = ANY($1)`,
      [d.purchases.map((p) => p.purchaseId)],
    );
    items.push({
      kind: 'possible-double-label',
      id: `site-double-${d.id}`,
      tenantId: d.tenant_id,
      orderNumber: d.order_number,
      message: doubleLabelWords(d.order_number, d.purchases, rows, bought) ?? d.message,
      since: d.created_at.toISOString(),
      labels: rows.map(siteLabelOf),
    });
  }
  const unknown = await pool.query<{
    station_id: string;
    station_name: string | null;
    purchase_id: string;
    tenant_id: string;
    order_number: string;
    order_reference: string;
    created_at: Date;
  }>(
    // When each purchase was made (updated_at is when its station found it unanswered).
    `SELECT p.station_id, s.station_name, p.purchase_id, p.tenant_id, p.order_number, p.order_reference, p.created_at
           FROM site_purchases p LEFT JOIN site_stations s ON s.station_id = p.station_id
          WHERE p.profile_id = $1 AND p.environment = $2 AND p.state = 'unknown'
            AND p.station_id IS DISTINCT FROM $3
            AND ($4::text[] IS NULL OR p.tenant_id = ANY($4)) ORDER BY p.created_at`,
    [scope.profileId, scope.environment, exceptStationId ?? null, brands],
  );
  for (const u of unknown.rows) {
    const name = u.station_name ?? u.station_id;
    items.push({
      kind: 'unknown-purchase',
      id: `site-unknown-${u.station_id}-${u.purchase_id}`,
      tenantId: u.tenant_id,
      orderNumber: u.order_number,
      orderReference: u.order_reference,
      stationId: u.station_id,
      stationName: name,
      message: `The label for ${u.order_reference} at ${name} may or may not have been bought; resolve it at ${name} under Needs attention.`,
      since: u.created_at.toISOString(),
    });
  }
  return items;
}

/**
 * How many items attention() would list, less one station's own unknown purchases (that
 * station counts them from its own SQLite): the header's site-wide part. One statement on the
 * open-items and unknown-purchases indexes, read again at every change another station
 * commits, so it reads no labels.
 */
export async function countSiteAttention(
  pool: pg.Pool,
  scope: SiteScope,
  exceptStationId: string,
  tenantIds?: readonly string[],
): Promise<number> {
  const { rows } = await pool.query<{ n: string }>({
    name: 'site-attention-count-brands',
    text: `SELECT (SELECT count(*) FROM site_attention
                        WHERE profile_id = $1 AND environment = $2 AND resolved_at IS NULL
                          AND ($4::text[] IS NULL OR tenant_id = ANY($4)))
                    + (SELECT count(*) FROM site_purchases
                        WHERE profile_id = $1 AND environment = $2 AND state = 'unknown'
                          AND station_id <> $3
                          AND ($4::text[] IS NULL OR tenant_id = ANY($4))) AS n`,
    values: [
      scope.profileId,
      scope.environment,
      exceptStationId,
      tenantIds ? [...tenantIds] : null,
    ],
  });
  return Number(rows[0]?.n ?? 0);
}

/** A purchase of a possible double label, as the store has it (with or without its label). */
interface PurchaseDbRow {
  purchase_id: string;
  state: string;
  created_at: Date;
  station_name: string;
}

/**
 * A possible double label in words, from its two labels: when each station bought it, and that
 * the second one at least (whose purchase found the order held: `purchases[1]`, see site
 * migration 3) did so without the store's order claim, whatever kept it from the store (the
 * store away, a login refused); the first may have too (both in one outage). The store's own sentence said "while the site store was unreachable" of both, also
 * of a label bought before the outage. null until both labels have reached the store.
 */
function doubleLabelWords(
  orderNumber: string,
  purchases: readonly { stationId: string; purchaseId: string }[],
  labels: readonly SiteLabelDbRow[],
  bought: readonly PurchaseDbRow[] = [],
): string | null {
  const [held, unclaimed] = purchases.map((p) =>
    labels.find((l) => l.purchase_id === p.purchaseId),
  );
  const heldPurchase = bought.find((p) => p.purchase_id === purchases[0]?.purchaseId);
  if (!held && unclaimed && heldPurchase) {
    const at = heldPurchase.station_name;
    const other = unclaimed.station_name;
    const start = `Possible double label: order ${orderNumber} was labelled at ${other} (${whenSaid(unclaimed.created_at)}) without the site store's order claim (it could not reach the store, or the store refused its login), while ${at} was buying it (${whenSaid(heldPurchase.created_at)})`;
    if (heldPurchase.state === 'not-bought' || heldPurchase.state === 'failed')
      return `${start}, and ${at}'s purchase was not bought: ${other}'s label is the only one. Say so here and mark it resolved.`;
    const outcome =
      heldPurchase.state === 'unknown'
        ? `its outcome is unknown (resolve it at ${at} under Needs attention: look it up on the platform)`
        : 'its label has not reached the site store yet';
    return `${start} and has no label for it in the site store: ${outcome}. If ${at}'s label was bought, keep one label and void the other at the carrier; if not, ${other}'s is the only one: say so here and mark it resolved.`;
  }
  if (!held || !unclaimed) return null;
  return `Possible double label: order ${orderNumber} was labelled at ${held.station_name} (${whenSaid(held.created_at)}) and at ${unclaimed.station_name} (${whenSaid(unclaimed.created_at)}), ${unclaimed.station_name} at least without the site store's order claim (it could not reach the store, or the store refused its login). Keep one label and void the other at the carrier, then mark it voided in History at the station that bought it (the console then leaves it out of the day's labels and cost).`;
}
