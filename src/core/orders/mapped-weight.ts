/**
 * The weight column of a saved column mapping, read as pounds from the unit the file weighs
 * in: one unit for the whole file (`weightUnit`), or a column naming each row's unit (`Wt Unit`:
 * lb, oz, kg, g; an empty cell is the mapping's unit). Until 2026-11-29 a mapped weight was
 * always read as pounds: a file's 1.2 kg was rated as 1.2 lb and 14 oz as 14 lb.
 */
import type { ColumnReader } from './store-formats.js';
import { knownWeightUnit, weightIn } from './store-values.js';

export function mappedWeight(header: string, unit: string, unitColumn?: string): ColumnReader {
  if (!unitColumn)
    return {
      label: header,
      headers: [header],
      read: (get, decimals) => weightIn(get(header), unit, decimals),
      say: (reason) => inUnit(reason, unit),
    };
  return {
    label: header,
    headers: [header],
    read: (get, decimals) => {
      const value = get(header);
      const own = get(unitColumn).trim();
      if (own !== '' && !knownWeightUnit(own))
        // Not a number, so the row is refused; `say` names the unit that was not understood.
        return value === '' ? value : `${value} ${UNKNOWN}${own}`;
      return weightIn(value, own || unit, decimals);
    },
    say: (reason) => {
      const at = reason.indexOf(UNKNOWN);
      if (at < 0) return reason;
      const own = reason.slice(at + UNKNOWN.length).replace(/".*$/, '');
      return `"${own}" in ${unitColumn} is not a weight unit the station knows: write lb, oz, kg or g (or leave it empty for ${unit})`;
    },
  };
}

/** Marks a value whose row names a unit the station does not know (never in a real cell). */
const UNKNOWN = '\u0000unit:';

/** "must be at most 150 lb" of a column in kilograms: said with the file's unit beside it. */
function inUnit(reason: string, unit: string): string {
  if (unit === 'lb') return reason;
  return `${reason} (the weight column is read as ${unit} and converted to lb)`;
}
