import type { StoredOrder } from '../orders/types.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { CarrierAccountProblem, Failure, Shipment, ShipResult } from './types.js';

/**
 * A new version of the order (an import that corrected its ship-to, weights or boxes) came after
 * this shipment was built: its rates are for the old one, and buying them would ship to the old
 * address or at the old weight. Null when the order is as it was, when the versions since change
 * none of it (items or options only: the rates still fit, and a weight the packer typed over the
 * file's stands), or for a return label's shipment (built from the label).
 */
export function orderChangedSince(shipment: Shipment, order: StoredOrder): Failure | null {
  const what = shippingChangedSince(shipment, order);
  return what
    ? {
        code: 'order-changed',
        message: `Order ${order.orderNumber} was imported again after it was rated (${what}): those rates are for its old version, so nothing was bought. Scan it again to rate it as it is now.`,
        changed: what,
      }
    : null;
}

/** What a new version since the shipment was rated changed of it, in words; null: nothing. */
export function shippingChangedSince(shipment: Shipment, order: StoredOrder): string | null {
  if (shipment.returnOfLabelId !== undefined || !order.shippingChanged) return null;
  if (Date.parse(order.shippingChanged.at) <= Date.parse(shipment.createdAt)) return null;
  const changed = new Set(order.shippingChanged.what);
  const to = order.shipTo;
  const line = (a: StoredOrder['shipTo']) =>
    [a.name, a.company, a.addressLine1, a.addressLine2, a.addressLine3, a.city, a.stateProvince]
      .concat(a.postalCode, a.countryCode)
      .filter(Boolean)
      .join(', ');
  // An earlier version since the rating may have changed the address, the last one the weight.
  if (line(shipment.shipment.shipTo as StoredOrder['shipTo']) !== line(to)) changed.add('address');
  const what: string[] = [];
  if (changed.has('address')) what.push(`its ship-to is now ${line(to)}`);
  const weights = order.packages.map((p) => p.weightLbs ?? '?').join(' + ');
  if (changed.has('weight')) what.push(`its weight in the order file is now ${weights} lb`);
  if (changed.has('box')) what.push('its box or package size in the order file changed');
  return what.join('; ');
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
