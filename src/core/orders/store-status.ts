/**
 * What a store's export says is not to ship: an order it cancelled, refunded or shipped
 * already, and the units of a line it refunded. Such an order must never reach the floor as an
 * open one (a label bought for it is money lost): store-formats.ts hands these to the import,
 * which leaves the order out and says why, in the export's own words.
 */
import { fileNumber, type FileDecimals } from './file-numbers.js';

type Get = (header: string) => string;

/** Why an export's order is not to ship at all. */
export interface ClosedInExport {
  /** In the export's words: "Order - Status is Cancelled". */
  said: string;
  /**
   * Cancelled or refunded (a label bought for it at the station should be voided), rather than
   * shipped already (a label bought here is the one it left with).
   */
  cancelled: boolean;
  /**
   * Part of it shipped already and the export does not say which items (BigCommerce's Partially
   * Shipped; a Shopify line partly fulfilled): a label for the whole order would ship those
   * twice, and a label for part of it needs to know which part.
   */
  partly?: boolean;
}

/**
 * An order status column: `cancelled` and `shipped` list the statuses (lower case) that leave
 * nothing to ship. Any other status ships (awaiting payment and on hold are the store's to hold
 * back: it does not send them to be packed).
 */
function status(
  header: string,
  cancelled: readonly string[],
  shipped: readonly string[],
): (get: Get) => ClosedInExport | undefined {
  return (get) => {
    const value = get(header).trim();
    // WooCommerce's own slugs carry a "wc-" some exports keep.
    const key = value.toLowerCase().replace(/^wc-/, '');
    if (cancelled.includes(key)) return { said: `${header} is ${value}`, cancelled: true };
    if (shipped.includes(key)) return { said: `${header} is ${value}`, cancelled: false };
    return undefined;
  };
}

/** ShipStation's "Order - Status". */
export const shipStationClosed = status('Order - Status', ['cancelled', 'canceled'], ['shipped']);

/**
 * WooCommerce's order `status`: cancelled, refunded, failed (never paid) and trash leave nothing
 * to ship; completed is WooCommerce's word for an order fulfilled.
 */
export const wooCommerceClosed = status(
  'status',
  ['cancelled', 'refunded', 'failed', 'trash'],
  ['completed'],
);

const bigCommerceStatus = status(
  'Order Status',
  ['cancelled', 'declined', 'refunded'],
  ['shipped', 'completed'],
);

/**
 * BigCommerce's "Order Status", or a "Total Shipped" that is all of its "Total Quantity"; or part
 * of it shipped ("Partially Shipped", or some of its Total Quantity shipped): its Product Details
 * do not say which products left, so it is not imported either (`partly`).
 */
export function bigCommerceClosed(get: Get): ClosedInExport | undefined {
  const said = bigCommerceStatus(get);
  if (said) return said;
  const shipped = Number(get('Total Shipped'));
  const total = Number(get('Total Quantity'));
  if (total > 0 && shipped >= total)
    return { said: `Total Shipped is ${shipped}, all of its Total Quantity`, cancelled: false };
  const partly = get('Order Status').trim().toLowerCase() === 'partially shipped';
  if (partly || (total > 0 && shipped > 0))
    return {
      said: [
        ...(partly ? [`Order Status is ${get('Order Status').trim()}`] : []),
        ...(shipped > 0 ? [`Total Shipped is ${shipped} of its Total Quantity ${total}`] : []),
      ].join('; '),
      cancelled: false,
      partly: true,
    };
  return undefined;
}

const shopifyStatus = status('Financial Status', ['refunded', 'voided'], []);
const shopifyFulfilment = status('Fulfillment Status', ['restocked'], ['fulfilled']);

/**
 * Shopify writes an order's own columns on its first row only: "Cancelled at" (when it was
 * cancelled), its "Financial Status" (refunded, voided) and "Fulfillment Status" (fulfilled).
 */
export function shopifyClosed(get: Get): ClosedInExport | undefined {
  const cancelledAt = get('Cancelled at').trim();
  if (cancelledAt !== '') return { said: `Cancelled at is ${cancelledAt}`, cancelled: true };
  return shopifyStatus(get) ?? shopifyFulfilment(get) ?? shopifyLinePartly(get);
}

/**
 * A line Shopify fulfilled in part ("Lineitem fulfillment status" partial): the export does not
 * say how many of its units left, so its order is not imported (`partly`). A line fulfilled whole
 * is left out and the rest of the order imported (store-formats.ts).
 */
function shopifyLinePartly(get: Get): ClosedInExport | undefined {
  if (get('Lineitem fulfillment status').trim().toLowerCase() !== 'partial') return undefined;
  const line = get('Lineitem sku').trim() || get('Lineitem name').trim();
  return {
    said: `Lineitem fulfillment status of ${line} is partial`,
    cancelled: false,
    partly: true,
  };
}

/**
 * A WooCommerce line's units left to ship: `item_quantity` less the units refunded
 * (`item_refunded_qty`, which WooCommerce writes as a negative count: -1). The quantity as it is
 * when either cannot be read (a quantity that is no number is the row's problem).
 */
export function wooCommerceQuantity(get: Get, decimals: FileDecimals): string {
  const quantity = get('item_quantity');
  const left = wooUnitsLeft(get, decimals);
  return left === undefined ? quantity : String(left);
}

/** Why a WooCommerce line is not to ship: every unit of it refunded. */
export function wooCommerceSkip(get: Get): string | undefined {
  const left = wooUnitsLeft(get, 'point');
  return left !== undefined && left <= 0
    ? `item_refunded_qty is ${get('item_refunded_qty')}, every unit of its item_quantity ${get('item_quantity')}`
    : undefined;
}

function wooUnitsLeft(get: Get, decimals: FileDecimals): number | undefined {
  const quantity = fileNumber(get('item_quantity'), decimals);
  const refunded = fileNumber(get('item_refunded_qty'), decimals);
  if (get('item_quantity') === '' || !Number.isFinite(quantity)) return undefined;
  if (get('item_refunded_qty') === '' || !Number.isFinite(refunded) || refunded === 0)
    return undefined;
  return quantity - Math.abs(refunded);
}
