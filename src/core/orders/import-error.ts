import type { ImportError } from '../../shared/features/packing.js';
import type { ImportProblem } from './types.js';

/**
 * An import problem as the person who wrote the file finds it: the core counts data rows from 1;
 * a spreadsheet counts the header as row 1, so the CSV row it shows is one more.
 */
export function importError(p: ImportProblem, format: 'csv' | 'json'): ImportError {
  const orderNumber = p.orderNumber ?? null;
  const named = orderNumber ? ` (order ${orderNumber})` : '';
  if (p.row <= 0) {
    const where =
      p.field === '(header)'
        ? 'the header'
        : p.line
          ? `line ${p.line} of the file${named}`
          : `the file${named}`;
    return { row: 0, orderNumber, field: p.field, reason: p.reason, where };
  }
  if (format === 'csv') {
    const row = p.row + 1;
    return { row, orderNumber, field: p.field, reason: p.reason, where: `row ${row}${named}` };
  }
  return {
    row: p.row,
    orderNumber,
    field: p.field,
    reason: p.reason,
    where: `order ${p.row} in the file${orderNumber ? ` (${orderNumber})` : ''}`,
  };
}
