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
