import { csvColumns, type Column } from './csv-columns.js';
import { csvLocation, type Row } from './csv-location.js';
import { disagreeingRows } from './csv-row-checks.js';
import { incomingOrderSchema, restoreZipZeros } from './order-schema.js';
import type { Address, ImportProblem, IncomingOrder, OrderItem, OrderPackage } from './types.js';
import { zodIssueWords } from '../../shared/zod-words.js';
import { fileNumber, notANumber, type FileDecimals } from './file-numbers.js';

/**
 * One order from its CSV rows (the rows of one order number, in file order): its address from
 * the first row, its packages and items from all of them; or every problem found, each by its
 * row and column as the file names it.
 */
export function buildOrder(
  rows: Row[],
  decimals: FileDecimals,
): { order: IncomingOrder } | { problems: ImportProblem[] } {
  const first = rows[0]!;
  const orderNumber = first.get('order_number');
  const problems: ImportProblem[] = [];
  const problem = (row: Row, field: string, reason: string) => {
    const column = (csvColumns as readonly string[]).includes(field) ? (field as Column) : null;
    problems.push({
      row: row.row,
      line: row.line,
      orderNumber,
      field: column ? row.label(column) : field,
      reason: column && row.say ? row.say(column, reason) : reason,
    });
  };

  const number = (row: Row, column: Column): number | undefined => {
    const raw = row.get(column);
    if (raw === '') return undefined;
    const value = fileNumber(raw, decimals);
    if (!Number.isFinite(value)) {
      problem(row, column, notANumber(raw, decimals));
      return undefined;
    }
    return value;
  };

  const yesNo = (row: Row, column: Column): boolean | undefined => {
    const raw = row.get(column).toLowerCase();
    if (['true', 'yes', 'y', '1'].includes(raw)) return true;
    if (['false', 'no', 'n', '0'].includes(raw)) return false;
    if (raw !== '') problem(row, column, `"${raw}" is not yes/no/true/false`);
    return undefined;
  };
  const isResidential = yesNo(first, 'residential');
  const optionText = (column: Column) => first.get(column) || undefined;
  const options = {
    deliveryConfirmation: optionText('delivery_confirmation'),
    deliveryOption: yesNo(first, 'saturday_delivery') ? 'SATURDAY_DELIVERY' : undefined,
    additionalHandling: yesNo(first, 'additional_handling'),
    customMessage1: optionText('custom_message_1'),
    customMessage2: optionText('custom_message_2'),
    customMessage3: optionText('custom_message_3'),
    incoTerm: optionText('incoterm'),
  };
  const hasOptions = Object.values(options).some((v) => v !== undefined);

  const shipTo: Address = {
    name: first.get('ship_to_name'),
    company: first.get('ship_to_company'),
    addressLine1: first.get('ship_to_address1'),
    addressLine2: first.get('ship_to_address2'),
    city: first.get('ship_to_city'),
    stateProvince: first.get('ship_to_state'),
    postalCode: String(
      restoreZipZeros(first.get('ship_to_country'), first.get('ship_to_postal_code')),
    ),
    countryCode: first.get('ship_to_country'),
    phone: first.get('ship_to_phone'),
    email: first.get('ship_to_email'),
    isResidential,
  };
  for (const p of disagreeingRows(rows)) problem(p.row, p.field, p.reason);

  const packages = new Map<number, OrderPackage>();
  for (const row of rows) {
    const rawPackage = row.get('package');
    const packageNumber = rawPackage === '' ? 1 : Number(rawPackage);
    if (!Number.isInteger(packageNumber) || packageNumber < 1) {
      problem(row, 'package', `"${rawPackage}" is not a package number (1, 2, …)`);
      continue;
    }
    const pkg = packages.get(packageNumber) ?? { items: [] };
    packages.set(packageNumber, pkg);
    const set = (key: 'weightLbs' | 'lengthIn' | 'widthIn' | 'heightIn', column: Column) => {
      const v = number(row, column);
      if (v === undefined) return;
      if (pkg[key] !== undefined && pkg[key] !== v)
        problem(row, column, `package ${packageNumber} already has ${pkg[key]} on an earlier row`);
      else pkg[key] = v;
    };
    set('weightLbs', 'weight_lbs');
    set('lengthIn', 'length_in');
    set('widthIn', 'width_in');
    set('heightIn', 'height_in');
    const box = row.get('box');
    if (box !== '') pkg.box = box;

    const sku = row.get('sku');
    const itemName = row.get('item_name');
    const quantity = number(row, 'quantity');
    const value = number(row, 'unit_value_usd');
    if (sku !== '' || itemName !== '' || quantity !== undefined) {
      const itemWeight = number(row, 'item_weight_lbs');
      const hazmat = yesNo(row, 'hazmat');
      const item: OrderItem = {
        // A store export may leave the SKU empty (a custom item): its name stands in.
        sku: sku || itemName,
        name: itemName || sku,
        quantity: quantity ?? 1,
        valueCents: value === undefined ? undefined : Math.round(value * 100),
        ...(itemWeight === undefined ? {} : { weightLbs: itemWeight }),
        ...(row.get('item_description') ? { description: row.get('item_description') } : {}),
        ...(row.get('harmonized_code') ? { harmonizedCode: row.get('harmonized_code') } : {}),
        ...(row.get('country_of_origin') ? { countryOfOrigin: row.get('country_of_origin') } : {}),
        ...(hazmat
          ? {
              hazmat: {
                unNumber: row.get('hazmat_un_number').toUpperCase().replace(/\s+/g, ''),
                hazardClass: row.get('hazmat_class'),
                packingGroup: row.get('hazmat_packing_group').toUpperCase(),
                properShippingName: row.get('hazmat_proper_shipping_name'),
              },
            }
          : {}),
        barcode: row.get('barcode') || row.get('upc') || row.get('ean') || undefined,
        imageUrl: row.get('image_url') || undefined,
      };
      pkg.items.push(item);
    }
  }
  // Row-level problems do not stop here: the schema below reports the rest of the order too.

  const numbers = [...packages.keys()].sort((a, b) => a - b);
  numbers.forEach((n, i) => {
    if (n !== i + 1)
      problem(first, 'package', `packages must be numbered 1..${numbers.length} without gaps`);
  });
  const serviceLevels = first
    .get('service_levels')
    .split(/[;|]/)
    .map((s) => s.trim())
    .filter(Boolean);
  const candidate = {
    orderNumber,
    tenantId: first.get('tenant_id'),
    shipTo,
    serviceLevels: serviceLevels.length > 0 ? serviceLevels : undefined,
    ...(hasOptions ? { options } : {}),
    packages: numbers.map((n) => packages.get(n)!),
  };
  const parsed = incomingOrderSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [, packageIndex, , itemIndex] = issue.path;
      const { row, column } = csvLocation(issue.path.map(String), rows, numbers, {
        packageIndex: Number(packageIndex),
        itemIndex: Number(itemIndex),
      });
      problem(row, column, zodIssueWords(issue));
    }
  }
  if (problems.length > 0) return { problems };
  return { order: parsed.data! };
}
