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
