/**
 * Numbers as order files write them. A file separated by commas writes its decimals with a
 * point, and may group thousands with a comma ("1,024", "12,500.5": what a spreadsheet shows
 * and a store's export copies); a file separated by semicolons or tabs (Excel in a European
 * locale) may write its decimals with a comma ("14,6") and group thousands with a point
 * ("1.024"), or write them as a comma-separated file does. Every column that holds a number (a
 * weight, a price, a quantity) is read by these rules, in the station's own format, a store's
 * export and a saved mapping alike: "1,024" ounces in a ShipStation export is 1024 oz (it was
 * once read as 1.024). Anything else is refused for its row, never guessed.
 */

/**
 * How a file writes its decimals (`fileDecimals`): `point` (commas only between thousands: every
 * comma-separated file, and a semicolon or tab file whose other numbers show decimal points),
 * `comma` (a semicolon or tab file whose other numbers show decimal commas: "1.024" is 1024), or
 * `unknown` (a semicolon or tab file whose numbers do not tell: "1.024" and "1,024" are refused).
 */
export type FileDecimals = 'point' | 'comma' | 'unknown';

/** A plain decimal: Number() would also take "0x1A" or "1e3" from a garbled cell. */
const PLAIN = /^[-+]?(\d+\.?\d*|\.\d+)$/;
/** 1,024 or 12,500.5: groups of exactly three digits after each comma. */
const COMMA_THOUSANDS = /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/;
/** 1.024,5 (a decimal comma with point thousands): only with both marks. */
const POINT_THOUSANDS = /^[-+]?\d{1,3}(\.\d{3})+,\d+$/;
const DECIMAL_COMMA = /^[-+]?\d*,\d+$/;
/** 1.024 or 12.500.000: thousands grouped by points, or three decimals; only the file tells. */
const GROUPED_POINTS = /^[-+]?[1-9]\d{0,2}(\.\d{3})+$/;
/** 1,024: thousands grouped by a comma, or three decimals after a comma. */
const GROUPED_COMMAS = /^[-+]?[1-9]\d{0,2}(,\d{3})+$/;

/**
 * How a file separated by `delimiter` writes its decimals, from its cells: a number that can only
 * be a decimal comma ("14,6", "0,25", "1.024,5") or only a decimal point ("1.5", "0.250",
 * "1,024.5") tells; "1.024" alone does not, nor a file that shows both (each of those is read
 * as it says, and "1.024" is refused).
 */
export function fileDecimals(delimiter: string, cells: Iterable<readonly string[]>): FileDecimals {
  if (delimiter === ',') return 'point';
  let comma = false;
  let point = false;
  for (const row of cells)
    for (const raw of row) {
      const text = raw.trim();
      if (text.length > 40 || !/^[-+]?[\d.,]+$/.test(text)) continue;
      if (GROUPED_POINTS.test(text) || GROUPED_COMMAS.test(text)) continue;
      if (DECIMAL_COMMA.test(text) || POINT_THOUSANDS.test(text)) comma = true;
      else if (/^[-+]?\d*\.\d+$/.test(text) || COMMA_THOUSANDS.test(text)) point = true;
      if (comma && point) return 'unknown';
    }
  return comma ? 'comma' : point ? 'point' : 'unknown';
}

/** The number a cell holds, in a file that writes its decimals as `decimals` says; NaN when none. */
export function fileNumber(raw: string, decimals: FileDecimals): number {
  const text = raw.trim();
  if (decimals === 'comma' && GROUPED_POINTS.test(text)) return Number(text.replaceAll('.', ''));
  if (decimals === 'unknown' && (GROUPED_POINTS.test(text) || GROUPED_COMMAS.test(text)))
    return NaN;
  if (PLAIN.test(text)) return Number(text);
  if (decimals !== 'point') {
    if (DECIMAL_COMMA.test(text)) return Number(text.replace(',', '.'));
    if (POINT_THOUSANDS.test(text)) return Number(text.replaceAll('.', '').replace(',', '.'));
    // 1,024.50 says itself which mark is which, in any file.
    if (COMMA_THOUSANDS.test(text) && text.includes('.')) return Number(text.replaceAll(',', ''));
    return NaN;
  }
  if (COMMA_THOUSANDS.test(text)) return Number(text.replaceAll(',', ''));
  return NaN;
}

/** Why a cell that fileNumber could not read is not a number, in words for the person. */
export function notANumber(raw: string, decimals: FileDecimals): string {
  if (decimals === 'unknown' && (GROUPED_POINTS.test(raw) || GROUPED_COMMAS.test(raw))) {
    const whole = raw.replace(/[.,]/g, '');
    const decimal = raw.replace(',', '.');
    return `"${raw}" could be ${whole} or ${decimal}: no other number in this file shows whether it writes decimals with a comma or a point, so it is not guessed. Write ${whole} if that is meant, or check the export's number format`;
  }
  if (decimals === 'point' && /^[-+]?[\d,]*,[\d,.]*$/.test(raw) && /\d/.test(raw)) {
    // "2,5", "1,02", "1,0000": not a group of thousands, and this file writes a decimal point.
    const point = /^[-+]?\d+,\d+$/.test(raw) ? ` (${raw.replace(',', '.')})` : '';
    return `"${raw}" is not a number here: this file writes decimals with a point${point}, and a comma only between thousands (1,024 or 12,500.5)`;
  }
  return `"${raw}" is not a number`;
}
