import type { StoredOrder } from '../orders/types.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { CarrierAccountProblem, Failure, Shipment, ShipResult } from './types.js';

/**
 * A new version of the order (an import that corrected its address or weights) came after this
 * shipment was built: its rates are for the old one, and buying them would ship to the old
 * address or at the old weight. Null when the order is as it was, when the new version changes
 * neither (the rates still fit), or for a return label's shipment (built from the label).
 */
export function orderChangedSince(shipment: Shipment, order: StoredOrder): Failure | null {
  if (shipment.returnOfLabelId !== undefined) return null;
  if (Date.parse(order.updatedAt) <= Date.parse(shipment.createdAt)) return null;
  const was = shipment.shipment;
  const line = (a: StoredOrder['shipTo']) =>
    [a.addressLine1, a.addressLine2, a.city, a.stateProvince, a.postalCode, a.countryCode]
      .filter(Boolean)
      .join(', ');
  const what: string[] = [];
  if (line(was.shipTo) !== line(order.shipTo))
    what.push(`its address is now ${line(order.shipTo)}`);
  const weights = (ws: (number | null | undefined)[]) => ws.map((w) => w ?? '?').join(' + ');
  const now = order.packages.map((p) => p.weightLbs);
  if (now.every((w) => w != null) && weights(now) !== weights(was.packages.map((p) => p.weightLbs)))
    what.push(`its weight is now ${weights(now)} lb`);
  // A new version that changes neither (its items, say): the rates still fit what is shipped.
  if (what.length === 0) return null;
  return {
    code: 'order-changed',
    message: `Order ${order.orderNumber} was imported again after it was rated (${what.join('; ')}): those rates are for its old version, so nothing was bought. Scan it again to rate it as it is now.`,
  };
}

/** A queued shipment that is not to be bought after all (the offline queue's): failed, and said. */
export function failQueued(
  shipments: ShipmentRepository,
  shipmentId: number,
  failure: Failure,
  carrierProblems: CarrierAccountProblem[],
): ShipResult {
  shipments.setFailed(shipmentId, 'failed', failure);
  return { outcome: 'failed', shipment: shipments.get(shipmentId)!, failure, carrierProblems };
}
