import type { Db } from '../storage/database.js';
import type { BatchItemRow, BatchState } from './batch-items.js';

/** A batch as stored (migration 011). */
export interface BatchRow {
  id: string;
  state: BatchState;
  description: string;
  created_by: string | null;
  created_at: string;
}

/** The batch runner's statements (batches and their items, with each item's label and order). */
export function batchStatements(db: Db) {
  return {
    insertBatch: db.prepare(
      `INSERT INTO batches (id, profile_id, environment, state, description, created_by, created_at, updated_at)
       VALUES (@id, @profileId, @environment, 'running', @description, @createdBy, @now, @now)`,
    ),
    insertItem: db.prepare(
      `INSERT INTO batch_items (batch_id, position, order_id, state, updated_at)
       VALUES (@batchId, @position, @orderId, 'waiting', @now)`,
    ),
    batch: db.prepare<[string, string, string], BatchRow>(
      `SELECT * FROM batches WHERE id = ? AND profile_id = ? AND environment = ?`,
    ),
    list: db.prepare<[string, string, number], BatchRow>(
      `SELECT * FROM batches WHERE profile_id = ? AND environment = ? ORDER BY created_at DESC LIMIT ?`,
    ),
    inState: db.prepare<[string, string, string], BatchRow>(
      `SELECT * FROM batches WHERE profile_id = ? AND environment = ? AND state = ?`,
    ),
    setState: db.prepare(`UPDATE batches SET state = @state, updated_at = @now WHERE id = @id`),
    items: db.prepare<[string], BatchItemRow>(
      `SELECT b.position, b.order_id, o.order_number, b.state, b.label_id, l.tracking_number,
              l.platform_label_id, b.cost_cents, b.failure,
              q.id AS queued_label_id, q.tracking_number AS queued_tracking_number,
              q.platform_label_id AS queued_platform_label_id,
              q.cost_cents AS queued_cost_cents, s.state AS shipment_state,
              -- A purchase of this order whose outcome nobody knows yet (Needs attention):
              -- the item is not a plain failure, its label may have been bought.
              EXISTS (SELECT 1 FROM shipments us JOIN label_purchases up ON up.shipment_id = us.id
                      WHERE b.state = 'failed' AND us.order_id = b.order_id
                        AND up.state IN ('unknown', 'purchasing')) AS outcome_unknown,
              -- Failed, and the order has a label since (an earlier attempt's, found by Needs
              -- attention, or bought another way): nothing is left to do for it.
              EXISTS (SELECT 1 FROM labels ol WHERE b.state = 'failed'
                        AND ol.order_id = b.order_id) AS order_labelled
       FROM batch_items b JOIN orders o ON o.id = b.order_id
       LEFT JOIN shipments s ON s.id = b.shipment_id
       LEFT JOIN labels l ON l.id = b.label_id
       -- A failed item whose shipment the offline queue bought since (the platform was away
       -- when the batch got to it): the label it has now.
       LEFT JOIN labels q ON b.state = 'failed' AND b.shipment_id IS NOT NULL
         AND q.purchase_id = (SELECT p.id FROM label_purchases p
                              WHERE p.shipment_id = b.shipment_id AND p.state = 'purchased'
                              ORDER BY p.id DESC LIMIT 1)
       WHERE b.batch_id = ? ORDER BY b.position`,
    ),
    next: db.prepare<[string], { position: number; order_id: number }>(
      `SELECT position, order_id FROM batch_items WHERE batch_id = ? AND state = 'waiting'
       ORDER BY position LIMIT 1`,
    ),
    working: db.prepare<[string], { position: number; order_id: number }>(
      `SELECT position, order_id FROM batch_items WHERE batch_id = ? AND state = 'working'`,
    ),
    setItem: db.prepare(
      `UPDATE batch_items SET state = @state, shipment_id = @shipmentId, label_id = @labelId,
         cost_cents = @costCents, failure = @failure, updated_at = @now,
         order_version = @orderVersion, last_shipment_id = @lastShipmentId
       WHERE batch_id = @batchId AND position = @position`,
    ),
    lastShipment: db.prepare<[number], { id: number }>(
      `SELECT coalesce(max(id), 0) AS id FROM shipments WHERE order_id = ?`,
    ),
  };
}
