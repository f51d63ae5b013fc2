import type { ClaimHolder, ClaimResult } from '../packing/order-claims.js';
import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';
import { clockTime } from './claims.js';

/** Older answers are dropped as new ones come: an order is packed within days, not months. */
const KEEP_MS = 60 * 24 * 60 * 60 * 1000;

interface Row {
  station_id: string;
  station_name: string;
  packer: string | null;
  claimed_at: string;
  label_local_id: number;
  tracking_number: string;
  learnt_at: number;
}

/**
 * What the site store said about orders labelled at other stations (migration 016), for the
 * time it does not answer. A claim refused because another station labelled the order is
 * remembered here; while the store is away, a purchase of such an order (not confirmed as
 * another label) is refused from this memory instead of bought offline and flagged later as a
 * possible double label. An order file imported again in the outage does not touch it.
 */
export class LabelledElsewhere {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      put: db.prepare(
        `INSERT OR REPLACE INTO site_labelled_elsewhere (profile_id, environment, tenant_id,
           order_number, station_id, station_name, packer, claimed_at, label_local_id,
           tracking_number, learnt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      prune: db.prepare<[number]>('DELETE FROM site_labelled_elsewhere WHERE learnt_at < ?'),
      get: db.prepare<[string, string, string, string], Row>(
        `SELECT * FROM site_labelled_elsewhere
          WHERE profile_id = ? AND environment = ? AND tenant_id = ? AND order_number = ?`,
      ),
    };
  }

  /** The store's answer to a claim: a refusal naming another station's label is kept. */
  learn(scope: StationScope, tenantId: string, orderNumber: string, result: ClaimResult): void {
    if (result.granted || !result.holder?.label) return;
    const { holder } = result;
    const now = Date.now();
    this.s.prune.run(now - KEEP_MS);
    this.s.put.run(
      scope.profileId,
      scope.environment,
      tenantId,
      orderNumber,
      holder.stationId,
      holder.stationName,
      holder.packer,
      holder.at,
      holder.label!.localId,
      holder.label!.trackingNumber,
      now,
    );
  }

  /**
   * The refusal to give while the store does not answer (`why`: the store's problem in words),
   * or null when the store never said this order was labelled elsewhere.
   */
  refusal(
    scope: StationScope,
    tenantId: string,
    orderNumber: string,
    why: string,
  ): Extract<ClaimResult, { granted: false }> | null {
    const row = this.s.get.get(scope.profileId, scope.environment, tenantId, orderNumber);
    if (!row) return null;
    const holder: ClaimHolder = {
      stationId: row.station_id,
      stationName: row.station_name,
      packer: row.packer,
      at: row.claimed_at,
      label: { localId: row.label_local_id, trackingNumber: row.tracking_number },
    };
    const by = row.packer ? ` by ${row.packer}` : '';
    const learnt = new Date(row.learnt_at);
    const day =
      learnt.toDateString() === new Date().toDateString()
        ? ''
        : ` on ${learnt.toISOString().slice(0, 10)}`;
    return {
      granted: false,
      code: 'order-claimed-elsewhere',
      message: `Order ${orderNumber} was labelled at ${row.station_name} at ${clockTime(new Date(row.claimed_at))}${by} (${row.tracking_number}), as the site store said at ${clockTime(learnt)}${day}. Nothing was bought. ${why} Reprint its label at ${row.station_name}, or here once the store answers; Ctrl+Shift+A buys another label all the same.`,
      holder,
    };
  }
}
