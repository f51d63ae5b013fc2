/**
 * Values of store exports that are not a plain cell: a weight in ounces, a line total over its
 * quantity, BigCommerce's products in one cell (store-formats.ts reads them).
 */
import { fileNumber, type FileDecimals } from './file-numbers.js';

/** One item of a record that lists several (BigCommerce's "Product Details"). */
export interface ExpandedItem {
  sku: string;
  item_name: string;
  quantity: string;
  unit_value_usd: string;
  item_weight_lbs: string;
}

/**
 * Ounces as pounds (ShipStation weighs in ounces), read by the file's own decimals ("1,024" oz
 * in a comma-separated export is 1024 oz, 64 lb); '' stays '', and so does 0, which ShipStation
 * writes for an order nobody weighed (the packer weighs it at Pack); a cell that is no number is
 * left as it is, for the row's problem to name. Rounded up to the hundredth of a pound, as Pack
 * converts a typed weight: 13.5 oz is 0.85 lb, never 0.84 (13.44 oz, declared lighter).
 */
export function ounces(text: string, decimals: FileDecimals): string {
  const oz = fileNumber(text, decimals);
  if (oz === 0) return '';
  return text === '' || !Number.isFinite(oz) || oz < 0
    ? text
    : String(Math.ceil((oz / 16) * 100 - 1e-9) / 100);
}

/** Pounds in one unit of each weight a mapped file may be written in. */
const POUNDS_PER: Record<string, number> = {
  lb: 1,
  lbs: 1,
  pound: 1,
  pounds: 1,
  oz: 1 / 16,
  ounce: 1 / 16,
  ounces: 1 / 16,
  kg: 1 / 0.45359237,
  kgs: 1 / 0.45359237,
  kilogram: 1 / 0.45359237,
  kilograms: 1 / 0.45359237,
  g: 1 / 453.59237,
  gram: 1 / 453.59237,
  grams: 1 / 453.59237,
};

/** Whether a weight unit cell (lb, oz, kg, g, in any case, written out too) is one the station knows. */
export const knownWeightUnit = (unit: string): boolean =>
  Object.hasOwn(POUNDS_PER, unit.trim().toLowerCase());

/**
 * A weight written in `unit` as pounds (a mapped file's weight column in kilograms or ounces),
 * read by the file's own decimals and rounded up to the hundredth of a pound as Pack converts a
 * typed weight (1.2 kg is 2.65 lb); '' stays '', pounds stay as written, and a cell that is no
 * number (or an unknown unit) is left as it is, for the row's problem to name.
 */
export function weightIn(text: string, unit: string, decimals: FileDecimals): string {
  const per = POUNDS_PER[unit.trim().toLowerCase()];
  if (text === '' || per === undefined || per === 1) return text;
  const n = fileNumber(text, decimals);
  if (!Number.isFinite(n) || n <= 0) return text;
  return String(Math.ceil(n * per * 100 - 1e-9) / 100);
}

/**
 * A line total over its quantity, in the file's own decimals ("1,024.00" for 4 is 256); the
 * total as it is when either cannot be read (a total that is no number is the row's problem).
 */
export function perUnit(total: string, quantity: string, decimals: FileDecimals): string {
  const t = fileNumber(total, decimals);
  const q = fileNumber(quantity, decimals);
  if (total === '' || !Number.isFinite(t)) return total;
  if (!Number.isInteger(q) || q < 1) return total;
  return String(Math.round((t / q) * 100) / 100);
}

/**
 * BigCommerce's "Product Details": products separated by `|`, each `Key: value` pairs
 * separated by `, ` (Product ID, Product Qty, Product SKU, Product Name, Product Weight,
 * Product Variation Details, Product Unit Price, Product Total Price).
 */
export function bigCommerceProducts(cell: string): ExpandedItem[] | { error: string } {
  if (cell.trim() === '') return [];
  const items: ExpandedItem[] = [];
  for (const [i, product] of cell.split('|').entries()) {
    const fields = new Map<string, string>();
    for (const m of product.matchAll(
      /(Product [A-Za-z ]+?):\s*(.*?)(?=,\s*Product [A-Za-z ]+?:|$)/g,
    ))
      fields.set(m[1]!.trim(), m[2]!.trim());
    if (!fields.has('Product Qty') || !(fields.has('Product SKU') || fields.has('Product Name')))
      return {
        error: `product ${i + 1} is not in the form "Product Qty: 1, Product SKU: …, Product Name: …"`,
      };
    items.push({
      sku: fields.get('Product SKU') ?? '',
      item_name: fields.get('Product Name') ?? '',
      quantity: fields.get('Product Qty') ?? '',
      unit_value_usd: fields.get('Product Unit Price') ?? '',
      // BigCommerce writes 0.0000 for a product nobody weighed: no weight, not a weight of 0.
      item_weight_lbs:
        Number(fields.get('Product Weight')) === 0 ? '' : (fields.get('Product Weight') ?? ''),
    });
  }
  return items;
}
