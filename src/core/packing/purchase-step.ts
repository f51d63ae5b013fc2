import type { LabelRepository } from '../labels/label-repository.js';
import type { StoredLabel } from '../labels/types.js';
import type { StoredOrder } from '../orders/types.js';
import type { LabelPurchaser, PurchaseHooks } from './label-purchase.js';
import { queueAfterUnreachable, type OfflineDeps } from './offline-steps.js';
import type { PrintQueued } from './print-step.js';
import type { CarrierAccountProblem, RateSelection, Shipment, ShipResult } from './types.js';

/**
 * A rating that ship() writes in the transaction of the purchase intent that follows it (one
 * commit between the rates' answer and the label request instead of two). `write` is there
 * until it has run; flushPendingRating runs it on every other way out.
 */
export interface PendingRating {
  write?: (() => void) | undefined;
}

/** Writes a pending rating now, once (a no-op when it was written or there is none). */
export function flushPendingRating(pending: PendingRating | undefined): void {
  const write = pending?.write;
  if (!write) return;
  pending.write = undefined;
  write();
}

export interface PurchaseStepDeps extends OfflineDeps {
  labels: LabelRepository;
  purchaser: LabelPurchaser;
  hooks: PurchaseHooks;
  print(shipmentId: number, label: StoredLabel): Promise<PrintQueued>;
  /**
   * The print job of a label that has its ZPL, in the transaction that stores the label
   * (print-step.ts queueBoughtLabel); `undefined` leaves it to print().
   */
  queueWithLabel?(shipmentId: number, label: StoredLabel): PrintQueued | undefined;
  /** A label is about to be bought: the label printer's connection may get ready meanwhile. */
  prepareLabelPrinter?(): void;
}

/**
 * The crash-safe purchase (LabelPurchaser), then the print spool: what a rated shipment
 * becomes. A label that came with its ZPL has its print job stored with it, in one commit.
 */
export async function purchaseAndPrint(
  d: PurchaseStepDeps,
  shipment: Shipment,
  order: StoredOrder,
  selection: RateSelection,
  carrierProblems: CarrierAccountProblem[],
  attempt: {
    confirmedBy: string | null;
    batchId?: string | undefined;
    /** ship()'s rating, written in the purchase intent's transaction. */
    pending?: PendingRating | undefined;
  },
): Promise<ShipResult> {
  const { shipments } = d;
  // The printer's connection and status check happen while the platform answers.
  d.prepareLabelPrinter?.();
  const { pending } = attempt;
  const { queueWithLabel } = d;
  const bought = await d.purchaser.purchase(shipment, order, selection, {
    confirmedBy: attempt.confirmedBy,
    batchId: attempt.batchId,
    withIntent: pending && (() => flushPendingRating(pending)),
    withLabel: queueWithLabel && ((label) => queueWithLabel(shipment.id, label)),
  });
  switch (bought.kind) {
    case 'rejected':
      return {
        outcome: 'failed',
        shipment: shipments.get(shipment.id)!,
        failure: bought.failure,
        carrierProblems,
      };
    case 'not-sent':
      return queueAfterUnreachable(d, shipments.get(shipment.id)!, bought.failure);
    case 'not-claimed':
      return {
        outcome: 'invalid',
        failure: bought.failure,
        ...(bought.holder ? { claimedBy: bought.holder } : {}),
      };
    case 'unknown':
      return {
        outcome: 'unknown',
        shipment: shipments.get(shipment.id)!,
        purchase: bought.purchase,
        failure: bought.failure,
      };
    case 'purchased': {
      // Its job was stored with the label, one commit (its bytes are on their way), or the
      // label came without its ZPL and the print step fetches it first.
      let printed = bought.print;
      if (printed && 'printJobId' in printed)
        await d.hooks.at?.('print-enqueued', {
          shipmentId: shipment.id,
          purchaseId: bought.label.purchaseId,
        });
      printed ??= await d.print(shipment.id, bought.label);
      const unclaimed = bought.unclaimed ? { unclaimed: true as const } : {};
      if ('failure' in printed)
        return {
          outcome: 'purchased-not-printed',
          shipment: shipments.get(shipment.id)!,
          label: bought.label,
          failure: printed.failure,
          ...unclaimed,
        };
      return {
        outcome: 'printed',
        shipment: shipments.get(shipment.id)!,
        label: d.labels.get(bought.label.id)!,
        selection,
        carrierProblems,
        printJobId: printed.printJobId,
        ...unclaimed,
      };
    }
    default: {
      const never: never = bought;
      throw new Error(`unexpected purchase ${JSON.stringify(never)}`);
    }
  }
}
