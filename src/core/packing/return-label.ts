import type { LabelRepository } from '../labels/label-repository.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { StoredOrder } from '../orders/types.js';
import type { StationScope } from '../storage/scope.js';
import { invalid } from './invalid.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { Shipment, ShipResult } from './types.js';

/**
 * The shipment of a return label (returnType LABEL) for a bought label: the original shipment
 * with its addresses swapped (from the customer back to the site that shipped it), or why none
 * is made (not this profile's label, itself a return, one still in flight, one already bought
 * without `confirmAnotherLabel`, the original no longer stored). Rating and the crash-safe
 * purchase are the packer's own (PackingSteps.returnLabel).
 */
export function returnShipment(
  d: {
    shipments: ShipmentRepository;
    labels: LabelRepository;
    orders: OrderRepository;
    scope: StationScope;
  },
  labelId: number,
  options: { stationUser?: string | undefined; confirmAnotherLabel?: boolean | undefined },
): ShipResult | { shipment: Shipment; order: StoredOrder } {
  const { shipments, labels, scope } = d;
  const label = labels.get(labelId);
  if (!label || label.profileId !== scope.profileId || label.environment !== scope.environment)
    return invalid('label-not-found', `No label ${labelId} in this profile.`);
  if (label.returnOfLabelId)
    return invalid(
      'is-a-return-label',
      `Label ${label.trackingNumber} is itself a return label; make the return label from the original shipment's label.`,
    );
  const order = d.orders.get(label.orderId)!;
  const mine = shipments.forOrder(order.id).filter((s) => s.returnOfLabelId === label.id);
  const open = mine.flatMap((s) =>
    shipments
      .purchasesForShipment(s.id)
      .filter((p) => p.state === 'unknown' || p.state === 'purchasing'),
  );
  if (open.length > 0) return { outcome: 'needs-attention', purchases: open };
  const earlier = (labels.returnsOf([label.id]).get(label.id) ?? []).map((r) => labels.get(r.id)!);
  if (earlier.length > 0 && options.confirmAnotherLabel !== true)
    return { outcome: 'already-labelled', labels: earlier };
  const purchase = shipments.purchase(label.purchaseId);
  const original = purchase && shipments.get(purchase.shipmentId);
  if (!original)
    return invalid(
      'original-shipment-missing',
      `The shipment of label ${label.trackingNumber} is no longer stored; a return label cannot be made from it.`,
    );
  const { siteId, ...warehouse } = original.shipment.shipFrom;
  const { deliveryOption: _saturday, ...options_ } = original.shipment.options ?? {};
  for (const s of mine)
    if (s.state === 'ready' || s.state === 'rated')
      shipments.setState(s.id, 'cancelled', { why: 'superseded by a new return label' });
  const shipment = shipments.create(scope, {
    tenantId: label.tenantId,
    orderId: order.id,
    state: 'ready',
    stationUser: options.stationUser ?? null,
    returnOfLabelId: label.id,
    shipment: {
      // From the customer, back to the site the parcel left from (its siteId stays: the
      // return belongs to that site's account).
      shipTo: warehouse,
      shipFrom: { ...original.shipment.shipTo, ...(siteId ? { siteId } : {}) },
      packages: original.shipment.packages,
      returnType: 'LABEL',
      ...(Object.keys(options_).length > 0 ? { options: options_ } : {}),
    },
  });
  return { shipment, order };
}
