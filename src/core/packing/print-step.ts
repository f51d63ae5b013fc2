import type { LabelRepository } from '../labels/label-repository.js';
import { printJobIdOf, type LabelPrintQueue } from '../labels/print-queue.js';
import type { StoredLabel } from '../labels/types.js';
import type { OrderRepository } from '../orders/order-repository.js';
import { renderPackingSlip } from '../printing/packing-slip.js';
import { labelPrinterOf, slipPrinterOf, type Profile } from '../profiles/profile-schema.js';
import type { PurchaseHooks } from './label-purchase.js';
import type { PackingPlatform } from './platform-port.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { Failure } from './types.js';
import { inTransaction } from '../storage/database.js';

export interface PrintStepDeps {
  profile: Profile;
  platform: PackingPlatform;
  printQueue: LabelPrintQueue;
  labels: LabelRepository;
  shipments: ShipmentRepository;
  orders?: OrderRepository;
  hooks: PurchaseHooks;
}

/** What handing a label to the spool came to: its job, or why it is not queued. */
export type PrintQueued = { printJobId: number | null } | { failure: Failure };

/**
 * Hands a bought label to the print spool (which owns durability and retries) and marks the
 * shipment print-queued. A label whose ZPL is missing is fetched again from the platform.
 */
export async function sendLabelToPrinter(
  deps: PrintStepDeps,
  shipmentId: number,
  label: StoredLabel,
): Promise<PrintQueued> {
  const printerId = labelPrinterOf(deps.profile);
  if (!printerId) return noLabelPrinter(deps.profile, label);
  let zpl = label.zpl;
  if (!zpl) {
    try {
      zpl = await deps.platform.labelZpl(label.tenantId, label.platformLabelId);
      deps.labels.restoreZpl(label.id, zpl);
    } catch (error) {
      return notQueued(deps, shipmentId, label, error);
    }
  }
  const queued = queueLabelJob(deps, shipmentId, { ...label, zpl }, printerId);
  if ('printJobId' in queued)
    await deps.hooks.at?.('print-enqueued', { shipmentId, purchaseId: label.purchaseId });
  return queued;
}

/**
 * The same, synchronously, for a label that has its ZPL: called by the purchase inside the
 * transaction that stores the label (LabelPurchaser.store), so a label and its print job are
 * one commit. `undefined` when the ZPL must be fetched first (sendLabelToPrinter does that).
 * Never throws: what could not be queued is rolled back to its savepoint and told as a failure,
 * and the label's own writes stand.
 */
export function queueBoughtLabel(
  deps: PrintStepDeps,
  shipmentId: number,
  label: StoredLabel,
): PrintQueued | undefined {
  const printerId = labelPrinterOf(deps.profile);
  if (!printerId) return noLabelPrinter(deps.profile, label);
  if (!label.zpl) return undefined;
  return queueLabelJob(deps, shipmentId, label, printerId);
}

function noLabelPrinter(profile: Profile, label: StoredLabel): PrintQueued {
  return {
    failure: {
      code: 'no-label-printer',
      message: `Profile ${profile.name} has no label printer: the label ${label.trackingNumber} is stored, and prints by itself once a label printer is added in Settings (Alt+7); no reprint is needed.`,
    },
  };
}

function notQueued(
  deps: PrintStepDeps,
  shipmentId: number,
  label: StoredLabel,
  error: unknown,
): PrintQueued {
  const failure: Failure = {
    code: 'print-not-queued',
    message: `The label ${label.trackingNumber} is bought and stored but could not be sent to the printer queue: ${(error as Error).message}`,
  };
  deps.shipments.event(shipmentId, 'print-not-queued', failure);
  return { failure };
}

/**
 * The label's print job, its packing slip and the shipment's move to print-queued, in one
 * transaction (a savepoint inside the label's own): a crash leaves either no job and a
 * 'purchased' shipment (recovery queues the label) or the job and 'print-queued' (recovery
 * leaves it), never a job that recovery cannot see and queues again. The spool stores jobs
 * synchronously in this database.
 */
function queueLabelJob(
  deps: PrintStepDeps,
  shipmentId: number,
  label: StoredLabel,
  printerId: string,
): PrintQueued {
  try {
    const printJobId = inTransaction(deps.shipments.db, () => {
      // A job already stored for this label (a station that stopped before both were one
      // transaction, or another path that queued it) is the label's job: never a second one.
      const existing = deps.printQueue.existingLabelJob?.(label.platformLabelId);
      if (existing) {
        const id = printJobIdOf(existing);
        deps.shipments.setState(shipmentId, 'print-queued', {
          printerId,
          printJobId: id,
          note: 'its print job was already stored',
        });
        return id;
      }
      const job = deps.printQueue.enqueue({
        printerId,
        payload: label.zpl!,
        labelId: label.platformLabelId,
        orderReference: label.orderReference,
        kind: 'label',
      });
      const id = printJobIdOf(job);
      void deps.hooks.at?.('print-job-stored', { shipmentId, purchaseId: label.purchaseId });
      queuePackingSlip(deps, shipmentId, label);
      deps.shipments.setState(shipmentId, 'print-queued', { printerId, printJobId: id });
      return id;
    });
    return { printJobId };
  } catch (error) {
    return notQueued(deps, shipmentId, label, error);
  }
}

/**
 * The packing slip, when the profile asks for one, right after its label and in the same
 * transaction. A slip that cannot be queued is recorded on the shipment and never holds up the
 * label.
 */
function queuePackingSlip(
  deps: {
    profile: Profile;
    printQueue: LabelPrintQueue;
    shipments: ShipmentRepository;
    orders?: OrderRepository;
  },
  shipmentId: number,
  label: StoredLabel,
): void {
  const slips = deps.profile.packingSlips;
  const printerId = slipPrinterOf(deps.profile);
  if (!slips || !printerId || !deps.orders) return;
  // A return label goes in the customer's box later: no packing slip for it.
  if (label.returnOfLabelId) return;
  try {
    const order = deps.orders.get(label.orderId);
    if (!order) throw new Error(`order ${label.orderNumber} is no longer stored`);
    const brand = deps.profile.brandTenants.find((b) => b.tenantId === order.tenantId)?.name;
    const packedBy = deps.shipments.get(shipmentId)?.stationUser;
    const payload = renderPackingSlip(
      {
        orderNumber: order.orderNumber,
        ...(brand ? { brand } : {}),
        shipTo: {
          ...(order.shipTo.name ? { name: order.shipTo.name } : {}),
          city: order.shipTo.city,
          ...(order.shipTo.stateProvince ? { state: order.shipTo.stateProvince } : {}),
          postalCode: order.shipTo.postalCode,
        },
        items: order.packages.flatMap((p) =>
          p.items.map((i) => ({ sku: i.sku, name: i.name, quantity: i.quantity })),
        ),
        trackingNumber: label.trackingNumber,
        ...(packedBy ? { packedBy } : {}),
        ...(slips.footer ? { footer: slips.footer } : {}),
      },
      { type: slips.type, width: slips.width },
    );
    deps.printQueue.enqueue({
      printerId,
      payload,
      labelId: label.platformLabelId,
      orderReference: label.orderReference,
      kind: 'slip',
    });
  } catch (error) {
    deps.shipments.event(shipmentId, 'slip-not-queued', {
      code: 'slip-not-queued',
      message: `The packing slip of ${label.orderNumber} could not be sent to ${printerId}: ${(error as Error).message}`,
    });
  }
}
