import type { LabelRepository } from '../labels/label-repository.js';
import type { StoredOrder } from '../orders/types.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { ShipResult } from './types.js';

/** A call refused before anything happened, with a code and the packer's sentence. */
export const invalid = (
  code: string,
  message: string,
): Extract<ShipResult, { outcome: 'invalid' }> => ({
  outcome: 'invalid',
  failure: { code, message },
});

/** Why nothing is bought for an order a shift lead cancelled at the station. */
export function cancelledMessage(order: {
  orderNumber: string;
  cancelled?: { by: string; reason: string; elsewhere?: string | undefined } | undefined;
}): string {
  const c = order.cancelled;
  const where = c?.elsewhere ? ` at ${c.elsewhere}` : '';
  return `Order ${order.orderNumber} was cancelled${where}${c ? ` by ${c.by} (${c.reason})` : ''}: nothing is bought for it. If it ships after all, a shift lead reopens it in Orders (Alt+8)${where ? `, here or${where}` : ''}.`;
}

/** An open or unknown purchase, or a label the packer did not confirm buying again. */
export function orderBlockers(
  d: { shipments: ShipmentRepository; labels: LabelRepository },
  order: StoredOrder,
  confirmAnother: boolean,
):
  Extract<ShipResult, { outcome: 'needs-attention' | 'already-labelled' | 'invalid' }> | undefined {
  // Cancelled by a shift lead (read with the order, no query of its own): nothing buys it.
  if (order.cancelled) return invalid('order-cancelled', cancelledMessage(order));
  const open = d.shipments
    .purchasesForOrder(order.id)
    .filter((p) => p.state === 'unknown' || p.state === 'purchasing');
  if (open.length > 0) return { outcome: 'needs-attention', purchases: open };
  const labels = d.labels.forOrder(order.id);
  if (labels.length > 0 && !confirmAnother) return { outcome: 'already-labelled', labels };
  return undefined;
}
