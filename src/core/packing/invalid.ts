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
