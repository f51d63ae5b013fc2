import type { PackingWorkflow } from './packing-workflow.js';

/**
 * A batch item left `working` by a station that stopped, settled from what the station knows of
 * its order (BatchRunner.recover): a label → bought; a purchase of unknown outcome → failed
 * (Needs attention); nothing → waiting again.
 */
export function interruptedItem(
  workflow: PackingWorkflow,
  orderId: number,
): {
  state: 'bought' | 'failed' | 'waiting';
  labelId: number | null;
  costCents: number | null;
  failure: string | null;
} {
  const labels = workflow.labels.forOrder(orderId);
  if (labels.length > 0) {
    const label = labels[labels.length - 1]!;
    return { state: 'bought', labelId: label.id, costCents: label.costCents, failure: null };
  }
  const open = workflow.shipments
    .purchasesForOrder(orderId)
    .some((p) => p.state === 'unknown' || p.state === 'purchasing');
  return open
    ? {
        state: 'failed',
        labelId: null,
        costCents: null,
        failure:
          'The station stopped while buying this label: its outcome is unknown. See Needs attention.',
      }
    : { state: 'waiting', labelId: null, costCents: null, failure: null };
}
