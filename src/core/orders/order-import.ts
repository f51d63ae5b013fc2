import { ordersFromCsvSteps, type BrandKey } from './csv-orders.js';
import { parseJson, type ParsedOrders } from './json-orders.js';
import type { SavedColumnMapping } from './store-formats.js';
import { labelledOrderChanged } from './order-changes.js';
import { cleanOrderText, cleanedReport } from './control-characters.js';
import { notText } from './not-text.js';
import { packGaps, serviceLevelGap, sharedNumberNotice } from './import-notices.js';
import type { OrderRepository } from './order-repository.js';
import type { StationScope } from '../storage/scope.js';
import { runAtOnce, runInSlices, type Steps } from './slices.js';
import { brandKeyOf, tenantOfBrand } from './brand-column.js';
import { closedOrderProblem, type CancelAtStation } from './closed-orders.js';
import {
  ProblemList,
  type ClosedOrder,
  type ImportProgress,
  type ImportReport,
  type IncomingOrder,
} from './types.js';

export type OrderFileFormat = 'csv' | 'json';

/** Which brands this station may import for: the profile's tenant and, for a 3PL, its brands. */
export interface TenantPolicy {
  /** Used when an order names no tenant. */
  defaultTenantId: string;
  allowedTenantIds: readonly string[];
  /**
   * The profile's ship-from country: an order to another country is imported, and what its
   * customs declaration lacks is said at import (Pack would refuse it), not first at Pack.
   */
  shipFromCountry?: string | undefined;
  /**
   * The service levels a brand's carrier accounts offer, as the platform last listed them (null:
   * not known yet): an order limited to levels none of them offers is said at import.
   */
  offeredServiceLevels?: ((tenantId: string) => ReadonlySet<string> | null) | undefined;
  /** A brand's name as people know it (a 3PL's report names brands, not tenant ids). */
  brandName?: ((tenantId: string) => string | null) | undefined;
}

export function formatOf(fileName: string): OrderFileFormat | undefined {
  const lower = fileName.toLowerCase();
  // .tsv: tab-separated (the separator is read from the header either way).
  if (lower.endsWith('.csv') || lower.endsWith('.tsv')) return 'csv';
  if (lower.endsWith('.json')) return 'json';
  return undefined;
}

/** See src/shared/order-file-text.ts (the renderer reads a picked file the same way). */
export { decodeOrderFile } from '../../shared/order-file-text.js';

/**
 * The format of a file a person picked to import: formatOf, and also .txt, which is how Amazon
 * Seller Central saves its tab-separated order reports (the hot folder leaves .txt files alone:
 * a folder of notes must not be read as orders).
 */
export function chosenFileFormatOf(fileName: string): OrderFileFormat | undefined {
  return formatOf(fileName) ?? (fileName.toLowerCase().endsWith('.txt') ? 'csv' : undefined);
}

export interface ImportOptions {
  maxProblems?: number | undefined;
  /** Column mappings saved in the profile, for CSV files in no known format. */
  mappings?: readonly SavedColumnMapping[] | undefined;
  /**
   * How the station cancels an order it has open that the file says is cancelled or shipped
   * (closed-orders.ts); without it the import only says so.
   */
  cancelClosed?: CancelAtStation | undefined;
}

export interface ImportInput {
  text: string;
  format: OrderFileFormat;
  source: string;
}

/**
 * No order of the file is at the station now because of it (every row refused): a site import
 * claim on the file is released, so it can be imported again once put right. An order that was
 * already here exactly as the file has it counts as there.
 */
export function importedNone(report: ImportReport): boolean {
  return (
    report.imported.length +
      report.updated.length +
      report.unchanged.length +
      report.same.length ===
    0
  );
}

/** Reads an order file; every good order is stored, every bad row is reported, nothing throws. */
export function importOrders(
  orders: OrderRepository,
  scope: StationScope,
  tenants: TenantPolicy,
  input: ImportInput,
  options: ImportOptions = {},
): ImportReport {
  return runAtOnce(importOrderSteps(orders, scope, tenants, input, options));
}

