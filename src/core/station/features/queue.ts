import type { QueueEntry } from '../../queue/offline-queue-repository.js';
import type { StationContext } from '../context.js';
import type { ProfileRuntime } from '../runtime.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { recordCalls } from '../../../shared/features/records.js';
import { StationFailure } from '../errors.js';
import { queueOf } from '../snapshots.js';
import { actor } from './users.js';

type QueueCalls = 'queue.list' | 'queue.retry' | 'queue.cancel' | 'queue.move';

/**
 * The Queue page's buttons. Each either acts or says, in the shift lead's words, why it does
 * not: a shipment the queue bought without hearing back is decided under Needs attention only
 * (sending it again or cancelling it here could pay for a second label or release an order
 * whose label exists), and one that is over is said to be over.
 */
export function queueHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof recordCalls>, QueueCalls> {
  return {
    'queue.list': async () => queueOf(ctx),
    'queue.retry': async ({ kind, id }) => {
      if (kind === 'print-job') ctx.spool.retry(printJobId(id));
      else {
        const r = ctx.runtime();
        const entry = queuedShipment(r, id);
        const state = rowState(r, entry);
        switch (state) {
          case 'needs-attention':
            throw new StationFailure(
              'conflict',
              unknownOutcome(r, entry, 'Nothing was sent again.'),
            );
          case 'over':
            throw new StationFailure('conflict', over(r, entry, 'nothing was sent again'));
          case 'failed': {
            // A failed entry (refused while the key was wrong, say) waits again, due now.
            const again = r.workflow.requeueFailed(entry.id, actor(ctx));
            if (again?.outcome === 'labelled') {
              ctx.changed('queue');
              throw new StationFailure(
                'conflict',
                `That order has its label now (${again.trackingNumber}): nothing is queued again.`,
              );
            }
            if (!again)
              throw new StationFailure('conflict', 'That shipment can no longer be retried.');
            ctx.log(`queued shipment ${entry.shipmentId} retried by ${actor(ctx)}`);
            break;
          }
          case 'waiting':
            break;
          default: {
            const never: never = state;
            throw new Error(`unknown queue row state ${String(never)}`);
          }
        }
        void r.drainer.drain(true);
      }
      ctx.changed('queue');
      return { done: true as const };
    },
    'queue.cancel': async ({ kind, id }) => {
      const r = ctx.runtime();
      if (kind === 'print-job') {
        const job = ctx.spool.get(printJobId(id));
        ctx.spool.cancel(printJobId(id), `cancelled in the Queue by ${actor(ctx)}`);
        // A label that will not print is worth a line: "it never came out" is asked later.
        ctx.log(
          `print job ${id} cancelled by ${actor(ctx)}${job ? ` (${job.kind}${job.labelId ? `, label ${job.labelId}` : ''}, ${job.state} on ${job.printerId})` : ''}`,
        );
      } else {
        const entry = queuedShipment(r, id);
        const state = rowState(r, entry);
        if (state === 'needs-attention')
          throw new StationFailure('conflict', unknownOutcome(r, entry, 'Nothing was cancelled.'));
        if (state === 'over' || !r.workflow.cancelQueued(entry.shipmentId, actor(ctx)))
          throw new StationFailure(
            'conflict',
            r.workflow.shipments.get(entry.shipmentId)?.state === 'purchasing'
              ? `The queue is buying order ${orderNumberOf(r, entry)}'s label right now: it can no longer be cancelled. Nothing was cancelled; how it ends shows here, or under Needs attention.`
              : over(r, entry, 'nothing was cancelled'),
          );
        ctx.log(`queued shipment ${entry.shipmentId} cancelled by ${actor(ctx)}`);
      }
      ctx.changed('queue');
      return { done: true as const };
    },
    'queue.move': async ({ id, printerId }) => {
      ctx.spool.move(printJobId(id), printerId);
      ctx.log(`print job ${id} moved to ${printerId} by ${actor(ctx)}`);
      ctx.changed('queue');
      return { done: true as const };
    },
  };
}

function queuedShipment(r: ProfileRuntime, id: string): QueueEntry {
  const entry = r.queue.getInScope(r.scope, Number(id));
  if (!entry) throw new StationFailure('not-found', `No queued shipment ${id}.`);
  return entry;
}

/**
 * The entry as the Queue page shows it; `over` when it is not on the page any more (bought,
 * cancelled, or decided under Needs attention) while the page still had it.
 */
function rowState(
  r: ProfileRuntime,
  entry: QueueEntry,
): 'waiting' | 'failed' | 'needs-attention' | 'over' {
  const shipment = r.workflow.shipments.get(entry.shipmentId);
  if (!shipment || shipment.state === 'cancelled') return 'over';
  switch (entry.state) {
    case 'waiting':
      return 'waiting';
    case 'failed':
      // One whose order got its label since is over too; Retry now names that label.
      return 'failed';
    case 'needs-attention':
      return shipment.state === 'unknown' || shipment.state === 'purchasing'
        ? 'needs-attention'
        : 'over';
    case 'done':
      return 'over';
    default: {
      const never: never = entry.state;
      throw new Error(`unknown queue state ${String(never)}`);
    }
  }
}

function orderNumberOf(r: ProfileRuntime, entry: QueueEntry): string {
  const shipment = r.workflow.shipments.get(entry.shipmentId);
  return (
    (shipment && r.workflow.orders.get(shipment.orderId)?.orderNumber) ?? `#${entry.shipmentId}`
  );
}

const unknownOutcome = (r: ProfileRuntime, entry: QueueEntry, nothing: string) =>
  `The queue bought order ${orderNumberOf(r, entry)} but never heard whether the label went through: decide it under Needs attention (Alt+2), not here. ${nothing}`;

const over = (r: ProfileRuntime, entry: QueueEntry, nothing: string) =>
  `Order ${orderNumberOf(r, entry)} is no longer in the queue (bought, cancelled or decided under Needs attention): ${nothing}.`;

/** A print job's id from the renderer: a number, or "no such job" in words. */
export function printJobId(id: string): number {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new StationFailure('not-found', `Print job ${id} does not exist.`);
  return n;
}
