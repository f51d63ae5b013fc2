import type { Migration } from './index.js';
import { restate, restatedBy } from './012-order-status.js';

/**
 * Owned by the Orders view: an order a shift lead cancelled at the station (the store cancelled
 * it; `orders.cancelled`, JSON `{ by, reason, at }`, null while it is not). A re-import leaves it
 * cancelled (the file is older news than the lead's word); reopening clears it. Nothing buys a
 * cancelled order: a scan, a batch and the offline queue refuse it (PackingSteps.blockers).
 *
 * Its status `cancelled` comes second, after `labelled` (a label bought before the cancel is
 * still a label: the lead voids it at the carrier). migration 012's rules are otherwise unchanged;
 * the kept statuses are carried over (no order is cancelled before this migration), the view and
 * its triggers made again with the new rule, and the order's trigger also fires on `cancelled`.
 */
const STATUS = `CASE
    WHEN EXISTS (SELECT 1 FROM labels l WHERE l.order_id = o.id) THEN 'labelled'
    WHEN o.cancelled IS NOT NULL THEN 'cancelled'
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

const TABLES = ['labels', 'shipments', 'batch_items', 'order_verifications'];

export const migration017: Migration = {
  version: 17,
  name: 'order-cancelled',
  up(db) {
    const dropped = TABLES.flatMap((t) =>
      ['insert', 'delete', 'update', 'moved'].map((w) => `DROP TRIGGER order_status_${t}_${w};`),
    ).join('\n');
    db.exec(`
      ALTER TABLE orders ADD COLUMN cancelled TEXT;

      DROP TRIGGER order_status_order_insert;
      DROP TRIGGER order_status_order_update;
      ${dropped}
      DROP VIEW order_status_now;

      CREATE TABLE order_status_017 (
        order_id INTEGER PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('open', 'verified', 'labelled', 'queued', 'failed', 'cancelled'))
      ) STRICT;
      INSERT INTO order_status_017 SELECT order_id, profile_id, environment, status FROM order_status;
      DROP TABLE order_status;
      ALTER TABLE order_status_017 RENAME TO order_status;
      CREATE INDEX order_status_by_status ON order_status (profile_id, environment, status, order_id);
      CREATE INDEX order_status_by_scope ON order_status (profile_id, environment);

      CREATE VIEW order_status_now AS
        SELECT o.id, o.profile_id, o.environment, ${STATUS} AS status FROM orders o;

      CREATE TRIGGER order_status_order_insert AFTER INSERT ON orders BEGIN
        ${restate('NEW.id')}
      END;
      -- A re-import is a new version (its verification and a batch's failure no longer count);
      -- a cancel or a reopen changes the status outright.
      CREATE TRIGGER order_status_order_update AFTER UPDATE OF updated_at, cancelled ON orders BEGIN
        ${restate('NEW.id')}
      END;

      ${restatedBy('labels', 'order_id')}
      ${restatedBy('shipments', 'state, order_id')}
      ${restatedBy('batch_items', 'state, shipment_id, order_id, order_version, last_shipment_id')}
      ${restatedBy('order_verifications', 'order_id, order_version, complete, override_by')}
    `);
  },
};
