import type { LabelRepository } from '../labels/label-repository.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { StationScope } from '../storage/scope.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { ScanLookup } from './types.js';

const MAX_SCAN_LENGTH = 100;

/**
 * A scanned value as the packer meant it: an order number, or the tracking number of a label
 * already bought (→ reprint). Anything else is "not found", never an exception.
 */
export function lookupScan(
  station: {
    scope: StationScope;
    profile: Profile;
    orders: OrderRepository;
    labels: LabelRepository;
    shipments: ShipmentRepository;
  },
  scanned: string,
): ScanLookup {
  const value = scanned.trim();
  // eslint-disable-next-line no-control-regex
  if (!value || value.length > MAX_SCAN_LENGTH || /[\u0000-\u001f\u007f]/.test(value))
    return {
      kind: 'not-found',
      scanned,
      message: 'That scan is not an order number or a tracking number.',
    };
  const orders = station.orders.findByNumber(station.scope, value);
  if (orders.length === 1) {
    const order = orders[0]!;
    return {
      kind: 'order',
      order,
      labels: station.labels.forOrder(order.id),
      openPurchases: station.shipments
        .purchasesForOrder(order.id)
        .filter((p) => p.state === 'unknown' || p.state === 'purchasing'),
    };
  }
  if (orders.length > 1) return { kind: 'ambiguous', scanned: value, orders };
  const label = station.labels.findByTracking(station.scope, value);
  if (label) return { kind: 'label', scanned: value, label };
  return {
    kind: 'not-found',
    scanned: value,
    message: `No order or label "${value}" in profile ${station.profile.name}.`,
  };
}
