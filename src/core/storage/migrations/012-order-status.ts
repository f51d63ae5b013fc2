import type { Migration } from './index.js';

/**
 * An order's status in the Orders view (issue 15.2), first that applies:
 * - `labelled`: a label was bought for it;
 * - `queued`: a shipment waits in the offline queue;
 * - `failed`: its newest attempt failed or has an unknown outcome (Needs attention), or a batch
 *   tried it and it failed before a shipment existed (no weight, customs data missing), and
 *   nothing has put it right since: neither a re-import (a new version) nor a newer shipment
 *   (migration 11);
 * - `verified`: every item was scanned into the box, or a shift lead overrode it;
 * - `open`: anything else.
 *
 * `o` is the order. Frozen here with the triggers that use it: a change is a new migration.
 */
const STATUS = `CASE
    WHEN EXISTS (SELECT 1 FROM labels l WHERE l.order_id = o.id) THEN 'labelled'
    WHEN EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.state = 'queued') THEN 'queued'
    WHEN (SELECT s.state FROM shipments s WHERE s.order_id = o.id AND s.state <> 'cancelled'
          ORDER BY s.id DESC LIMIT 1) IN ('failed', 'unknown') THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM batch_items b WHERE b.order_id = o.id AND b.state = 'failed'
          AND b.shipment_id IS NULL AND b.order_version = o.updated_at
          AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.id > b.last_shipment_id))
      THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM order_verifications v WHERE v.order_id = o.id
          AND v.order_version = o.updated_at AND (v.complete = 1 OR v.override_by IS NOT NULL)) THEN 'verified'
    ELSE 'open' END`;

/** Works the status of order `id` out again (view order_status_now) and keeps it. */
export const restate = (id: string) => `
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = ${id}
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;`;

/**
 * The triggers that restate the order of a changed row of `table`: the new row's order after an
 * insert or an update of `columns`, the old row's after a delete, and the old one's too when an
 * update moved the row to another order.
 */
export function restatedBy(table: string, columns: string): string {
  const name = `order_status_${table}`;
  return `
      CREATE TRIGGER ${name}_insert AFTER INSERT ON ${table} BEGIN ${restate('NEW.order_id')} END;
      CREATE TRIGGER ${name}_delete AFTER DELETE ON ${table} BEGIN ${restate('OLD.order_id')} END;
      CREATE TRIGGER ${name}_update AFTER UPDATE OF ${columns} ON ${table} BEGIN
        ${restate('NEW.order_id')}
      END;
      CREATE TRIGGER ${name}_moved AFTER UPDATE OF order_id ON ${table}
        WHEN OLD.order_id IS NOT NEW.order_id BEGIN ${restate('OLD.order_id')} END;`;
}

/**
 * Owned by the Orders view (issue 15.2, and issue 16's "the station is never the bottleneck"):
 * each order's status kept in a table of its own, by triggers on every table it depends on,
 * instead of worked out for every matching order on each page of the view. That cost 20 ms a
 * page at 20,000 orders and grew with the inbox (a 3PL's 200,000 orders: a fifth of a second a
 * page, and every count). Now the counts are an index's and a page reads its 50 rows.
 *
 * The triggers fire in the same transaction as the write they follow, whichever path wrote it
 * (a purchase, the offline queue, recovery, a batch, a scan to verify, a re-import, the site's
 * copy of another station's label), so the kept status is never stale. Each one restates one
 * order: a few index look-ups, a few microseconds per write.
 *
 * The first start on an existing database works every order's status out once: 3.3 s per
 * million orders on the development machine (measured on 2026-11-27), half a minute for a
 * station with 10,000,000.
 */
export const migration012: Migration = {
  version: 12,
  name: 'order-status',
  up(db) {
    db.exec(`
      CREATE TABLE order_status (
        order_id INTEGER PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('open', 'verified', 'labelled', 'queued', 'failed'))
      ) STRICT;
      -- The view's counts per status, and a page of one status, newest first.
      CREATE INDEX order_status_by_status ON order_status (profile_id, environment, status, order_id);
      -- A page of every status, newest first (the index holds the order id as its rowid).
      CREATE INDEX order_status_by_scope ON order_status (profile_id, environment);

      -- Every order's status as its rows say now (the triggers keep order_status equal to it).
      CREATE VIEW order_status_now AS
        SELECT o.id, o.profile_id, o.environment, ${STATUS} AS status FROM orders o;

      INSERT INTO order_status (order_id, profile_id, environment, status)
      SELECT id, profile_id, environment, status FROM order_status_now;

      CREATE TRIGGER order_status_order_insert AFTER INSERT ON orders BEGIN
        ${restate('NEW.id')}
      END;
      -- A re-import is a new version: its verification and a batch's failure no longer count.
      CREATE TRIGGER order_status_order_update AFTER UPDATE OF updated_at ON orders BEGIN
        ${restate('NEW.id')}
      END;

      ${restatedBy('labels', 'order_id')}
      ${restatedBy('shipments', 'state, order_id')}
      ${restatedBy('batch_items', 'state, shipment_id, order_id, order_version, last_shipment_id')}
      ${restatedBy('order_verifications', 'order_id, order_version, complete, override_by')}
    `);
  },
};
