import { parseJsonText } from '../profiles/json-text.js';
import { ordersFromCsv } from './csv-orders.js';
import { parseIncomingOrder } from './order-schema.js';
import { cleanOrderText, cleanedReport } from './control-characters.js';
import type { OrderRepository } from './order-repository.js';
import type { StationScope } from '../storage/scope.js';
import type { ImportProblem, ImportReport, IncomingOrder } from './types.js';

export type OrderFileFormat = 'csv' | 'json';

/** Which brands this station may import for: the profile's tenant and, for a 3PL, its brands. */
export interface TenantPolicy {
  /** Used when an order names no tenant. */
  defaultTenantId: string;
  allowedTenantIds: readonly string[];
}

export function formatOf(fileName: string): OrderFileFormat | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.json')) return 'json';
  return undefined;
}

/**
 * The text of an order file as it comes off the disk. UTF-8 (with or without a BOM) is the
 * documented encoding; UTF-16 with a BOM is what Excel's "Unicode text" writes; anything that is
 * not valid UTF-8 is read as Windows-1252, which is what Excel's plain "CSV" writes on Windows
 * (so "Zoë" arrives as Zoë, not as Zo�).
 */
export function decodeOrderFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Reads an order file; every good order is stored, every bad row is reported, nothing throws. */
export function importOrders(
  orders: OrderRepository,
  scope: StationScope,
  tenants: TenantPolicy,
  input: { text: string; format: OrderFileFormat; source: string },
): ImportReport {
  const report: ImportReport = {
    source: input.source,
    imported: [],
    updated: [],
    unchanged: [],
    problems: [],
  };
  const parsed = parse(input.text, input.format);
  report.problems.push(...parsed.problems);
  for (const parsedOrder of parsed.orders) {
    const { row, line } = parsedOrder;
    const { order, fields } = cleanOrderText(parsedOrder.order);
    if (fields.length > 0)
      (report.cleaned ??= []).push(
        ...cleanedReport(fields, { row, line, orderNumber: order.orderNumber }),
      );
    const tenantId = order.tenantId ?? tenants.defaultTenantId;
    if (!tenants.allowedTenantIds.includes(tenantId)) {
      report.problems.push({
        row,
        line,
        orderNumber: order.orderNumber,
        field: input.format === 'csv' ? 'tenant_id' : 'tenantId',
        reason: `tenant ${tenantId} is not one this profile ships for (${tenants.allowedTenantIds.join(', ')})`,
      });
      continue;
    }
    const outcome = orders.upsert(scope, tenantId, order, input.source);
    switch (outcome) {
      case 'imported':
        report.imported.push(order.orderNumber);
        break;
      case 'updated':
        report.updated.push(order.orderNumber);
        break;
      case 'unchanged':
        report.unchanged.push(order.orderNumber);
        break;
      default: {
        const never: never = outcome;
        throw new Error(`unexpected outcome ${String(never)}`);
      }
    }
  }
  return report;
}

interface ParsedOrders {
  orders: { order: IncomingOrder; row: number; line?: number | undefined }[];
  problems: ImportProblem[];
}

function parse(text: string, format: OrderFileFormat): ParsedOrders {
  switch (format) {
    case 'csv': {
      const { orders, problems } = ordersFromCsv(text);
      return { orders: orders.map((o) => ({ order: o.order, row: o.rows[0] ?? 0 })), problems };
    }
    case 'json':
      return parseJson(text);
    default: {
      const never: never = format;
      throw new Error(`unknown format ${String(never)}`);
    }
  }
}

function parseJson(text: string): ParsedOrders {
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return {
      orders: [],
      problems: [{ row: 0, field: '(file)', reason: `not valid JSON: ${parsed.message}` }],
    };
  const data = parsed.value;
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { orders?: unknown }).orders)
      ? (data as { orders: unknown[] }).orders
      : undefined;
  if (!list)
    return {
      orders: [],
      problems: [
        { row: 0, field: '(file)', reason: 'expected an array of orders or { "orders": [...] }' },
      ],
    };
  const result: ParsedOrders = { orders: [], problems: [] };
  const seen = new Map<string, number>();
  list.forEach((raw, i) => {
    const row = i + 1;
    const parsed = parseIncomingOrder(raw, row);
    if ('problems' in parsed) {
      result.problems.push(...parsed.problems);
      return;
    }
    const key = `${parsed.order.tenantId ?? ''}\u0000${parsed.order.orderNumber}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      result.problems.push({
        row,
        orderNumber: parsed.order.orderNumber,
        field: 'orderNumber',
        reason: `appears twice in the file (also order ${earlier}); the first one was kept`,
      });
      return;
    }
    seen.set(key, row);
    result.orders.push({ order: parsed.order, row });
  });
  return result;
}
