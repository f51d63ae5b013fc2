import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvField } from '../../src/core/orders/csv.js';
import { decodeOrderFile, importOrders } from '../../src/core/orders/order-import.js';
import { OrderRepository } from '../../src/core/orders/order-repository.js';
import { openDatabase } from '../../src/core/storage/database.js';
import type { StationScope } from '../../src/core/storage/scope.js';
import { tempDir } from './tmp.js';

export const scope: StationScope = { profileId: 'lumen', environment: 'sandbox' };
export const tenants = { defaultTenantId: 'tnt_lumen', allowedTenantIds: ['tnt_lumen'] };

/** The real header of a store's export (test/fixtures/orders), and its separator. */
export function exportHeader(name: string): { header: string[]; sep: string } {
  const text = decodeOrderFile(readFileSync(join(import.meta.dirname, '../fixtures/orders', name)));
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/)[0]!;
  const sep = first.includes('\t') ? '\t' : ',';
  return { header: first.split(sep), sep };
}

/** A file of that export: one line per row, each row given by the export's own column names. */
export function exportFile(name: string, rows: Record<string, string>[]): string {
  const { header, sep } = exportHeader(name);
  for (const row of rows)
    for (const column of Object.keys(row))
      if (!header.includes(column)) throw new Error(`${name} has no column "${column}"`);
  const line = (cells: string[]) => cells.map((c) => (sep === ',' ? csvField(c) : c)).join(sep);
  return (
    [line(header), ...rows.map((r) => line(header.map((h) => r[h] ?? '')))].join('\r\n') + '\r\n'
  );
}

/** A station with a real database file in a temp dir, and a way to import a file into it. */
export function exportStation() {
  const orders = new OrderRepository(openDatabase(join(tempDir(), 'station.db')));
  return {
    orders,
    importText: (text: string, source = 'export.csv') =>
      importOrders(orders, scope, tenants, { text, format: 'csv', source }),
    order: (n: string) => orders.findByNumber(scope, n)[0],
  };
}

/**
 * One row of a ShipStation orders export (its real column names): a one-item order to Seattle,
 * awaiting shipment, 32 oz, with any column given in `columns` instead.
 */
export function shipStationRow(
  orderNumber: string,
  columns: Record<string, string> = {},
): Record<string, string> {
  return {
    'Order - Number': orderNumber,
    'Order - Status': 'Awaiting Shipment',
    'Ship To - Name': 'Jo Park',
    'Ship To - Address 1': '88 Vine St',
    'Ship To - City': 'Seattle',
    'Ship To - State': 'WA',
    'Ship To - Postal Code': '98121',
    'Ship To - Country': 'US',
    'Item - SKU': 'DW-HOUSE-2LB',
    'Item - Name': 'House Blend 2 lb',
    'Item - Qty': '1',
    'Item - Price': '28.00',
    'Weight - TotalOz': '32',
    ...columns,
  };
}
