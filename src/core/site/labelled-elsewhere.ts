import type { ClaimHolder, ClaimResult } from '../packing/order-claims.js';
import { inTransaction, type Db } from '../storage/database.js';
import type { LabelledElsewhereRow } from './reads.js';
import type { StationScope } from '../storage/scope.js';
import { clockTime } from './claims.js';

/** Labels older than this are dropped as new ones come: an order is packed within days. */
const KEEP_MS = 14 * 24 * 60 * 60 * 1000;
/**
 * Each mirror reads from a little before the newest label it has: a label that reached the
 * store late (its station's outbox was waiting) is still picked up within this window.
 */
const OVERLAP_MS = 15 * 60 * 1000;
/**
 * A refusal naming another station's purchase in flight (no label yet) is kept this long: while
 * the store is away, whether that purchase went through is not known here.
 */
const BUYING_KEEP_MS = 60 * 60 * 1000;

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
 * What the site store says about orders labelled at other stations (migration 016), for the
 * time it does not answer: the labels other stations bought in the last 14 days, read from the
 * store every few seconds while it answers (mirror), and any claim refused because another
 * station labelled the order. While the store is away, a purchase of such an order (not
 * confirmed as another label) is refused from this memory instead of bought offline and
 * flagged later as a possible double label. An order file imported again in the outage does
 * not touch it.
 */
export class LabelledElsewhere {
  private readonly s;
  /**
   * Orders the store said another station was buying (its claim in flight, no label yet), by
   * scope, tenant and order: in memory only, for the store's next short absence (a restart
   * forgets them; the labels above are kept on disk).
   */
  private readonly buying = new Map<string, { holder: ClaimHolder; learntAt: number }>();

  constructor(private readonly db: Db) {
    this.s = {
      put: db.prepare(
        `INSERT OR REPLACE INTO site_labelled_elsewhere (profile_id, environment, tenant_id,
           order_number, station_id, station_name, packer, claimed_at, label_local_id,
           tracking_number, learnt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      prune: db.prepare<[string]>('DELETE FROM site_labelled_elsewhere WHERE claimed_at < ?'),
      newest: db.prepare<[string, string], { at: string | null }>(
        `SELECT max(claimed_at) AS at FROM site_labelled_elsewhere
          WHERE profile_id = ? AND environment = ?`,
      ),
      get: db.prepare<[string, string, string, string], Row>(
        `SELECT * FROM site_labelled_elsewhere
          WHERE profile_id = ? AND environment = ? AND tenant_id = ? AND order_number = ?`,
      ),
    };
  }

  /** The other station's label of this order, as kept (null: none known). */
  holder(scope: StationScope, tenantId: string, orderNumber: string): ClaimHolder | null {
    const row = this.s.get.get(scope.profileId, scope.environment, tenantId, orderNumber);
    return row ? holderOf(row) : null;
  }

  /** The store's answer to a claim: a refusal naming another station's label is kept. */
  learn(scope: StationScope, tenantId: string, orderNumber: string, result: ClaimResult): void {
    const key = buyingKey(scope, tenantId, orderNumber);
    this.buying.delete(key);
    if (result.granted || !result.holder || result.code !== 'order-claimed-elsewhere') return;
    const { holder } = result;
    const now = Date.now();
    if (!holder.label) {
      this.buying.set(key, { holder, learntAt: now });
      return;
    }
    this.s.prune.run(new Date(now - KEEP_MS).toISOString());
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
   * Keeps what other stations labelled since the newest label kept (less an overlap; the last
   * 14 days the first time), reading the store a page at a time: while the store is away, an
   * order labelled at another station before the outage is refused here too, whatever this
   * station did with its order file meanwhile. Returns how many of them are newer than any
   * kept before (0 when the read only went over the overlap again).
   */
  async mirror(
    scope: StationScope,
    read: (since: Date, limit: number) => Promise<LabelledElsewhereRow[]>,
    pageSize = 5000,
  ): Promise<number> {
    const now = Date.now();
    const newest = this.s.newest.get(scope.profileId, scope.environment)?.at;
    let since = new Date(newest ? Date.parse(newest) - OVERLAP_MS : now - KEEP_MS);
    const before = newest ? Date.parse(newest) : -Infinity;
    let fresh = 0;
    for (;;) {
      const rows = await read(since, pageSize);
      inTransaction(this.db, () => {
        for (const r of rows)
          this.s.put.run(
            scope.profileId,
            scope.environment,
            r.tenant_id,
            r.order_number,
            r.station_id,
            r.station_name,
            r.packer,
            r.created_at.toISOString(),
            Number(r.local_id),
            r.tracking_number,
            now,
          );
        this.s.prune.run(new Date(now - KEEP_MS).toISOString());
      });
      fresh += rows.filter((r) => r.created_at.getTime() > before).length;
      if (rows.length < pageSize) return fresh;
      since = rows[rows.length - 1]!.created_at;
    }
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
    if (!row) return this.buyingRefusal(scope, tenantId, orderNumber, why);
    const holder = holderOf(row);
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

  /** The refusal for an order another station was buying when the store last said (see buying). */
  private buyingRefusal(
    scope: StationScope,
    tenantId: string,
    orderNumber: string,
    why: string,
  ): Extract<ClaimResult, { granted: false }> | null {
    const kept = this.buying.get(buyingKey(scope, tenantId, orderNumber));
    if (!kept || Date.now() - kept.learntAt > BUYING_KEEP_MS) return null;
    const { holder } = kept;
    const by = holder.packer ? ` by ${holder.packer}` : '';
    return {
      granted: false,
      code: 'order-claimed-elsewhere',
      message: `Order ${orderNumber} was being labelled at ${holder.stationName} (since ${clockTime(new Date(holder.at))}${by}), as the site store said at ${clockTime(new Date(kept.learntAt))}: whether that label was bought is not known here while the store is away. Nothing was bought. ${why} Look for its label at ${holder.stationName}, or try again once the store answers; Ctrl+Shift+A buys another label all the same.`,
      holder,
    };
  }
}

function buyingKey(scope: StationScope, tenantId: string, orderNumber: string): string {
  return JSON.stringify([scope.profileId, scope.environment, tenantId, orderNumber]);
}

function holderOf(row: Row): ClaimHolder {
  return {
    stationId: row.station_id,
    stationName: row.station_name,
    packer: row.packer,
    at: row.claimed_at,
    label: { localId: row.label_local_id, trackingNumber: row.tracking_number },
  };
}
