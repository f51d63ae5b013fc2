/** Files that are not text, by their first bytes as decoded (Windows-1252 for non-UTF-8). */
/* eslint-disable no-control-regex -- file signatures are made of control bytes */
const BINARY_KINDS: [RegExp, string][] = [
  [/^.PNG\r\n/, 'a PNG picture'],
  [/^\u00ff\u00d8\u00ff|^\ufffd\ufffd\ufffd/, 'a JPEG picture'],
  [/^%PDF-/, 'a PDF document'],
  [/^PK\u0003\u0004/, 'a zip archive or an Excel workbook (.xlsx)'],
  [/^\u00d0\u00cf\u0011\u00e0|^\u00d0\u00cf/, 'an old Excel workbook (.xls)'],
];
/* eslint-enable no-control-regex */

/**
 * Why a file is not an order file at all (a picture, a PDF, a workbook saved under .csv), or
 * null: its start names its kind, or it is full of NUL bytes, which text has not (a stray control
 * character in a real export is cleaned per field instead).
 */
export function notText(text: string): string | null {
  const head = text.slice(0, 4096);
  for (const [pattern, kind] of BINARY_KINDS)
    if (pattern.test(head))
      return `This is not a text file: it looks like ${kind}. Export the orders as CSV, tab-separated text or JSON and import that file.`;
  // Binary files are full of NUL bytes; text has none, or a stray few (a printer command pasted
  // into a field, cleaned per field later).
  const nuls = head.split('\u0000').length - 1;
  if (nuls >= 16 || nuls > head.length / 50)
    return 'This is not a text file (it holds bytes no order file has). Export the orders as CSV, tab-separated text or JSON and import that file.';
  return null;
}
