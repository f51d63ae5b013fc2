import type { LabelRepository } from '../labels/label-repository.js';
import { printJobIdOf, type LabelPrintQueue } from '../labels/print-queue.js';
import type { StoredLabel } from '../labels/types.js';
import { labelPrinterOf, type Profile } from '../profiles/profile-schema.js';
import type { PurchaseHooks } from './label-purchase.js';
import type { PackingPlatform } from './platform-port.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { Failure } from './types.js';

/**
 * Hands a bought label to the print spool (which owns durability and retries) and marks the
 * shipment print-queued. A label whose ZPL is missing is fetched again from the platform.
 */
export async function sendLabelToPrinter(
  deps: {
    profile: Profile;
    platform: PackingPlatform;
    printQueue: LabelPrintQueue;
    labels: LabelRepository;
    shipments: ShipmentRepository;
    hooks: PurchaseHooks;
  },
  shipmentId: number,
  label: StoredLabel,
): Promise<{ printJobId: number | null } | { failure: Failure }> {
  const printerId = labelPrinterOf(deps.profile);
  if (!printerId)
    return {
      failure: {
        code: 'no-label-printer',
        message: `Profile ${deps.profile.name} has no label printer; the label ${label.trackingNumber} is stored and can be reprinted.`,
      },
    };
  let zpl = label.zpl;
  try {
    if (!zpl) {
      zpl = await deps.platform.labelZpl(label.tenantId, label.platformLabelId);
      deps.labels.restoreZpl(label.id, zpl);
    }
    const job = await deps.printQueue.enqueue({
      printerId,
      payload: zpl,
      labelId: label.platformLabelId,
      orderReference: label.orderReference,
      kind: 'label',
    });
    const printJobId = printJobIdOf(job);
    deps.shipments.setState(shipmentId, 'print-queued', { printerId, printJobId });
    await deps.hooks.at?.('print-enqueued', { shipmentId, purchaseId: label.purchaseId });
    return { printJobId };
  } catch (error) {
    const failure: Failure = {
      code: 'print-not-queued',
      message: `The label ${label.trackingNumber} is bought and stored but could not be sent to the printer queue: ${(error as Error).message}`,
    };
    deps.shipments.event(shipmentId, 'print-not-queued', failure);
    return { failure };
  }
}
