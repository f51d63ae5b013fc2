/**
 * Order exports people actually have (issue 15): recognised by their header, mapped onto the
 * station's own CSV columns (csv-columns.ts) without asking anything. Anything else can be read
 * through a column mapping saved in the profile (`orderColumnMappings`).
 *
 * Each format names the file's columns it reads; columns it does not name are ignored (an
 * export has dozens: taxes, payment, marketing). The column sets follow the platforms'
 * exports as of 2025 (docs/core.md, "Store exports"); samples are in test/fixtures/orders/.
 */
import { countryCodeOf } from './countries.js';
import type { Column } from './csv-columns.js';
import type { FileDecimals } from './file-numbers.js';
import { bigCommerceProducts, ounces, perUnit, type ExpandedItem } from './store-values.js';
import { mappedWeight } from './mapped-weight.js';
import {
  bigCommerceClosed,
  shipStationClosed,
  shopifyClosed,
  wooCommerceClosed,
  wooCommerceQuantity,
  wooCommerceSkip,
  type ClosedInExport,
} from './store-status.js';

export { bigCommerceProducts, type ExpandedItem } from './store-values.js';

/** How one station column is read from a record of the file. */
export interface ColumnReader {
  /** The file's column(s) it comes from, for problems ("Shipping Zip"). */
  label: string;
  /** The file's headers it reads (any one of them is enough). */
  headers: readonly string[];
  /** `decimals`: how the file writes its decimals (file-numbers.ts), for readers of numbers. */
  read(get: (header: string) => string, decimals: FileDecimals): string;
  /** A problem with the value, in the column's own unit (its reason is said in pounds). */
  say?(reason: string): string;
}

export interface RecognisedFormat {
  /** What the person sees: "Shopify orders export", or the saved mapping's name. */
  name: string;
  columns: Partial<Record<Column, ColumnReader>>;
  /**
   * Why a row is not an item to ship, in the export's words ("Lineitem requires shipping is
   * false": a gift card; a line shipped already); undefined for one to ship. An order with no
   * other line is not imported, and said.
   */
  skipItem?(get: (header: string) => string): string | undefined;
  /**
   * Whether a row says its order is not to ship at all (cancelled, refunded, shipped already):
   * the order is not imported, and said (store-status.ts).
   */
  closedBy?(get: (header: string) => string): ClosedInExport | undefined;
  /** A record that carries several items in one cell. */
  expandItems?(get: (header: string) => string): ExpandedItem[] | { error: string };
  /**
   * The export's own id of a line (Amazon's order-item-id, WooCommerce's item_id): two lines
   * with their own ids are two lines, however alike; the same id twice is a line repeated.
   */
  lineId?(get: (header: string) => string): string;
}

/** A mapping saved in the profile: station column → the file's header. */
export interface SavedColumnMapping {
  name: string;
  columns: Partial<Record<Column, string>>;
  /** The unit of the weight column (pounds when absent). */
  weightUnit?: 'lb' | 'oz' | 'kg' | 'g';
  /** A column naming each row's weight unit; an empty cell is `weightUnit`. */
  weightUnitColumn?: string;
}

