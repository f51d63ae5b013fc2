import type pg from 'pg';
import type { SiteChange, SitePurchaseRow, SiteStation } from './types.js';

/**
 * One change of a station's outbox as upserts (and, for purchases, the order claim and the
 * possible-double-label check), inside the caller's transaction. Every statement is keyed by
 * station id + the station's own ids, so applying a change twice changes nothing.
 */
export async function applyChange(
  c: pg.PoolClient,
  station: SiteStation,
  change: SiteChange,
): Promise<void> {
  switch (change.kind) {
    case 'order': {
      const r = change.row;
      await c.query({
        name: 'site-upsert-order',
        text: `INSERT INTO site_orders (profile_id, environment, tenant_id, order_number, station_id, source, order_json)
               VALUES ($1,$2,$3,$4,$5,$6,$7)
               ON CONFLICT (profile_id, environment, tenant_id, order_number) DO UPDATE SET
                 order_json = EXCLUDED.order_json, source = EXCLUDED.source,
                 station_id = EXCLUDED.station_id, updated_at = now()`,
        values: [
          r.profileId,
          r.environment,
          r.tenantId,
          r.orderNumber,
          station.stationId,
          r.source,
          JSON.stringify(r.order),
        ],
      });
      break;
    }
    case 'purchase':
      await upsertPurchase(c, station, change.row);
      break;
    case 'label': {
      const r = change.row;
      await c.query({
        name: 'site-upsert-label',
        text: `INSERT INTO site_labels (station_id, local_id, purchase_id, platform_label_id, profile_id,
                 environment, tenant_id, order_number, order_reference, tracking_number, carrier,
                 service_level, cost_cents, currency, packer, created_at)
               VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)
               ON CONFLICT (station_id, local_id) DO UPDATE SET
                 tracking_number = EXCLUDED.tracking_number, packer = EXCLUDED.packer,
                 synced_at = clock_timestamp()`,
        values: [
          station.stationId,
          r.localId,
          r.purchaseId,
          r.platformLabelId,
          r.profileId,
          r.environment,
          r.tenantId,
          r.orderNumber,
          r.orderReference,
          r.trackingNumber,
          r.carrier,
          r.serviceLevel,
          r.costCents,
          r.currency,
          r.packer,
          r.createdAt,
        ],
      });
      break;
    }
    case 'reprint': {
      const r = change.row;
      await c.query({
        name: 'site-upsert-reprint',
        text: `INSERT INTO site_reprints (station_id, source, local_id, label_station_id, label_local_id,
                 profile_id, environment, tenant_id, station_user, reason, printer_id, created_at)
               VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)
               ON CONFLICT (station_id, source, local_id) DO NOTHING`,
        values: [
          station.stationId,
          r.source,
          r.localId,
          r.labelStationId,
          r.labelLocalId,
          r.profileId,
          r.environment,
          r.tenantId,
          r.stationUser,
          r.reason,
          r.printerId,
          r.createdAt,
        ],
      });
      break;
    }
    default: {
      const never: never = change;
      throw new Error(`unknown site change ${JSON.stringify(never)}`);
    }
  }
}

