import { OrderRepository } from '../orders/order-repository.js';
import { inTransaction, type Db } from '../storage/database.js';
import type { SiteChange } from './types.js';
import {
  labelOf,
  purchaseOf,
  reprintOf,
  type LabelDbRow,
  type PurchaseDbRow,
  type ReprintDbRow,
  type SiteReprintDbRow,
} from './outbox-rows.js';

interface OutboxRow {
  id: number;
  entity: 'order' | 'purchase' | 'label' | 'reprint' | 'site-reprint';
  local_key: string;
  created_at: number;
}

export interface OutboxDepth {
  depth: number;
  /** epoch ms of the oldest change waiting; null when none waits. */
  oldestAt: number | null;
}

/** Who to wake when this connection writes an outbox row (see SiteOutbox.onRow). */
const wakers = new WeakMap<Db, Set<() => void>>();

/**
 * The station's side of the outbox (migration 004): SQLite triggers fill it in the same
 * transaction as each change; this reads batches in order, as the rows are now, and drops
 * what the store has committed.
 */
export class SiteOutbox {
  private readonly s;
  private readonly orders: OrderRepository;

  constructor(
    readonly db: Db,
    private readonly stationId: string,
  ) {
    this.orders = new OrderRepository(db);
    // Wake the drainer the moment this station's own connection writes an outbox row (the
    // persistent triggers fill it in the purchase's transaction; this fires with them). A TEMP
    // trigger lives only on this connection, so the function it calls exists wherever it runs:
    // any other connection to the file (a tool, the sqlite3 shell) writes the tables as before,
    // and its rows are found by the drainer's poll.
    if (!wakers.has(db)) {
      const listeners = new Set<() => void>();
      wakers.set(db, listeners);
      db.function('site_outbox_wake', { deterministic: false }, () => {
        for (const listener of listeners) listener();
        return null;
      });
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS site_outbox_wake AFTER INSERT ON main.site_outbox
               BEGIN SELECT site_outbox_wake(); END`);
    }
    this.s = {
      enabled: db.prepare<[], { enabled: number }>('SELECT enabled FROM site_sync WHERE id = 1'),
      setEnabled: db.prepare<[number]>('UPDATE site_sync SET enabled = ? WHERE id = 1'),
      batch: db.prepare<[number], OutboxRow>('SELECT * FROM site_outbox ORDER BY id LIMIT ?'),
      ack: db.prepare<[number]>('DELETE FROM site_outbox WHERE id <= ?'),
      depth: db.prepare<[], { depth: number; oldest: number | null }>(
        'SELECT count(*) AS depth, min(created_at) AS oldest FROM site_outbox',
      ),
      purchase: db.prepare<[string], PurchaseDbRow>(
        `SELECT p.*, o.order_number, s.station_user FROM label_purchases p
           JOIN shipments s ON s.id = p.shipment_id JOIN orders o ON o.id = s.order_id
          WHERE p.id = ?`,
      ),
      label: db.prepare<[number], LabelDbRow>(
        `SELECT l.*, s.station_user, v.voided_by, v.reason AS void_reason, v.voided_at,
                (SELECT max(1, count(*)) FROM label_packages lp WHERE lp.label_id = l.id) AS package_count
           FROM labels l
           JOIN label_purchases p ON p.id = l.purchase_id JOIN shipments s ON s.id = p.shipment_id
           LEFT JOIN label_voids v ON v.label_id = l.id
          WHERE l.id = ?`,
      ),
      reprint: db.prepare<[number], ReprintDbRow>('SELECT * FROM reprints WHERE id = ?'),
      siteReprint: db.prepare<[number], SiteReprintDbRow>(
        'SELECT * FROM site_reprint_audit WHERE id = ?',
      ),
      knownPurchase: db.prepare<[string], { one: number }>(
        'SELECT 1 AS one FROM label_purchases WHERE id = ?',
      ),
      offline: db.prepare<[], { offline_purchase: 'allow' | 'refuse' }>(
        'SELECT offline_purchase FROM site_sync WHERE id = 1',
      ),
      setOffline: db.prepare<[string]>('UPDATE site_sync SET offline_purchase = ? WHERE id = 1'),
      synced: db.prepare<[string | null, string | null]>(
        'UPDATE site_sync SET last_synced_at = coalesce(?, last_synced_at), last_error = ? WHERE id = 1',
      ),
    };
  }

  /**
   * Turns the triggers on. The first time (or after being off), everything the station already
   * has goes into the outbox too, so the site sees the station's whole history once.
   */
  enable(): void {
    this.db.transaction(() => {
      if (this.s.enabled.get()?.enabled === 1) return;
      this.s.setEnabled.run(1);
      const now = Date.now();
      // What still waits of these from before (a store address saved and changed again before
      // anything reached one, a typo mended) is sent with the whole history below, as it is
      // now: not queued twice.
      this.db
        .prepare(
          `DELETE FROM site_outbox WHERE entity IN ('order', 'purchase', 'label', 'reprint')`,
        )
        .run();
      this.db
        .prepare(
          `INSERT INTO site_outbox (entity, local_key, created_at)
           SELECT 'order', id, ? FROM orders WHERE source NOT LIKE 'site:%' ORDER BY id`,
        )
        .run(now);
      this.db
        .prepare(
          `INSERT INTO site_outbox (entity, local_key, created_at)
           SELECT 'purchase', id, ? FROM label_purchases ORDER BY created_at, id`,
        )
        .run(now);
      this.db
        .prepare(
          `INSERT INTO site_outbox (entity, local_key, created_at) SELECT 'label', id, ? FROM labels ORDER BY id`,
        )
        .run(now);
      this.db
        .prepare(
          `INSERT INTO site_outbox (entity, local_key, created_at) SELECT 'reprint', id, ? FROM reprints ORDER BY id`,
        )
        .run(now);
    })();
  }

  /**
   * Runs `change` in one transaction and takes back the outbox rows it made for this entity:
   * a change that came from the store (an order reopened there) is not sent back to it, where
   * it could undo a later change made at its own station.
   */
  unechoed<T>(entity: OutboxRow['entity'], localKey: number | string, change: () => T): T {
    return this.db.transaction(() => {
      const last = this.db.prepare<[], { id: number | null }>(
        'SELECT max(id) AS id FROM site_outbox',
      );
      const before = last.get()?.id ?? 0;
      const result = change();
      this.db
        .prepare('DELETE FROM site_outbox WHERE id > ? AND entity = ? AND local_key = ?')
        .run(before, entity, String(localKey));
      return result;
    })();
  }

  /** Every label marked voided here goes to the store again, with its mark (SiteSync.sendVoids). */
  resendVoided(): void {
    this.db
      .prepare(
        `INSERT INTO site_outbox (entity, local_key, created_at)
         SELECT 'label', label_id, ? FROM label_voids
          WHERE (SELECT enabled FROM site_sync WHERE id = 1) = 1 ORDER BY label_id`,
      )
      .run(Date.now());
  }

  /**
   * These labels of this station go to the store again (SiteSync.sendPackages: labels the store
   * keeps without their packages, sent before site migration 8).
   */
  resendLabels(localIds: readonly number[]): void {
    const put = this.db.prepare(
      `INSERT INTO site_outbox (entity, local_key, created_at)
       SELECT 'label', id, ? FROM labels WHERE id = ? AND (SELECT enabled FROM site_sync WHERE id = 1) = 1`,
    );
    const now = Date.now();
    inTransaction(this.db, () => {
      for (const id of localIds) put.run(now, id);
    });
  }

  /**
   * No site store (any more): the triggers stop; what waits is kept for when one comes back.
   * Static, one statement that writes nothing when already off: a station on its own runs it
   * at every start and must not pay for an outbox it does not have.
   */
  static disable(db: Db): void {
    db.prepare(
      'UPDATE site_sync SET enabled = 0, store_identity = NULL WHERE id = 1 AND enabled = 1',
    ).run();
  }

  /** The site store's database this station last sent its history to (migration 19). */
  storeIdentity(): string | null {
    return (
      this.db
        .prepare<[], { store_identity: string | null }>(
          'SELECT store_identity FROM site_sync WHERE id = 1',
        )
        .get()?.store_identity ?? null
    );
  }

  /**
   * The store is a database this station has not sent its history to (a restore into the same
   * name, a move to another server): everything goes into the outbox again, as on a first
   * connection, and the store is remembered. A store already known is only remembered.
   */
  sendAllTo(identity: string): boolean {
    // At every check-in: a read, and a write only when the store is not the one remembered.
    if (this.storeIdentity() === identity) return false;
    return this.db.transaction(() => {
      const known = this.storeIdentity();
      // Remembered before the server's identifier was read (its OID alone): the same OID is
      // taken for the same database, as it was then, rather than sending everything again.
      const same = known !== null && !known.includes(':') && identity.endsWith(`:${known}`);
      const again = known !== null && known !== identity && !same;
      if (again) {
        this.db.prepare('UPDATE site_sync SET enabled = 0 WHERE id = 1').run();
        this.enable();
      }
      this.db.prepare('UPDATE site_sync SET store_identity = ? WHERE id = 1').run(identity);
      return again;
    })();
  }

  /**
   * Calls `listener` whenever this connection inserts an outbox row, inside the writing
   * transaction: the listener must only schedule work (the drainer reads after the commit, as
   * better-sqlite3 transactions are synchronous). Returns the unsubscribe.
   */
  onRow(listener: () => void): () => void {
    const listeners = wakers.get(this.db)!;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  depth(): OutboxDepth {
    const row = this.s.depth.get()!;
    return { depth: row.depth, oldestAt: row.oldest };
  }

  /**
   * The next changes in order, as the rows are now; a row named twice in the batch is sent
   * once (its current state). `upTo` is what to acknowledge once the store committed them.
   */
  next(limit = 200): { changes: SiteChange[]; upTo: number } | null {
    const rows = this.s.batch.all(limit);
    if (rows.length === 0) return null;
    const seen = new Set<string>();
    const changes: SiteChange[] = [];
    for (const r of rows) {
      const key = `${r.entity}:${r.local_key}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const change = this.read(r);
      if (change) changes.push(change);
    }
    return { changes, upTo: rows[rows.length - 1]!.id };
  }

