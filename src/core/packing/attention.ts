import type { PrintJob } from '../printing/spool/jobs.js';
import type { AttentionItem as AttentionView } from '../../shared/features/records.js';
import { asSentence } from '../../shared/result.js';
import { batchFailures, failedOrders } from './failed-ratings.js';
import type { ImportAlert } from '../orders/import-alerts.js';
import { NeedsAttention } from './needs-attention.js';
import type { PackingWorkflow } from './packing-workflow.js';

/** A print job the person at the printer must decide about (the spool's `failed`/`unknown`). */
export type StuckPrintJob = Pick<
  PrintJob,
  'id' | 'printerId' | 'state' | 'orderReference' | 'lastError' | 'updatedAt'
>;

/**
 * Everything under Needs attention, in the order the page lists it: purchases of unknown
 * outcome, orders whose last rating or purchase failed (one per order), orders a batch left
 * without a shipment (one entry per batch), print jobs that failed or may not have printed,
 * then order files of the hot folder with problems. The header's count is the length of the
 * same list (`workCounts`).
 */
export function attentionList(
  workflow: PackingWorkflow,
  stuckJobs: readonly StuckPrintJob[],
  printerName: (printerId: string) => string,
  importAlerts: readonly ImportAlert[] = [],
): AttentionView[] {
  const items: AttentionView[] = [];
  for (const a of new NeedsAttention(workflow).list())
    items.push({
      id: `purchase:${a.purchase.id}`,
      kind: 'purchase-unknown',
      orderNumber: a.orderNumber,
      title: `Order ${a.orderNumber}: purchase outcome unknown`,
      detail: `${asSentence(a.failure?.message ?? 'The station did not hear back')} Look it up on the platform before deciding (reference ${a.orderReference}).`,
      reasons: [],
      createdAt: a.since,
      actions: ['check-trackers', 'mark-not-bought', 'buy-again'],
    });
  const failed = failedOrders(workflow);
  for (const s of failed) {
    const order = workflow.orders.get(s.orderId);
    items.push({
      id: `shipment:${s.id}`,
      kind: 'purchase-failed',
      orderNumber: order?.orderNumber ?? null,
      title: `Order ${order?.orderNumber ?? s.orderId}: no label`,
      detail: s.failure?.message ?? 'The platform refused the shipment.',
      reasons: (s.failure?.errors ?? []).map((e) => `${e.field}: ${e.message}`),
      createdAt: s.updatedAt,
      actions: ['dismiss'],
    });
  }
  // Orders a batch could not buy and left without a shipment (no weight, a refused address):
  // one entry per batch, its orders as the reasons. Nothing to decide here: each order is put
  // right and bought (Orders, Pack), or cancelled, and then it leaves the list by itself.
  for (const b of batchFailures(workflow, failed)) {
    const n = b.orders.length;
    items.push({
      id: `batch:${b.batchId}`,
      kind: 'batch-failed',
      orderNumber: n === 1 ? b.orders[0]!.orderNumber : null,
      title: `Batch (${b.description}): ${n} order${n === 1 ? '' : 's'} not bought`,
      detail:
        n === 1
          ? 'The batch left it open, with no label. Put it right and buy it at Pack (scan the order), or cancel it in Orders (Failed filter): it leaves this list once it has a label, is cancelled, or its order file is imported again.'
          : 'The batch left them open, with no label. Put each right and buy it at Pack (scan the order), or cancel it in Orders (Failed filter): an order leaves this list once it has a label, is cancelled, or its order file is imported again.',
      // A batch of hundreds is read in Orders (Failed filter): the first twenty here.
      reasons: [
        ...b.orders.slice(0, 20).map((o) => `${o.orderNumber}: ${o.failure ?? 'failed'}`),
        ...(n > 20 ? [`and ${n - 20} more: Orders, Failed filter`] : []),
      ],
      createdAt: b.updatedAt,
      actions: [],
    });
  }
  // Which parcel each stuck job is for: its order number and tracking number, not only its id.
  const parcelOf = workflow.shipments.db.prepare<
    [string],
    { orderNumber: string; trackingNumber: string | null }
  >(
    `SELECT o.order_number AS orderNumber, l.tracking_number AS trackingNumber
       FROM label_purchases p JOIN shipments s ON s.id = p.shipment_id
       JOIN orders o ON o.id = s.order_id LEFT JOIN labels l ON l.purchase_id = p.id
      WHERE p.order_reference = ? ORDER BY p.created_at DESC LIMIT 1`,
  );
  for (const j of stuckJobs) {
    const parcel = j.orderReference ? parcelOf.get(j.orderReference) : undefined;
    const forWhat = parcel
      ? ` for order ${parcel.orderNumber}${parcel.trackingNumber ? ` (${parcel.trackingNumber})` : ''}`
      : j.orderReference
        ? ` for ${j.orderReference}`
        : '';
    items.push({
      id: `print:${j.id}`,
      kind: 'print-failed',
      orderNumber: parcel?.orderNumber ?? j.orderReference,
      title: `Print job ${j.id}${forWhat} on ${printerName(j.printerId)} ${j.state === 'unknown' ? 'may not have printed' : 'failed'}`,
      detail: j.lastError ?? '',
      reasons: [],
      createdAt: j.updatedAt,
      // Nothing is known to have printed: the person at the printer says whether it did.
      actions: ['mark-printed', 'retry', 'cancel'],
    });
  }
  // Order files of the hot folder that lost orders or had problems: said until dismissed.
  for (const a of importAlerts) {
    const lost = a.ordersLeftOut;
    items.push({
      id: `import:${a.id}`,
      kind: 'import-problems',
      orderNumber: null,
      title: `Order file ${a.fileName}: ${
        lost
          ? `${lost} order${lost === 1 ? '' : 's'} not imported`
          : `${a.problemCount} problem${a.problemCount === 1 ? '' : 's'}`
      }`,
      detail: `The hot folder moved it to ${a.movedTo}, with its report beside it (.report.json)${
        lost
          ? ': put those orders right and drop the file in the hot folder again (the orders already imported stay as they are)'
          : ''
      }. ${a.problemCount} problem${a.problemCount === 1 ? '' : 's'} in all${
        a.problemCount > a.problems.length ? `; the first ${a.problems.length}` : ''
      }:`,
      reasons: a.problems.map((p) => `${p.where}: ${p.reason}`),
      createdAt: a.createdAt,
      actions: ['dismiss'],
    });
  }
  return items;
}

