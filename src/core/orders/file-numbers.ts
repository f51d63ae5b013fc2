/**
 * Numbers as order files write them. A file separated by commas writes its decimals with a
 * point, and may group thousands with a comma ("1,024", "12,500.5": what a spreadsheet shows
 * and a store's export copies); a file separated by semicolons or tabs (Excel in a European
 * locale) may write its decimals with a comma ("14,6"). Every column that holds a number (a
 * weight, a price, a quantity) is read by these rules, in the station's own format, a store's
 * export and a saved mapping alike: "1,024" ounces in a ShipStation export is 1024 oz (it was
 * once read as 1.024). Anything else is refused for its row, never guessed.
 */

/** A plain decimal: Number() would also take "0x1A" or "1e3" from a garbled cell. */
const PLAIN = /^[-+]?(\d+\.?\d*|\.\d+)$/;
/** 1,024 or 12,500.5: groups of exactly three digits after each comma. */
const COMMA_THOUSANDS = /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/;
/** 1.024,5 (a decimal comma with point thousands): only with both marks. */
const POINT_THOUSANDS = /^[-+]?\d{1,3}(\.\d{3})+,\d+$/;
const DECIMAL_COMMA = /^[-+]?\d*,\d+$/;

/** The number a cell holds, in a file whose decimals are written with a comma or not; NaN when none. */
export function fileNumber(raw: string, decimalComma: boolean): number {
  const text = raw.trim();
  if (PLAIN.test(text)) return Number(text);
  if (decimalComma) {
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
export function notANumber(raw: string, decimalComma: boolean): string {
  if (!decimalComma && /^[-+]?[\d,]*,[\d,.]*$/.test(raw) && /\d/.test(raw)) {
    // "2,5", "1,02", "1,0000": not a group of thousands, and this file writes a decimal point.
    const point = /^[-+]?\d+,\d+$/.test(raw) ? ` (${raw.replace(',', '.')})` : '';
    return `"${raw}" is not a number here: this file writes decimals with a point${point}, and a comma only between thousands (1,024 or 12,500.5)`;
  }
  return `"${raw}" is not a number`;
}
