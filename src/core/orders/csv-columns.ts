import { MAP_ELSEWHERE } from '../../shared/order-file-text.js';
/**
 * The order CSV: one row per item (or per package when a package has no items). Rows with the
 * same order_number (and tenant_id) form one order; the `package` column (1, 2, …) says which
 * parcel of the order a row belongs to. Address columns are read from the order's first row;
 * later rows may repeat them or leave them blank.
 */
/**
 * Columns that describe an item rather than the order or the package: a later row of an order
 * contributes only these (its address columns may repeat the first row's or stay blank).
 */
export const itemColumns = [
  'sku',
  'item_name',
  'quantity',
  'unit_value_usd',
  // Customs and hazmat data of an item.
  'item_description',
  'item_weight_lbs',
  'harmonized_code',
  'country_of_origin',
  'hazmat',
  'hazmat_un_number',
  'hazmat_class',
  'hazmat_packing_group',
  'hazmat_proper_shipping_name',
  // What the packer scans to verify an item (any one of them), and its picture.
  'barcode',
  'upc',
  'ean',
  'image_url',
] as const;

export const csvColumns = [
  'order_number',
  'tenant_id',
  'ship_to_name',
  'ship_to_company',
  'ship_to_address1',
  'ship_to_address2',
  'ship_to_city',
  'ship_to_state',
  'ship_to_postal_code',
  'ship_to_country',
  'ship_to_phone',
  'ship_to_email',
  'residential',
  'service_levels',
  'package',
  'box',
  'weight_lbs',
  'length_in',
  'width_in',
  'height_in',
  // Options of the order (issue 15), read from its first row.
  'delivery_confirmation',
  'saturday_delivery',
  'additional_handling',
  'custom_message_1',
  'custom_message_2',
  'custom_message_3',
  'incoterm',
  ...itemColumns,
] as const;
export type Column = (typeof csvColumns)[number];
export const requiredColumns: Column[] = [
  'order_number',
  'ship_to_address1',
  'ship_to_city',
  'ship_to_postal_code',
  'ship_to_country',
];

/**
 * Why a header with none of the station's own columns cannot be read (not a store export the
 * station knows, nor one a saved mapping reads), in words for the person at the station: the
 * file's own headers, never the station's column names, which that file never had, and where
 * to map them.
 */
export function unknownHeaderReason(header: readonly string[]): string {
  const names = header.map((h) => h.trim()).filter(Boolean);
  const shown = names.slice(0, 8).map((h) => `"${h}"`);
  const more = names.length > 8 ? ` and ${names.length - 8} more` : '';
  const list = names.length === 0 ? 'no column names' : `the columns ${shown.join(', ')}${more}`;
  return `the station does not know this file's columns: its header has ${list}, which is neither the station's order file, a store export it recognises, nor a column mapping saved in this profile. ${MAP_ELSEWHERE} (which one is the order number, the street, …); then import it again, and files like it are read from then on`;
}

/** Whether a header uses the station's own column names at all (one may be misspelt). */
export function hasStationColumns(header: readonly string[]): boolean {
  return header.some((h) => (csvColumns as readonly string[]).includes(h.trim().toLowerCase()));
}