/**
 * What the header, the site store and the events count: the same things the pages list. The
 * Queue's shipments are its rows (waiting, failed, or bought with the outcome unknown); an
 * offline-queue entry that needs attention is its unknown purchase's item, counted once.
 */
export function workCounts(
  workflow: PackingWorkflow,
  stuckJobs: number,
  importAlerts = 0,
): { queuedShipments: number; needsAttention: number } {
  const unknown = workflow.shipments.purchasesInState(workflow.scope, 'unknown').length;
  const failed = failedOrders(workflow);
  return {
    queuedShipments: workflow.queue.pendingCount(workflow.scope),
    needsAttention:
      unknown + failed.length + batchFailures(workflow, failed).length + stuckJobs + importAlerts,
  };
}

export type DismissResult =
  { dismissed: number } | { problem: 'not-found' } | { problem: 'not-failed'; state: string };

/**
 * Dismisses a failed order under Needs attention: every failed attempt of that order is
 * cancelled (one order, one entry, one dismissal), recorded with who did it and the note.
 */
export function dismissFailedOrder(
  workflow: PackingWorkflow,
  shipmentId: number,
  stationUser: string,
  note?: string,
): DismissResult {
  const { shipments, scope } = workflow;
  const shipment = shipments.get(shipmentId);
  if (
    !shipment ||
    shipment.profileId !== scope.profileId ||
    shipment.environment !== scope.environment
  )
    return { problem: 'not-found' };
  const failed = shipments.forOrder(shipment.orderId).filter((s) => s.state === 'failed');
  if (failed.length === 0) return { problem: 'not-failed', state: shipment.state };
  const detail = { dismissedBy: stationUser, ...(note?.trim() ? { note: note.trim() } : {}) };
  for (const s of failed) shipments.setState(s.id, 'cancelled', detail);
  return { dismissed: failed.length };
}