  ack(upTo: number): void {
    this.s.ack.run(upTo);
  }

  isKnownPurchase(purchaseId: string): boolean {
    return this.s.knownPurchase.get(purchaseId) !== undefined;
  }

  offlinePurchase(): 'allow' | 'refuse' {
    return this.s.offline.get()?.offline_purchase ?? 'allow';
  }

  /** The site's value as read at a check-in; written only when it changed (every 2 s otherwise). */
  rememberOfflinePurchase(value: string | null): void {
    if ((value === 'allow' || value === 'refuse') && value !== this.offlinePurchase())
      this.s.setOffline.run(value);
  }

  recordSync(error: string | null): void {
    this.s.synced.run(error ? null : new Date().toISOString(), error);
  }

  /**
   * Reprints made here that the outbox has not sent yet, per label ("stationId:localId"): this
   * station's own labels and other stations' alike. Site History adds them to the store's counts,
   * so a label reprinted a moment ago does not show its old count.
   */
  unsentReprints(): Map<string, number> {
    const rows = this.db
      .prepare<[string], { station_id: string; local_id: number; n: number }>(
        `SELECT a.label_station_id AS station_id, a.label_local_id AS local_id, count(*) AS n
           FROM site_outbox o JOIN site_reprint_audit a ON a.id = CAST(o.local_key AS INTEGER)
          WHERE o.entity = 'site-reprint'
          GROUP BY 1, 2
         UNION ALL
         SELECT ?, r.label_id, count(*)
           FROM site_outbox o JOIN reprints r ON r.id = CAST(o.local_key AS INTEGER)
          WHERE o.entity = 'reprint'
          GROUP BY 2`,
      )
      .all(this.stationId);
    return new Map(rows.map((r) => [`${r.station_id}:${r.local_id}`, r.n]));
  }

