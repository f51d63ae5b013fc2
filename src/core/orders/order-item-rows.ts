/** An order's item rows as the repository reads and writes them. */

export interface ItemRow {
  package_index: number;
  sku: string;
  name: string;
  quantity: number;
  value_cents: number | null;
  weight_lbs: number | null;
  barcode: string | null;
  image_url: string | null;
  details: string | null;
}

/** An item's values as `upsert` writes them (insertItem's parameters). */
export interface ItemValues {
  index: number;
  line: number;
  sku: string;
  name: string;
  quantity: number;
  valueCents: number | null;
  weightLbs: number | null;
  details: string | null;
  barcode: string | null;
  imageUrl: string | null;
}

/** Stored items as `upsert` writes them again, into `packageCount` packages (lines renumbered). */
export function keptItems(rows: readonly ItemRow[], packageCount: number): ItemValues[] {
  const lines = new Map<number, number>();
  return rows.map((r) => {
    const index = Math.min(r.package_index, Math.max(0, packageCount - 1));
    const line = lines.get(index) ?? 0;
    lines.set(index, line + 1);
    return {
      index,
      line,
      sku: r.sku,
      name: r.name,
      quantity: r.quantity,
      valueCents: r.value_cents,
      weightLbs: r.weight_lbs,
      details: r.details,
      barcode: r.barcode,
      imageUrl: r.image_url,
    };
  });
}
