import type { PackingWorkflow } from './packing-workflow.js';
import type { Shipment } from './types.js';

/**
 * Orders whose last attempt to rate or buy failed, one entry per order: the newest failed
 * shipment. An order rated three times with the same problem is one thing to look at, not
 * three; an order that has since been rated, bought or queued again is no longer stuck.
 */
export function failedOrders(workflow: Pick<PackingWorkflow, 'shipments' | 'scope'>): Shipment[] {
  const newest = new Map<number, Shipment>();
  for (const s of workflow.shipments.inState(workflow.scope, 'failed')) {
    const seen = newest.get(s.orderId);
    if (!seen || s.id > seen.id) newest.set(s.orderId, s);
  }
  return [...newest.values()]
    .filter((failed) =>
      workflow.shipments
        .forOrder(failed.orderId)
        .every((other) => other.id <= failed.id || other.state === 'cancelled'),
    )
    .sort((a, b) => a.id - b.id);
}

/**
 * Whether an order is listed by failedOrders right now: its newest shipment that was not
 * cancelled failed. (The same rule, for one order: a rating that changes nothing here changes
 * nothing under Needs attention.)
 */
export function hasFailedRating(
  workflow: Pick<PackingWorkflow, 'shipments'>,
  orderId: number,
): boolean {
  const live = workflow.shipments.forOrder(orderId).filter((s) => s.state !== 'cancelled');
  return live.at(-1)?.state === 'failed';
}

/** A batch whose orders failed before any shipment was made (no weight, a bad address). */
export interface BatchFailures {
  batchId: string;
  description: string;
  createdAt: string;
  /** The newest failure among them. */
  updatedAt: string;
  orders: { orderId: number; orderNumber: string; failure: string | null }[];
}

/**
 * Orders a batch failed that still stand failed on that failure (the `failed` status of
 * migrations 11 and 17: the order as the batch tried it, no shipment since, not cancelled or
 * labelled), grouped by batch, oldest batch first. An order whose newest shipment failed is
 * failedOrders' and is not repeated here.
 */
export function batchFailures(
  workflow: Pick<PackingWorkflow, 'shipments' | 'scope'>,
  failed: readonly Shipment[] = failedOrders(workflow),
): BatchFailures[] {
  const rows = workflow.shipments.db
    .prepare<
      [string, string],
      {
        batchId: string;
        description: string;
        createdAt: string;
        orderId: number;
        orderNumber: string;
        failure: string | null;
        updatedAt: string;
      }
    >(
      `SELECT b.batch_id AS batchId, bt.description, bt.created_at AS createdAt, o.id AS orderId,
              o.order_number AS orderNumber, b.failure, b.updated_at AS updatedAt
         FROM order_status st JOIN orders o ON o.id = st.order_id
         JOIN batch_items b ON b.order_id = o.id AND b.state = 'failed' AND b.shipment_id IS NULL
          AND b.order_version = o.updated_at
          AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.id > b.last_shipment_id)
         JOIN batches bt ON bt.id = b.batch_id
        WHERE st.profile_id = ? AND st.environment = ? AND st.status = 'failed'
        ORDER BY bt.created_at DESC, b.batch_id DESC, b.position`,
    )
    .all(workflow.scope.profileId, workflow.scope.environment);
  const listed = new Set(failed.map((s) => s.orderId));
  const seen = new Set<number>();
  const batches = new Map<string, BatchFailures>();
  for (const r of rows) {
    // An order two batches failed is listed once, under the newer batch (read first).
    if (listed.has(r.orderId) || seen.has(r.orderId)) continue;
    seen.add(r.orderId);
    let b = batches.get(r.batchId);
    if (!b) {
      b = {
        batchId: r.batchId,
        description: r.description,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        orders: [],
      };
      batches.set(r.batchId, b);
    }
    if (r.updatedAt > b.updatedAt) b.updatedAt = r.updatedAt;
    b.orders.push({ orderId: r.orderId, orderNumber: r.orderNumber, failure: r.failure });
  }
  return [...batches.values()].reverse();
}