  /**
   * This station's reprints of another station's label, as recorded here (the store has them
   * once the outbox has sent them): what History shows at once after a reprint.
   */
  siteReprintsOf(
    labelStationId: string,
    labelLocalId: number,
  ): { id: number; station_user: string; reason: string; created_at: string }[] {
    return this.db
      .prepare<
        [string, number],
        { id: number; station_user: string; reason: string; created_at: string }
      >(
        `SELECT id, station_user, reason, created_at FROM site_reprint_audit
          WHERE label_station_id = ? AND label_local_id = ? ORDER BY id`,
      )
      .all(labelStationId, labelLocalId);
  }

  /** Records a reprint here of a label another station bought; the outbox carries it. */
  recordSiteReprint(entry: Omit<SiteReprintDbRow, 'id' | 'created_at'>): number {
    const info = this.db
      .prepare(
        `INSERT INTO site_reprint_audit (label_station_id, label_local_id, profile_id, environment, tenant_id,
           order_number, station_user, reason, printer_id, print_job_id, created_at)
         VALUES (@label_station_id, @label_local_id, @profile_id, @environment, @tenant_id,
           @order_number, @station_user, @reason, @printer_id, @print_job_id, @created_at)`,
      )
      .run({ ...entry, created_at: new Date().toISOString() });
    return Number(info.lastInsertRowid);
  }

  private read(r: OutboxRow): SiteChange | null {
    switch (r.entity) {
      case 'order': {
        const o = this.orders.get(Number(r.local_key));
        if (!o) return null;
        return {
          kind: 'order',
          row: {
            profileId: o.profileId,
            environment: o.environment,
            tenantId: o.tenantId,
            orderNumber: o.orderNumber,
            source: o.source,
            order: {
              orderNumber: o.orderNumber,
              shipTo: o.shipTo,
              ...(o.serviceLevels ? { serviceLevels: o.serviceLevels } : {}),
              // Options and each item's customs and hazmat go to the other stations too.
              ...(o.options ? { options: o.options } : {}),
              packages: o.packages,
              // Cancelled by a shift lead here: every station's order claim refuses it.
              ...(o.cancelled ? { cancelled: o.cancelled } : {}),
            },
          },
        };
      }
      case 'purchase': {
        const p = this.s.purchase.get(r.local_key);
        return p ? { kind: 'purchase', row: purchaseOf(p) } : null;
      }
      case 'label': {
        const l = this.s.label.get(Number(r.local_key));
        return l ? { kind: 'label', row: labelOf(l) } : null;
      }
      case 'reprint': {
        const x = this.s.reprint.get(Number(r.local_key));
        return x
          ? reprintOf(x, {
              source: 'local',
              labelStationId: this.stationId,
              labelLocalId: x.label_id,
            })
          : null;
      }
      case 'site-reprint': {
        const x = this.s.siteReprint.get(Number(r.local_key));
        return x
          ? reprintOf(x, {
              source: 'site',
              labelStationId: x.label_station_id,
              labelLocalId: x.label_local_id,
            })
          : null;
      }
      default: {
        const never: never = r.entity;
        throw new Error(`unknown outbox entity ${String(never)}`);
      }
    }
  }
}
