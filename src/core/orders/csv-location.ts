import type { Column } from './csv-columns.js';

/** A row of the order file, read through the header (or a store format's or saved mapping's). */
export interface Row {
  row: number;
  line: number;
  get(column: Column): string;
  /** The file's column a station column comes from (itself in the station's own format). */
  label(column: Column): string;
  /** A problem with a column's value in that column's own unit (a store's ounces). */
  say?(column: Column, reason: string): string;
  /** The export's own id of this line (Amazon's order-item-id), when it gives one. */
  lineId?: string;
}

const addressColumns: Record<string, Column> = {
  name: 'ship_to_name',
  company: 'ship_to_company',
  addressLine1: 'ship_to_address1',
  addressLine2: 'ship_to_address2',
  city: 'ship_to_city',
  stateProvince: 'ship_to_state',
  postalCode: 'ship_to_postal_code',
  countryCode: 'ship_to_country',
  phone: 'ship_to_phone',
  email: 'ship_to_email',
};
const packageColumns: Record<string, Column> = {
  weightLbs: 'weight_lbs',
  lengthIn: 'length_in',
  widthIn: 'width_in',
  heightIn: 'height_in',
  box: 'box',
};
const itemColumns: Record<string, Column> = {
  sku: 'sku',
  name: 'item_name',
  quantity: 'quantity',
  valueCents: 'unit_value_usd',
  weightLbs: 'item_weight_lbs',
  description: 'item_description',
  harmonizedCode: 'harmonized_code',
  countryOfOrigin: 'country_of_origin',
  barcode: 'barcode',
  imageUrl: 'image_url',
};
const hazmatColumns: Record<string, Column> = {
  unNumber: 'hazmat_un_number',
  hazardClass: 'hazmat_class',
  packingGroup: 'hazmat_packing_group',
  properShippingName: 'hazmat_proper_shipping_name',
};
const optionColumns: Record<string, Column> = {
  deliveryConfirmation: 'delivery_confirmation',
  deliveryOption: 'saturday_delivery',
  additionalHandling: 'additional_handling',
  customMessage1: 'custom_message_1',
  customMessage2: 'custom_message_2',
  customMessage3: 'custom_message_3',
  incoTerm: 'incoterm',
};

/** Maps a schema path back to the CSV row and column a person has to fix. */
export function csvLocation(
  path: string[],
  rows: Row[],
  packageNumbers: number[],
  at: { packageIndex: number; itemIndex: number },
): { row: Row; column: string } {
  const first = rows[0]!;
  if (path[0] === 'shipTo') return { row: first, column: addressColumns[path[1]!] ?? 'ship_to' };
  if (path[0] === 'orderNumber') return { row: first, column: 'order_number' };
  if (path[0] === 'tenantId') return { row: first, column: 'tenant_id' };
  if (path[0] === 'serviceLevels') return { row: first, column: 'service_levels' };
  if (path[0] === 'options') return { row: first, column: optionColumns[path[1]!] ?? 'options' };
  if (path[0] === 'packages' && Number.isInteger(at.packageIndex)) {
    const packageNumber = packageNumbers[at.packageIndex];
    const packageRows = rows.filter((r) => (Number(r.get('package')) || 1) === packageNumber);
    if (path[2] === 'items' && Number.isInteger(at.itemIndex)) {
      const itemRows = packageRows.filter(
        (r) => r.get('sku') !== '' || r.get('item_name') !== '' || r.get('quantity') !== '',
      );
      return {
        row: itemRows[at.itemIndex] ?? packageRows[0] ?? first,
        column:
          path[4] === 'hazmat'
            ? (hazmatColumns[path[5]!] ?? 'hazmat')
            : (itemColumns[path[4]!] ?? 'sku'),
      };
    }
    const column = packageColumns[path[2]!] ?? 'package';
    const row = packageRows.find((r) => r.get(column) !== '') ?? packageRows[0] ?? first;
    return { row, column };
  }
  return { row: first, column: path.join('.') || '(order)' };
}
