import { cutLastRow, parseCsvSteps, type CsvRecord } from './csv.js';
import {
  csvColumns,
  hasStationColumns,
  unknownHeaderReason,
  itemColumns as itemOnly,
  requiredColumns as required,
  type Column,
} from './csv-columns.js';
import type { ClosedInExport } from './store-status.js';
import {
  missingStoreColumns,
  recogniseHeader,
  type RecognisedFormat,
  type SavedColumnMapping,
} from './store-formats.js';
import type { Row } from './csv-location.js';
import { buildOrder } from './csv-order-build.js';
import { continuedBrands } from './brand-column.js';
import { addressColumns } from './csv-row-checks.js';
import { fileDecimals } from './file-numbers.js';
import { runAtOnce, type Steps } from './slices.js';
import {
  ProblemList,
  type ClosedOrder,
  type ImportProblem,
  type ImportProgress,
  type IncomingOrder,
} from './types.js';

const itemOnlyColumns = new Set<Column>(itemOnly);

export { csvColumns } from './csv-columns.js';

export interface CsvOrders {
  /** The store export or saved mapping the header was read as; absent for the station's own. */
  format?: string | undefined;
  /** The header of a file in no format the station knows (a mapping could read it). */
  unmappedHeader?: string[] | undefined;
  orders: { order: IncomingOrder; rows: number[] }[];
  /** The first problems; `problemCount` counts them all. */
  problems: ImportProblem[];
  problemCount: number;
  /** The order numbers of every problem, listed or only counted. */
  problemOrders: string[];
  /** Orders the file says are not to ship (cancelled, shipped, no line left): not imported. */
  closed: ClosedOrder[];
}

/** Which brand a row's brand cell names, for grouping rows into orders (brand-column.ts). */
export type BrandKey = (cell: string) => string;

export function ordersFromCsv(
  text: string,
  maxProblems?: number,
  mappings?: readonly SavedColumnMapping[],
  brandKey?: BrandKey,
): CsvOrders {
  return runAtOnce(ordersFromCsvSteps(text, maxProblems, mappings, brandKey));
}

/**
 * ordersFromCsv, yielding its progress at safe points (see slices.ts). A file whose header is
 * not the station's own is read as the store export it is (store-formats.ts) or through the
 * first of `mappings` (saved in the profile) that fits it. Rows are one order by their order
 * number and the brand `brandKey` reads in their brand cell (default: the cell as written).
 */