async function upsertPurchase(
  c: pg.PoolClient,
  station: SiteStation,
  r: SitePurchaseRow,
): Promise<void> {
  await c.query({
    name: 'site-upsert-purchase',
    text: `INSERT INTO site_purchases (station_id, purchase_id, profile_id, environment, tenant_id, order_number,
             order_reference, state, packer, failure, confirmed_by, resolution, resolved_by, resolved_at,
             created_at, updated_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)
           ON CONFLICT (station_id, purchase_id) DO UPDATE SET state = EXCLUDED.state,
             failure = EXCLUDED.failure, resolution = EXCLUDED.resolution, resolved_by = EXCLUDED.resolved_by,
             resolved_at = EXCLUDED.resolved_at, updated_at = EXCLUDED.updated_at, synced_at = now()`,
    values: [
      station.stationId,
      r.purchaseId,
      r.profileId,
      r.environment,
      r.tenantId,
      r.orderNumber,
      r.orderReference,
      r.state,
      r.packer,
      r.failure === null || r.failure === undefined ? null : JSON.stringify(r.failure),
      r.confirmedBy,
      r.resolution,
      r.resolvedBy,
      r.resolvedAt,
      r.createdAt,
      r.updatedAt,
    ],
  });
  const key = [r.profileId, r.environment, r.tenantId, r.orderNumber];
  switch (r.state) {
    case 'failed':
    case 'not-bought':
      // Nothing was bought: the order is free for any station again.
      await c.query({
        name: 'site-release-claim',
        text: `UPDATE site_order_claims SET state = 'released', updated_at = now()
                WHERE profile_id = $1 AND environment = $2 AND tenant_id = $3 AND order_number = $4
                  AND purchase_id = $5 AND state <> 'released'`,
        values: [...key, r.purchaseId],
      });
      return;
    case 'purchasing':
    case 'unknown':
      // Bought or maybe bought: hold the order if nobody does (an offline purchase catching up).
      await holdClaim(c, station, r, 'in-flight', `site_order_claims.state = 'released'`);
      return;
    case 'purchased': {
      const { rowCount } = await holdClaim(
        c,
        station,
        r,
        'purchased',
        `site_order_claims.purchase_id = EXCLUDED.purchase_id OR site_order_claims.state = 'released'`,
      );
      if (rowCount === 1 || r.confirmedBy) return;
      // Another station holds this order: two labels may have been bought (offline purchase).
      const { rows } = await c.query<{
        station_id: string;
        station_name: string;
        purchase_id: string;
      }>(
        `SELECT station_id, station_name, purchase_id FROM site_order_claims
          WHERE profile_id = $1 AND environment = $2 AND tenant_id = $3 AND order_number = $4`,
        key,
      );
      const holder = rows[0];
      if (!holder || holder.station_id === station.stationId) return;
      await c.query(
        `INSERT INTO site_attention (kind, profile_id, environment, tenant_id, order_number, purchases, message)
         VALUES ('possible-double-label', $1, $2, $3, $4, $5, $6)
         ON CONFLICT (kind, profile_id, environment, tenant_id, order_number) WHERE resolved_at IS NULL
         DO NOTHING`,
        [
          ...key,
          JSON.stringify([
            { stationId: holder.station_id, purchaseId: holder.purchase_id },
            { stationId: station.stationId, purchaseId: r.purchaseId },
          ]),
          `Possible double label: order ${r.orderNumber} was labelled at ${holder.station_name} and at ${station.stationName} while the site store was unreachable. Keep one label and void the other.`,
        ],
      );
      return;
    }
    default: {
      const never: never = r.state;
      throw new Error(`unknown purchase state ${String(never)}`);
    }
  }
}

/**
 * The claim of the order for this purchase, in `state`: taken when the order's current claim
 * matches `takeOverWhen` (nobody holds it, or this purchase already did). rowCount 0: another
 * station holds the order.
 */
function holdClaim(
  c: pg.PoolClient,
  station: SiteStation,
  r: SitePurchaseRow,
  state: 'in-flight' | 'purchased',
  takeOverWhen: string,
): Promise<pg.QueryResult> {
  return c.query({
    name: state === 'purchased' ? 'site-purchased-claim' : 'site-hold-claim',
    text: `INSERT INTO site_order_claims (profile_id, environment, tenant_id, order_number, station_id,
             station_name, purchase_id, packer, state, claimed_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8,'${state}',$9)
           ON CONFLICT (profile_id, environment, tenant_id, order_number) DO UPDATE
             SET station_id = EXCLUDED.station_id, station_name = EXCLUDED.station_name,
                 purchase_id = EXCLUDED.purchase_id, packer = EXCLUDED.packer, state = '${state}',
                 updated_at = now()
             WHERE ${takeOverWhen}`,
    values: [
      r.profileId,
      r.environment,
      r.tenantId,
      r.orderNumber,
      station.stationId,
      station.stationName,
      r.purchaseId,
      r.packer,
      r.createdAt,
    ],
  });
}
