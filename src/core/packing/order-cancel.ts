import type { CancelAtStation } from '../orders/closed-orders.js';
import { inTransaction } from '../storage/database.js';
import type { PackingWorkflow } from './packing-workflow.js';

/** What cancelling or reopening some orders did: order numbers changed, and those left (why). */
export interface OrderCancelOutcome {
  done: string[];
  left: { orderNumber: string; reason: string }[];
}

/**
 * A shift lead cancels orders the store cancelled (migration 017): from then on nothing buys
 * them — a scan, a batch and the offline queue are refused (PackingSteps.blockers) — until they
 * are reopened. A shipment of one waiting in the offline queue is taken out. An order that has
 * a label (void it at the carrier; the station cannot), a purchase of unknown outcome (Needs
 * attention first) or a packer's call under way is left as it is, and said.
 */
export function cancelOrders(
  workflow: PackingWorkflow,
  orderIds: readonly number[],
  by: string,
  reason: string,
  now: () => Date = () => new Date(),
): OrderCancelOutcome {
  const out: OrderCancelOutcome = { done: [], left: [] };
  const at = now().toISOString();
  inTransaction(workflow.shipments.db, () => {
    for (const id of orderIds) {
      const order = workflow.orders.get(id);
      if (!order) continue;
      const left = (why: string) => out.left.push({ orderNumber: order.orderNumber, reason: why });
      if (order.cancelled) {
        left(`already cancelled by ${order.cancelled.by}`);
        continue;
      }
      const label = workflow.labels.forOrder(id)[0];
      if (label) {
        left(
          `has label ${label.trackingNumber}: the station cannot void it; void it at the carrier`,
        );
        continue;
      }
      const purchases = workflow.shipments.purchasesForOrder(id);
      // A label request on its way (a packer's, a batch's, the queue's): its answer decides.
      if (workflow.isBusy(id) || purchases.some((p) => p.state === 'purchasing')) {
        left(
          'a label is being bought for it right now: once it is bought, void it at the carrier, or cancel it again if it was not',
        );
        continue;
      }
      if (purchases.some((p) => p.state === 'unknown')) {
        left('a purchase of it has an unknown outcome: settle it under Needs attention first');
        continue;
      }
      let unqueued = false;
      for (const s of workflow.shipments.forOrder(id))
        if (s.state === 'queued') unqueued = workflow.cancelQueued(s.id, by) || unqueued;
      workflow.orders.cancel(id, { by, reason, at });
      out.done.push(
        unqueued ? `${order.orderNumber} (taken out of the offline queue)` : order.orderNumber,
      );
    }
  });
  return out;
}

/**
 * How an import cancels an order open here that its file says the store cancelled or shipped
 * (closed-orders.ts): as a shift lead's cancel, with the same refusals, in the station's log.
 */
export function cancelClosedOrder(
  workflow: PackingWorkflow,
  log: (line: string) => void,
): CancelAtStation {
  return (orderId, by, reason) => {
    const out = cancelOrders(workflow, [orderId], by, reason);
    if (out.done.length === 0) return out.left[0]?.reason ?? 'it is no longer at the station';
    log(`orders cancelled by ${by} (${reason}): ${out.done.join(', ')}`);
    return null;
  };
}

/** Reopens cancelled orders: they are what their shipments and labels say again. */
export function reopenOrders(
  workflow: PackingWorkflow,
  orderIds: readonly number[],
): OrderCancelOutcome {
  const out: OrderCancelOutcome = { done: [], left: [] };
  inTransaction(workflow.shipments.db, () => {
    for (const id of orderIds) {
      const order = workflow.orders.get(id);
      if (!order) continue;
      if (!order.cancelled) {
        out.left.push({ orderNumber: order.orderNumber, reason: 'not cancelled' });
        continue;
      }
      workflow.orders.reopen(id);
      out.done.push(order.orderNumber);
    }
  });
  return out;
}
