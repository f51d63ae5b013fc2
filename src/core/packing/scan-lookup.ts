import type { LabelRepository } from '../labels/label-repository.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { StationScope } from '../storage/scope.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { ScanLookup } from './types.js';

const MAX_SCAN_LENGTH = 100;

/**
 * A scanned value as the packer meant it: an order number, or the tracking number of a label
 * already bought (→ reprint). Anything else is "not found", never an exception.
 */
interface ScanStation {
  scope: StationScope;
  profile: Profile;
  orders: OrderRepository;
  labels: LabelRepository;
  shipments: ShipmentRepository;
}

export function lookupScan(station: ScanStation, scanned: string): ScanLookup {
  const value = cleanScan(scanned);
  // eslint-disable-next-line no-control-regex
  if (!value || value.length > MAX_SCAN_LENGTH || /[\u0000-\u001c\u001e\u001f\u007f]/.test(value))
    return {
      kind: 'not-found',
      scanned,
      message: 'That scan is not an order number or a tracking number.',
    };
  for (const candidate of scanCandidates(value)) {
    const orders = station.orders.findByNumber(station.scope, candidate);
    if (orders.length === 1) return orderFound(station, orders[0]!);
    if (orders.length > 1) return { kind: 'ambiguous', scanned: candidate, orders };
    const label = station.labels.findByTracking(station.scope, candidate);
    if (label) return { kind: 'label', scanned: candidate, label };
  }
  return {
    kind: 'not-found',
    scanned: value,
    message: `No order or label "${value}" in profile ${station.profile.name}.`,
  };
}

/**
 * One order chosen by its id (opened from Orders): a 3PL's brands may use the same number, and
 * the row a person picked is the order they mean. Not found outside the station's scope.
 */
export function lookupOrderById(station: ScanStation, orderId: number): ScanLookup {
  const order = station.orders.get(orderId);
  if (
    !order ||
    order.profileId !== station.scope.profileId ||
    order.environment !== station.scope.environment
  )
    return {
      kind: 'not-found',
      scanned: String(orderId),
      message: `Order ${orderId} is not in profile ${station.profile.name}.`,
    };
  return orderFound(station, order);
}

function orderFound(station: ScanStation, order: StoredOrder): ScanLookup {
  return {
    kind: 'order',
    order,
    labels: station.labels.forOrder(order.id),
    openPurchases: station.shipments
      .purchasesForOrder(order.id)
      .filter((p) => p.state === 'unknown' || p.state === 'purchasing'),
  };
}

/**
 * What a scanner adds around the data: the Enter/Tab it ends with (CR, LF, CRLF, tab), an AIM
 * symbology identifier (`]C1`) when the scanner is set to send one, and the GS separator
 * (FNC1) of a GS1-128 barcode.
 */
export function cleanScan(scanned: string): string {
  return scanned
    .trim()
    .replace(/^\][A-Za-z][0-9A-Za-z]/, '')
    .trim();
}

/**
 * The values a scan may stand for, in order: itself; the tracking number inside a USPS
 * Intelligent Mail package barcode (`420` + ZIP [+ GS] + tracking number, what a USPS label's
 * barcode holds); the same with upper and lower case swapped (a keyboard-wedge scanner
 * types "lum-10421" for LUM-10421 while Caps Lock is on); and a number with or without the "#"
 * Shopify puts before its order numbers ("2001" finds #2001).
 */
function scanCandidates(value: string): string[] {
  const plain = value.replaceAll('\u001d', '');
  const candidates = new Set([plain]);
  // eslint-disable-next-line no-control-regex
  const impb = /^420(?:\d{5}|\d{9})\u001d?(\d{20,34})$/.exec(value);
  if (impb) candidates.add(impb[1]!);
  const swapped = [...plain]
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('');
  candidates.add(swapped);
  // Shopify's order names are "#2001", printed and barcoded without the "#" on many slips and
  // typed without it; a "#2001" typed for a store that numbers "2001" is the same order.
  if (/^\d{1,12}$/.test(plain)) candidates.add(`#${plain}`);
  else if (/^#\d{1,12}$/.test(plain)) candidates.add(plain.slice(1));
  return [...candidates].filter(Boolean);
}