/**
 * importOrders for large files: parsed, checked and stored in slices of a few milliseconds, so
 * the station answers scans meanwhile; orders are stored in transactions of STORE_CHUNK.
 * `onProgress` hears where it is. Problems are reported per row: the first `maxProblems`
 * (MAX_REPORTED_PROBLEMS by default), and a count of all.
 */
export function importOrdersInSlices(
  orders: OrderRepository,
  scope: StationScope,
  tenants: TenantPolicy,
  input: ImportInput,
  options: ImportOptions & { onProgress?: (progress: ImportProgress) => void } = {},
): Promise<ImportReport> {
  return runInSlices(importOrderSteps(orders, scope, tenants, input, options), {
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

/** Orders stored per transaction: one commit per chunk instead of one per order. */
const STORE_CHUNK = 100;

function* importOrderSteps(
  orders: OrderRepository,
  scope: StationScope,
  tenants: TenantPolicy,
  input: ImportInput,
  options: ImportOptions,
): Steps<ImportProgress, ImportReport> {
  const problems = new ProblemList(options.maxProblems);
  const report: ImportReport = {
    source: input.source,
    imported: [],
    updated: [],
    unchanged: [],
    same: [],
    problems: problems.first,
    problemCount: 0,
  };
  const binary = notText(input.text);
  if (binary) {
    // A picture or a spreadsheet saved under .csv: one sentence, not a problem per "row".
    problems.add({ row: 0, field: '(file)', reason: binary });
    report.problemCount = problems.count;
    return report;
  }
  const parsed = yield* parse(
    input.text,
    input.format,
    options.maxProblems,
    options.mappings,
    brandKeyOf(tenants),
  );
  if (parsed.format) report.format = parsed.format;
  if (parsed.unmappedHeader) report.unmappedHeader = parsed.unmappedHeader;
  problems.addAll(parsed.problems);
  // Problems the parser found beyond its list are counted, not kept.
  problems.count += parsed.problemCount - parsed.problems.length;
  for (const n of parsed.problemOrders ?? []) problems.orders.add(n);
  const total = parsed.orders.length;
  // The row of each order this file brought in, by brand and number: a number shared by two
  // brands is said with the other's row.
  const rows = new Map<string, number>();
  for (let start = 0; start < total; start += STORE_CHUNK) {
    yield { phase: 'storing', done: start, total };
    const chunk = parsed.orders.slice(start, start + STORE_CHUNK);
    orders.inTransaction(() => {
      for (const { order, row, line } of chunk) store(order, row, line);
    });
  }
  // Orders the file says are not to ship: said, and the station's open copy cancelled.
  for (const [k, closed] of (parsed.closed ?? []).entries()) {
    if (k % STORE_CHUNK === 0) yield { phase: 'storing', done: total, total };
    (report.closed ??= []).push(
      closedOrderProblem(closed, stationCopy(closed), input.source, options.cancelClosed),
    );
  }
  report.problemCount = problems.count;
  const here = new Set([
    ...report.imported,
    ...report.updated,
    ...report.unchanged,
    ...report.same,
  ]);
  const leftOut = [...problems.orders].filter((n) => !here.has(n)).length;
  if (leftOut > 0) report.ordersLeftOut = leftOut;
  return report;

  /** The station's order of that number and brand, if it has one, and whether it has a label. */
  function stationCopy(closed: ClosedOrder) {
    const named = tenantOfBrand(closed.tenantId || tenants.defaultTenantId, tenants);
    const tenantId = 'tenantId' in named ? named.tenantId : closed.tenantId;
    const order = closed.orderNumber
      ? orders.findByNumber(scope, closed.orderNumber).find((o) => o.tenantId === tenantId)
      : undefined;
    return order && { order, labelled: orders.labelledAmong([order.id]).has(order.id) };
  }

  function store(incoming: IncomingOrder, row: number, line: number | undefined): void {
    const { order, fields } = cleanOrderText(incoming);
    if (fields.length > 0)
      (report.cleaned ??= []).push(
        ...cleanedReport(fields, { row, line, orderNumber: order.orderNumber }),
      );
    // A brand's tenant id, or its name (a 3PL's export names brands: brand-column.ts).
    const brand = tenantOfBrand(order.tenantId ?? tenants.defaultTenantId, tenants);
    if ('reason' in brand) {
      const field = input.format === 'csv' ? 'tenant_id' : 'tenantId';
      problems.add({ row, line, orderNumber: order.orderNumber, field, reason: brand.reason });
      return;
    }
    const { tenantId } = brand;
    const outcome = orders.upsert(scope, tenantId, order, input.source);
    rows.set(`${tenantId}\u0000${order.orderNumber}`, row);
    const say = (list: 'notices' | 'sharedNumbers', field: string, reason: string | null) => {
      if (reason)
        (report[list] ??= []).push({ row, line, orderNumber: order.orderNumber, field, reason });
    };
    // A new order of a 3PL's brand with the number of another brand's order here.
    if (outcome === 'imported' && tenants.allowedTenantIds.length > 1)
      say(
        'sharedNumbers',
        '(order)',
        sharedNumberNotice(
          order.orderNumber,
          orders.tenantsOfNumber(scope, order.orderNumber).filter((t) => t !== tenantId),
          (t) => tenants.brandName?.(t) ?? t,
          (t) => placeIn(input.format, rows.get(`${t}\u0000${order.orderNumber}`)),
        ),
      );
    // What the stored order still lacks for Pack, said now (a version the file brought in).
    if (outcome === 'imported' || outcome === 'updated' || outcome === 'updated-cancelled') {
      for (const [field, why] of packGaps(order, tenants.shipFromCountry))
        say('notices', field, why);
      say(
        'notices',
        input.format === 'csv' ? 'service_levels' : 'serviceLevels',
        serviceLevelGap(order, tenants.offeredServiceLevels?.(tenantId) ?? null),
      );
    }
    switch (outcome) {
      case 'imported':
        report.imported.push(order.orderNumber);
        break;
      case 'updated':
        report.updated.push(order.orderNumber);
        break;
      case 'updated-cancelled':
        // The file's new version is taken, but the lead's cancel stands (the file is older
        // news than the lead's word): said, so nobody expects it on the floor.
        report.updated.push(order.orderNumber);
        (report.stillCancelled ??= []).push({
          row,
          line,
          orderNumber: order.orderNumber,
          field: '(order)',
          reason:
            'updated from the file, and still cancelled here: nothing buys it until a shift lead reopens it in Orders (Alt+8)',
        });
        break;
      case 'unchanged': {
        report.unchanged.push(order.orderNumber);
        const stored = orders
          .findByNumber(scope, order.orderNumber)
          .find((o) => o.tenantId === tenantId);
        (report.labelledChanged ??= []).push({
          row,
          line,
          orderNumber: order.orderNumber,
          field: '(order)',
          reason: labelledOrderChanged(stored, order),
        });
        break;
      }
      case 'same':
        report.same.push(order.orderNumber);
        break;
      default: {
        const never: never = outcome;
        throw new Error(`unexpected outcome ${String(never)}`);
      }
    }
  }
}

function* parse(
  text: string,
  format: OrderFileFormat,
  maxProblems: number | undefined,
  mappings: readonly SavedColumnMapping[] | undefined,
  brandKey: BrandKey,
): Steps<ImportProgress, ParsedOrders> {
  switch (format) {
    case 'csv': {
      const csv = yield* ordersFromCsvSteps(text, maxProblems, mappings, brandKey);
      const { orders, problems, problemCount, problemOrders } = csv;
      return {
        problemOrders,
        closed: csv.closed,
        ...(csv.format ? { format: csv.format } : {}),
        ...(csv.unmappedHeader ? { unmappedHeader: csv.unmappedHeader } : {}),
        orders: orders.map((o) => ({ order: o.order, row: o.rows[0] ?? 0 })),
        problems,
        problemCount,
      };
    }
    case 'json':
      return yield* parseJson(text, maxProblems, brandKey);
    default: {
      const never: never = format;
      throw new Error(`unknown format ${String(never)}`);
    }
  }
}

/** A stored order's row as the file's writer counts it (a spreadsheet's row; JSON's order). */
function placeIn(format: OrderFileFormat, row: number | undefined): string | undefined {
  if (row === undefined) return undefined;
  return format === 'csv' ? `row ${row + 1}` : `order ${row}`;
}