export function* ordersFromCsvSteps(
  text: string,
  maxProblems?: number,
  mappings?: readonly SavedColumnMapping[],
  brandKey: BrandKey = (cell) => cell,
): Steps<ImportProgress, CsvOrders> {
  const reading = parseCsvSteps(text);
  let read = reading.next();
  while (!read.done) {
    yield { phase: 'reading', done: Math.round(read.value * 100), total: 100 };
    read = reading.next();
  }
  const { records, errors, delimiter } = read.value;
  // A last row the file stops in the middle of (still being written, or a copy that stopped).
  const cut = cutLastRow(text, read.value);
  // A file saved with semicolons (Excel in a European locale) may write 14,6 for 14.6 and 1.024
  // for 1024: its other numbers tell.
  const decimals = fileDecimals(
    delimiter,
    records.map((r) => r.fields),
  );
  const list = new ProblemList(maxProblems);
  const recognised: { format?: RecognisedFormat | undefined; unmappedHeader?: string[] } = {};
  const closed: ClosedOrder[] = [];
  const done = (orders: CsvOrders['orders']): CsvOrders => ({
    orders,
    closed,
    problems: list.first,
    problemCount: list.count,
    problemOrders: [...list.orders],
    ...(recognised.format ? { format: recognised.format.name } : {}),
    ...(recognised.unmappedHeader ? { unmappedHeader: recognised.unmappedHeader } : {}),
  });
  const problems = { push: (p: ImportProblem) => list.add(p) };
  const header = records.shift();
  // A record that broke before the header (or with no header at all) is the file's problem;
  // the others are said by their rows and orders below, or by line when the file stops first.
  const fileErrors = (underHeader: boolean) => {
    for (const e of errors)
      if (underHeader === (header !== undefined && e.row >= header.row))
        problems.push({ row: 0, line: e.line, field: '(row)', reason: e.message });
  };
  fileErrors(false);
  if (!header) {
    problems.push({ row: 0, line: 1, field: '(header)', reason: 'the file has no header row' });
    return done([]);
  }
  const index = new Map<string, number>();
  header.fields.forEach((name, i) => index.set(name.trim().toLowerCase(), i));
  const exact = new Map<string, number>();
  header.fields.forEach((name, i) => exact.set(name.trim(), i));
  const ownFormat = required.every((c) => index.has(c));
  const format = ownFormat ? undefined : recogniseHeader(header.fields, mappings);
  recognised.format = format;
  // A store's export with a column missing is told in the store's words ("Name"), not in the
  // station's own column names, which that file never had.
  // (A saved mapping names every column it reads, and is only chosen when all are there.)
  const storeMissing =
    ownFormat || (format && !('signature' in format))
      ? undefined
      : missingStoreColumns(header.fields, required);
  const missing = format ? [] : required.filter((c) => !index.has(c));
  if (missing.length > 0 || storeMissing) {
    fileErrors(true);
    recognised.unmappedHeader = header.fields.map((f) => f.trim()).filter(Boolean);
    problems.push({
      row: 0,
      line: header.line,
      field: '(header)',
      reason:
        storeMissing ??
        (hasStationColumns(header.fields)
          ? `missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`
          : unknownHeaderReason(header.fields)),
    });
    return done([]);
  }
  const unknown = header.fields.filter(
    (f) => f.trim() !== '' && !(csvColumns as readonly string[]).includes(f.trim().toLowerCase()),
  );
  // A store export has dozens of columns the station has no use for: not a problem.
  if (unknown.length > 0 && !format)
    problems.push({
      row: 0,
      line: header.line,
      field: '(header)',
      reason: `ignored unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`,
    });

  if (records.length === 0 && errors.length === 0) {
    // A header and nothing under it (an export of an empty selection): said, not "0 imported".
    problems.push({
      row: 0,
      line: header.line + 1,
      field: '(file)',
      reason: 'the file has a header row but no orders under it',
    });
    return done([]);
  }

  // Group rows by order, keeping file order. Orders with a malformed row (field count, a
  // stray quote) must not import without that row.
  const groups = new Map<string, Row[]>();
  const brokenOrders = new Set<string>();
  /**
   * Orders whose first row is the broken one: the rows after it leave the address blank (a
   * store export repeats it only on the first row), so building the order from them would
   * report "is empty" problems that are not there. The broken row's own problem is said once.
   */
  const headless = new Set<string>();
  // Orders with a line the export says needs no shipping (and why), and orders with one that
  // does: an order only in the first has nothing left to ship.
  const skippedOnly = new Map<string, Set<string>>();
  const shipping = new Set<string>();
  // Orders a row says are not to ship at all (Shopify says so on an order's first row only).
  const closedBy = new Map<string, ClosedInExport>();
  // By the brand the cell names, not as it is written: one order's rows may spell its brand
  // differently, and two orders of one brand and number would replace each other.
  const keyOf = (row: Row) => `${brandKey(row.get('tenant_id'))}\u0000${row.get('order_number')}`;
  const broken = (row: Row) => {
    brokenOrders.add(row.get('order_number'));
    if (!groups.has(keyOf(row))) headless.add(keyOf(row));
  };
  const rowOf = (record: Pick<CsvRecord, 'row' | 'line' | 'fields'>): Row => {
    const row = cellsOf(record);
    // A blank brand cell on a row of an order whose other rows name its brand is that brand's.
    const brand = row.get('tenant_id') === '' && continued(brandRow(row.get));
    return brand ? { ...row, get: (c) => (c === 'tenant_id' ? brand : row.get(c)) } : row;
  };
  /** A record's cells, by the station's column names, as the file's format reads them. */
  const cellsIn = (fields: readonly string[]): ((c: Column) => string) => {
    const reader = format?.columns;
    if (!reader)
      return (c) => {
        const at = index.get(c);
        return at === undefined ? '' : (fields[at] ?? '').trim();
      };
    const raw = (name: string) => {
      const at = exact.get(name);
      return at === undefined ? '' : (fields[at] ?? '').trim();
    };
    return (c) => reader[c]?.read(raw, decimals).trim() ?? '';
  };
  const cellsOf = (record: Pick<CsvRecord, 'row' | 'line' | 'fields'>): Row => {
    const reader = format?.columns;
    return {
      // Data rows count from 1 under a header on row 1 (importError adds the header back).
      row: record.row - 1,
      line: record.line,
      get: cellsIn(record.fields),
      label: (c) => reader?.[c]?.label ?? c,
      say: (c, reason) => reader?.[c]?.say?.(reason) ?? reason,
    };
  };
  const brandRow = (get: (c: Column) => string) => ({
    orderNumber: get('order_number'),
    cell: get('tenant_id'),
    address: () => addressColumns.map(get),
  });
  // Only the rows that name a brand tell which brand a blank cell continues.
  const continued = continuedBrands(
    records.flatMap((r) => {
      const get = cellsIn(r.fields);
      return get('tenant_id') ? [brandRow(get)] : [];
    }),
    brandKey,
  );
  /** A row that cannot be read whole: said by its row and order, its order left out. */
  const brokenRow = (row: Row, reason: string) => {
    // A line of text (a note typed under the orders) has its words where the order number goes:
    // an order number has no spaces, so such a row names no order and keeps none out.
    const number = row.get('order_number');
    if (!/\s/.test(number)) broken(row);
    problems.push({
      row: row.row,
      line: row.line,
      orderNumber: number && !/\s/.test(number) ? number : undefined,
      field: '(row)',
      reason,
    });
  };
  // A row the reader could not read whole (a stray quote): its order is not imported without
  // it (counted among the orders the file left out).
  /**
   * The row the file stops in: said as such, with its order kept out; when the stop may have
   * cut its order number short, the order of the row before is kept out too (it may be its).
   */
  const cutShort = (row: Row) => {
    const orderAt = Math.max(
      ...(format?.columns.order_number?.headers ?? ['order_number']).map(
        (h) => (format ? exact.get(h) : index.get(h)) ?? -1,
      ),
    );
    const before = records.filter((r) => r.row < cut!.row).at(-1);
    const previous = before && orderAt + 1 >= cut!.fields ? rowOf(before) : undefined;
    if (previous) broken(previous);
    const also = previous
      ? `, nor order ${previous.get('order_number')} (the row may belong to it)`
      : '';
    brokenRow(
      row,
      `the file ends in the middle of this row (${cut!.fields} of the header's ${cut!.of} fields, and no line ending): it was still being written, or its copy stopped. This row was not imported, nor the rest of its order${also}; complete the file (or export it again) and import it again`,
    );
  };
  for (const e of errors)
    if (e.row >= header.row) {
      if (cut?.row === e.row) cutShort(rowOf(e));
      else brokenRow(rowOf(e), e.message);
    }
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    const raw = (name: string) => {
      const at = exact.get(name);
      return at === undefined ? '' : (record.fields[at] ?? '').trim();
    };
    const row = rowOf(record);
    if (i % STEP_ROWS === 0) yield { phase: 'checking', done: i, total: records.length };
    if (cut?.row === record.row) {
      cutShort(row);
      continue;
    }
    if (record.fields.length !== header.fields.length) {
      brokenRow(
        row,
        `has ${record.fields.length} ${record.fields.length === 1 ? 'field' : 'fields'}, the header has ${header.fields.length}`,
      );
      continue;
    }
    const key = keyOf(row);
    const closes = format?.closedBy?.(raw);
    if (closes && !closedBy.has(key)) closedBy.set(key, closes);
    const group = {
      push: (r: Row) => {
        const rows = groups.get(key) ?? [];
        rows.push(r);
        groups.set(key, rows);
      },
    };
    const skipped = format?.skipItem?.(raw);
    if (skipped) {
      // Not an item to ship (a gift card, a line shipped already); the order's address may
      // still be on this row.
      group.push({ ...row, get: (c) => (itemOnlyColumns.has(c) ? '' : row.get(c)) });
      skippedOnly.set(key, (skippedOnly.get(key) ?? new Set()).add(skipped));
      continue;
    }
    shipping.add(key);
    const expanded = format?.expandItems?.(raw);
    if (expanded && 'error' in expanded) {
      broken(row);
      problems.push({
        row: row.row,
        line: row.line,
        orderNumber: row.get('order_number') || undefined,
        field: 'Product Details',
        reason: expanded.error,
      });
      continue;
    }
    if (expanded && expanded.length > 0) {
      for (const item of expanded)
        group.push({
          ...row,
          get: (c) => (c in item ? (item[c as keyof typeof item] ?? '').trim() : row.get(c)),
          label: (c) => (c in item ? 'Product Details' : row.label(c)),
        });
      continue;
    }
    const lineId = format?.lineId?.(raw);
    group.push(lineId ? { ...row, lineId } : row);
  }

  const orders: CsvOrders['orders'] = [];
  let built = 0;
  for (const [key, rows] of groups) {
    if (++built % STEP_ORDERS === 0)
      yield { phase: 'checking', done: rows[0]!.row, total: records.length };
    if (headless.has(key)) continue;
    const closes = closedBy.get(key);
    if (closes || (skippedOnly.has(key) && !shipping.has(key))) {
      // Not built: a cancelled order's other problems (a ZIP, a weight) are nobody's concern.
      const first = rows[0]!;
      closed.push({
        row: first.row,
        line: first.line,
        orderNumber: first.get('order_number'),
        tenantId: first.get('tenant_id'),
        what: !closes
          ? 'no line of this order needs shipping'
          : closes.cancelled
            ? 'the order is cancelled or refunded'
            : closes.partly
              ? 'part of the order has shipped already, and not which items'
              : 'the order has shipped already',
        said: closes?.said ?? [...skippedOnly.get(key)!].join('; '),
        cancelled: closes?.cancelled ?? false,
        ...(closes?.partly ? { partly: true } : {}),
      });
      continue;
    }
    const order = buildOrder(rows, decimals);
    if ('order' in order) {
      if (!brokenOrders.has(order.order.orderNumber))
        orders.push({ order: order.order, rows: rows.map((r) => r.row) });
    } else list.addAll(order.problems);
  }
  return done(orders);
}

/** Rows and orders handled between two chances to pause. */
const STEP_ROWS = 1000;
const STEP_ORDERS = 100;
