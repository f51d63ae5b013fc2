import { csvColumns } from './csv-columns.js';
import type { Row } from './csv-location.js';

/** A data row (1 = the first under the header) as the spreadsheet numbers it, the header row 1. */
const sheetRow = (row: number) => row + 1;

/** The columns that tell a later row of an order number names another person or address. */
export const addressColumns = [
  'ship_to_name',
  'ship_to_address1',
  'ship_to_city',
  'ship_to_postal_code',
  'ship_to_country',
] as const;

/** Where the rows of one order number disagree or repeat: the order waits for a fixed file. */
export function disagreeingRows(
  rows: readonly Row[],
): { row: Row; field: string; reason: string }[] {
  const first = rows[0]!;
  const found: { row: Row; field: string; reason: string }[] = [];
  // A later row that names another person or address: two orders under one number, not one.
  for (const row of rows.slice(1)) {
    for (const column of addressColumns) {
      const v = row.get(column);
      if (v !== '' && v !== first.get(column))
        found.push({
          row,
          field: column,
          reason: `"${v}" differs from the order's first row (row ${sheetRow(first.row)}: "${first.get(column)}"): two orders under one number?`,
        });
    }
  }
  // The same line twice (an export saved twice into one file, a copied block) would ship its
  // items twice. Lines with ids of their own (Amazon's order-item-id) differ by their id.
  const seen = new Map<string, number>();
  for (const row of rows) {
    const key = [...csvColumns.map((c) => row.get(c)), row.lineId ?? ''].join('\u0000');
    const at = seen.get(key);
    if (at !== undefined && at !== row.row)
      found.push({
        row,
        field: '(row)',
        reason: `repeats row ${sheetRow(at)} exactly: its items would be counted twice; remove one copy and import the file again`,
      });
    else seen.set(key, row.row);
  }
  return found;
}