const col = (header: string): ColumnReader => ({
  label: header,
  headers: [header],
  read: (get) => get(header),
});
/** The first of several headers that has a value. */
const first = (...headers: string[]): ColumnReader => ({
  label: headers.join(' / '),
  headers,
  read: (get) => headers.map((h) => get(h)).find((v) => v !== '') ?? '',
});
const joined = (...headers: string[]): ColumnReader => ({
  label: headers.join(' + '),
  headers,
  read: (get) =>
    headers
      .map((h) => get(h))
      .filter(Boolean)
      .join(' '),
});
const country = (header: string): ColumnReader => ({
  label: header,
  headers: [header],
  read: (get) => countryCodeOf(get(header)),
});
/** Shopify writes a ZIP as '02134 so that spreadsheets keep its zero. */
const zip = (header: string): ColumnReader => ({
  label: header,
  headers: [header],
  read: (get) => get(header).replace(/^'/, ''),
});

interface KnownFormat extends RecognisedFormat {
  /** Headers that together say "this is that export". */
  signature: string[];
}

const shopify: KnownFormat = {
  name: 'Shopify orders export',
  signature: ['Name', 'Lineitem quantity', 'Lineitem name', 'Shipping Zip'],
  columns: {
    order_number: col('Name'),
    ship_to_name: col('Shipping Name'),
    ship_to_company: col('Shipping Company'),
    ship_to_address1: col('Shipping Address1'),
    ship_to_address2: col('Shipping Address2'),
    ship_to_city: col('Shipping City'),
    ship_to_state: col('Shipping Province'),
    ship_to_postal_code: zip('Shipping Zip'),
    ship_to_country: country('Shipping Country'),
    ship_to_phone: first('Shipping Phone', 'Phone'),
    ship_to_email: col('Email'),
    sku: col('Lineitem sku'),
    item_name: col('Lineitem name'),
    quantity: col('Lineitem quantity'),
    unit_value_usd: col('Lineitem price'),
  },
  skipItem: (get) =>
    get('Lineitem requires shipping').toLowerCase() === 'false'
      ? 'Lineitem requires shipping is false'
      : // A partly fulfilled order: its fulfilled lines left the warehouse already.
        get('Lineitem fulfillment status').toLowerCase() === 'fulfilled'
        ? 'Lineitem fulfillment status is fulfilled'
        : undefined,
  closedBy: shopifyClosed,
};

/** ShipStation's orders export: one row per item; the order's weight in ounces. */
const shipStation: KnownFormat = {
  name: 'ShipStation orders export',
  signature: ['Order - Number', 'Ship To - Address 1', 'Item - SKU'],
  columns: {
    order_number: col('Order - Number'),
    ship_to_name: col('Ship To - Name'),
    ship_to_company: col('Ship To - Company'),
    ship_to_address1: col('Ship To - Address 1'),
    ship_to_address2: joined('Ship To - Address 2', 'Ship To - Address 3'),
    ship_to_city: col('Ship To - City'),
    ship_to_state: col('Ship To - State'),
    ship_to_postal_code: col('Ship To - Postal Code'),
    ship_to_country: country('Ship To - Country'),
    ship_to_phone: col('Ship To - Phone'),
    ship_to_email: col('Customer - Email'),
    sku: col('Item - SKU'),
    item_name: col('Item - Name'),
    quantity: col('Item - Qty'),
    unit_value_usd: col('Item - Price'),
    weight_lbs: {
      label: 'Weight - TotalOz',
      headers: ['Weight - TotalOz'],
      read: (get, decimals) => ounces(get('Weight - TotalOz'), decimals),
      // "must be at most 150 lb" of a column in ounces: 2400 oz (150 lb).
      say: (reason) =>
        reason.replace(/\b(\d+(?:\.\d+)?) lb\b/g, (_, lb: string) =>
          Number(lb) === 0 ? '0 oz' : `${Number(lb) * 16} oz (${lb} lb)`,
        ),
    },
  },
  closedBy: shipStationClosed,
};

/** The WooCommerce "Customer / Order / Coupon Export" CSV, one row per line item. */
const wooCommerce: KnownFormat = {
  name: 'WooCommerce order export',
  signature: ['order_number', 'shipping_address_1', 'shipping_postcode', 'item_quantity'],
  columns: {
    order_number: first('order_number_formatted', 'order_number'),
    ship_to_name: first('shipping_full_name'),
    ship_to_company: col('shipping_company'),
    ship_to_address1: col('shipping_address_1'),
    ship_to_address2: col('shipping_address_2'),
    ship_to_city: col('shipping_city'),
    ship_to_state: first('shipping_state_code', 'shipping_state'),
    ship_to_postal_code: col('shipping_postcode'),
    ship_to_country: country('shipping_country'),
    ship_to_phone: col('billing_phone'),
    ship_to_email: col('billing_email'),
    sku: col('item_sku'),
    item_name: col('item_name'),
    // Less the units refunded (item_refunded_qty): what is left to ship.
    quantity: { label: 'item_quantity', headers: ['item_quantity'], read: wooCommerceQuantity },
    unit_value_usd: {
      label: 'item_subtotal / item_quantity',
      headers: ['item_subtotal'],
      read: (get, decimals) => perUnit(get('item_subtotal'), get('item_quantity'), decimals),
    },
  },
  skipItem: wooCommerceSkip,
  closedBy: wooCommerceClosed,
  lineId: (get) => get('item_id'),
};
// WooCommerce leaves shipping_full_name empty on some stores: first + last name then.
wooCommerce.columns.ship_to_name = {
  label: 'shipping_full_name / shipping_first_name + shipping_last_name',
  headers: ['shipping_full_name', 'shipping_first_name', 'shipping_last_name'],
  read: (get) =>
    get('shipping_full_name') ||
    [get('shipping_first_name'), get('shipping_last_name')].filter(Boolean).join(' '),
};

/** BigCommerce's default export template: one row per order, its products in one cell. */
const bigCommerce: KnownFormat = {
  name: 'BigCommerce orders export',
  signature: ['Order ID', 'Shipping Street 1', 'Shipping Zip', 'Product Details'],
  columns: {
    order_number: col('Order ID'),
    ship_to_name: joined('Shipping First Name', 'Shipping Last Name'),
    ship_to_company: col('Shipping Company'),
    ship_to_address1: col('Shipping Street 1'),
    ship_to_address2: col('Shipping Street 2'),
    ship_to_city: col('Shipping Suburb'),
    ship_to_state: col('Shipping State'),
    ship_to_postal_code: col('Shipping Zip'),
    ship_to_country: country('Shipping Country'),
    ship_to_phone: col('Shipping Phone'),
    ship_to_email: first('Shipping Email', 'Customer Email'),
  },
  expandItems: (get) => bigCommerceProducts(get('Product Details')),
  closedBy: bigCommerceClosed,
};

/** Amazon Seller Central's Unshipped Orders report (tab-separated), one row per order item. */
const amazon: KnownFormat = {
  name: 'Amazon unshipped orders report',
  signature: ['order-id', 'order-item-id', 'ship-postal-code', 'sku'],
  columns: {
    order_number: col('order-id'),
    ship_to_name: col('recipient-name'),
    ship_to_address1: col('ship-address-1'),
    ship_to_address2: joined('ship-address-2', 'ship-address-3'),
    ship_to_city: col('ship-city'),
    ship_to_state: col('ship-state'),
    ship_to_postal_code: col('ship-postal-code'),
    ship_to_country: country('ship-country'),
    ship_to_phone: first('ship-phone-number', 'buyer-phone-number'),
    ship_to_email: col('buyer-email'),
    sku: col('sku'),
    item_name: col('product-name'),
    // What is left to ship; the order report (no quantity-to-ship) has only what was bought.
    quantity: first('quantity-to-ship', 'quantity-purchased'),
    // item-price is the price of the whole line (all its units).
    unit_value_usd: {
      label: 'item-price / quantity-purchased',
      headers: ['item-price'],
      read: (get, decimals) => perUnit(get('item-price'), get('quantity-purchased'), decimals),
    },
  },
  skipItem: (get) => (get('quantity-to-ship') === '0' ? 'quantity-to-ship is 0' : undefined),
  lineId: (get) => get('order-item-id'),
};

export const knownFormats: readonly KnownFormat[] = [
  shopify,
  shipStation,
  wooCommerce,
  bigCommerce,
  amazon,
];

/** What a station column holds, in words (a store's column is named with what it is for). */
const COLUMN_WORDS: Partial<Record<Column, string>> = {
  order_number: 'the order number',
  ship_to_address1: 'the street address',
  ship_to_city: 'the city',
  ship_to_postal_code: 'the postal code',
  ship_to_country: 'the country',
  sku: 'the SKU',
  item_name: 'the item name',
  quantity: 'the quantity',
};

/** The known export a header is nearest to: more than half of its signature, at least two. */
function nearestFormat(present: ReadonlySet<string>): KnownFormat | undefined {
  let best: { format: KnownFormat; share: number } | undefined;
  for (const format of knownFormats) {
    const found = format.signature.filter((h) => present.has(h)).length;
    const share = found / format.signature.length;
    if (found >= 2 && share > 0.5 && (!best || share > best.share)) best = { format, share };
  }
  return best?.format;
}

/**
 * For the column-mapping form, a first guess from the known export the header is nearest to
 * (a Shopify export with a column missing): each station column the export reads from a header
 * that is in the file. Empty when the header is near no known export.
 */
export function suggestedMapping(header: readonly string[]): Partial<Record<Column, string>> {
  const present = new Set(header.map((h) => h.trim()));
  const format = nearestFormat(present);
  if (!format) return {};
  const out: Partial<Record<Column, string>> = {};
  for (const [column, reader] of Object.entries(format.columns) as [Column, ColumnReader][]) {
    const h = reader.headers.find((x) => present.has(x));
    if (h) out[column] = h;
  }
  return out;
}

/**
 * A header that is a known export with columns missing: more than half of the export's
 * signature (at least two of its columns), but not all of it, or all of it without a column
 * the station needs (`needed`: the order number and the address). Says what is missing in the
 * store's own words: "this looks like a Shopify orders export, but its column "Name" (the
 * order number) is missing". Undefined when the header is not near any known export.
 */
export function missingStoreColumns(
  header: readonly string[],
  needed: readonly Column[],
): string | undefined {
  const present = new Set(header.map((h) => h.trim()));
  const format = nearestFormat(present);
  if (!format) return undefined;
  const missing: string[] = [];
  const say = (h: string) => {
    if (present.has(h) || missing.some((m) => m.startsWith(`"${h}"`))) return;
    const column = (Object.keys(format.columns) as Column[]).find(
      (c) => format.columns[c]!.headers.includes(h) && COLUMN_WORDS[c],
    );
    missing.push(column ? `"${h}" (${COLUMN_WORDS[column]})` : `"${h}"`);
  };
  for (const h of format.signature) say(h);
  for (const c of needed) {
    const reader = format.columns[c];
    if (reader && !reader.headers.some((h) => present.has(h))) say(reader.headers[0]!);
  }
  if (missing.length === 0) return undefined;
  const list =
    missing.length === 1
      ? `its column ${missing[0]} is missing`
      : `its columns ${missing.slice(0, -1).join(', ')} and ${missing.at(-1)} are missing`;
  return `this looks like a ${format.name}, but ${list}`;
}

/**
 * The format of a header that is not the station's own: a known export (every column of its
 * signature present), else the first saved mapping whose columns are all in the file.
 */
export function recogniseHeader(
  header: readonly string[],
  saved: readonly SavedColumnMapping[] = [],
): RecognisedFormat | undefined {
  const present = new Set(header.map((h) => h.trim()));
  const known = knownFormats.find((f) => f.signature.every((h) => present.has(h)));
  if (known) return known;
  for (const mapping of saved) {
    const entries = Object.entries(mapping.columns).filter(([, h]) => h && h.trim() !== '');
    const unitColumn = mapping.weightUnitColumn?.trim();
    if (entries.length === 0 || !entries.every(([, h]) => present.has(h!.trim()))) continue;
    if (unitColumn && !present.has(unitColumn)) continue;
    return {
      name: `saved mapping "${mapping.name}"`,
      // A country name (Germany) is read as its code, as in the known exports; a weight in the
      // unit the mapping (or the row's unit column) names is read as pounds.
      columns: Object.fromEntries(
        entries.map(([c, h]) => [
          c,
          c === 'ship_to_country'
            ? country(h!.trim())
            : c === 'weight_lbs'
              ? mappedWeight(h!.trim(), mapping.weightUnit ?? 'lb', unitColumn)
              : col(h!.trim()),
        ]),
      ),
    };
  }
  return undefined;
}
