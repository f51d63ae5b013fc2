import type { ImportProblem, IncomingOrder } from './types.js';

/**
 * Order text ends up on printers: a receipt printer obeys ESC/POS bytes anywhere in a line
 * (ESC p opens the cash drawer, GS V cuts the paper) and a label printer obeys ZPL. No order
 * field has a use for a control character, so they are removed, C0 (U+0000–U+001F, DEL) and
 * C1 (U+0080–U+009F). A line break or tab becomes a space so the words around it stay apart.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const SPACING = /[\t\n\r\v\f]+/g;

export function stripControlCharacters(text: string): string {
  return text.replace(SPACING, ' ').replace(CONTROL, '');
}

export function hasControlCharacters(text: string): boolean {
  CONTROL.lastIndex = 0;
  const found = CONTROL.test(text);
  CONTROL.lastIndex = 0;
  return found;
}

/**
 * The order with every string field cleaned, and the fields that were changed (by path, such
 * as `packages[0].items[1].name`), so the import report can name them per row.
 */
export function cleanOrderText(order: IncomingOrder): { order: IncomingOrder; fields: string[] } {
  const fields: string[] = [];
  const walk = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      if (!hasControlCharacters(value)) return value;
      // A line break inside a quoted address is ordinary spreadsheet text: made a space, not reported.
      if (hasControlCharacters(value.replace(SPACING, ' '))) fields.push(path);
      return stripControlCharacters(value);
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]),
      );
    return value;
  };
  return { order: walk(order, '') as IncomingOrder, fields };
}

/** One report entry per cleaned field of a row. */
export function cleanedReport(
  fields: readonly string[],
  where: { row: number; line?: number | undefined; orderNumber: string },
): ImportProblem[] {
  return fields.map((field) => ({
    row: where.row,
    ...(where.line !== undefined ? { line: where.line } : {}),
    orderNumber: where.orderNumber,
    field,
    reason:
      'control characters (such as printer escape codes) were removed; the order was imported without them',
  }));
}
