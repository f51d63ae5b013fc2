import type { Migration } from './index.js';

/**
 * Owned by batch printing (issue 15.8): a batch's order that failed before a shipment existed
 * (no weight, customs data missing) is *failed* in the Orders view, not *open*.
 *
 * Such a failure leaves no shipment behind, so the Orders view's status (src/core/orders/
 * order-list.ts) reads it from the batch item. It holds while nothing has put it right, which
 * the item says itself, in the same statement that settles it:
 * - `order_version`: the order's `updated_at` when the batch tried it; a re-import of the order
 *   (a new version, as for scan to verify) changes that, and the failure no longer counts (as for the item verification);
 * - `last_shipment_id`: the order's newest shipment once the attempt was over (0: none); any
 *   later shipment (rated, bought or queued since) is a newer attempt that speaks for the order.
 *
 * Failures settled before this migration are judged by their times, the best there is: the
 * order unchanged since, and the shipments made until then.
 */
export const migration011: Migration = {
  version: 11,
  name: 'batch-failures',
  up(db) {
    db.exec(`
      ALTER TABLE batch_items ADD COLUMN order_version TEXT;
      ALTER TABLE batch_items ADD COLUMN last_shipment_id INTEGER;
      -- The Orders view asks this of every order it counts: only the few failed items are in it.
      CREATE INDEX batch_items_failed_by_order ON batch_items (order_id)
        WHERE state = 'failed' AND shipment_id IS NULL;
      UPDATE batch_items SET
        order_version = (SELECT o.updated_at FROM orders o
                          WHERE o.id = batch_items.order_id AND o.updated_at <= batch_items.updated_at),
        last_shipment_id = (SELECT coalesce(max(s.id), 0) FROM shipments s
                             WHERE s.order_id = batch_items.order_id
                               AND s.created_at <= batch_items.updated_at)
      WHERE state = 'failed' AND shipment_id IS NULL;
    `);
  },
};
