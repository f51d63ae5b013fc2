import { parseJsonText } from '../storage/json-text.js';
import type { BrandKey } from './csv-orders.js';
import { topLevelItems } from './json-items.js';
import { parseIncomingOrder } from './order-schema.js';
import type { Steps } from './slices.js';
import {
  ProblemList,
  type ClosedOrder,
  type ImportProblem,
  type ImportProgress,
  type IncomingOrder,
} from './types.js';

/** A file's orders as read, before they are stored (order-import.ts). */
export interface ParsedOrders {
  format?: string | undefined;
  unmappedHeader?: string[] | undefined;
  orders: { order: IncomingOrder; row: number; line?: number | undefined }[];
  problems: ImportProblem[];
  problemCount: number;
  /** The order numbers of every problem, listed or only counted. */
  problemOrders?: string[];
  /** Orders the file says are not to ship (a store export's cancelled or shipped ones). */
  closed?: ClosedOrder[];
}

/** The orders of a parsed file: an array, or `{ "orders": [...] }`; undefined otherwise. */
function orderList(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object' && Array.isArray((data as { orders?: unknown }).orders))
    return (data as { orders: unknown[] }).orders;
  return undefined;
}

export function* parseJson(
  text: string,
  maxProblems: number | undefined,
  brandKey: BrandKey,
): Steps<ImportProgress, ParsedOrders> {
  const fileProblem = (reason: string): ParsedOrders => ({
    orders: [],
    problems: [{ row: 0, field: '(file)', reason }],
    problemCount: 1,
  });
  // A plain array is parsed item by item, with pauses; anything else (or a broken item) whole.
  const items = yield* topLevelItems(text);
  let list: unknown[] | undefined = items ? [] : undefined;
  for (let k = 0; items && list && k < items.length; k++) {
    if (k % 200 === 0) yield { phase: 'reading', done: k, total: items.length };
    try {
      list.push(JSON.parse(items[k]!) as unknown);
    } catch {
      list = undefined;
    }
  }
  if (!list) {
    const parsed = parseJsonText(text);
    if (!parsed.ok) return fileProblem(`not valid JSON: ${parsed.message}`);
    list = orderList(parsed.value);
    if (!list) return fileProblem('expected an array of orders or { "orders": [...] }');
  }
  const problems = new ProblemList(maxProblems);
  const orders: ParsedOrders['orders'] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    if (i % 100 === 0) yield { phase: 'checking', done: i, total: list.length };
    const row = i + 1;
    const parsed = parseIncomingOrder(list[i], row);
    if ('problems' in parsed) {
      problems.addAll(parsed.problems);
      continue;
    }
    const key = `${brandKey(parsed.order.tenantId ?? '')}\u0000${parsed.order.orderNumber}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.add({
        row,
        orderNumber: parsed.order.orderNumber,
        field: 'orderNumber',
        reason: `appears twice in the file (also order ${earlier}); the first one was kept`,
      });
      continue;
    }
    seen.set(key, row);
    orders.push({ order: parsed.order, row });
  }
  return {
    orders,
    problems: problems.first,
    problemCount: problems.count,
    problemOrders: [...problems.orders],
  };
}
