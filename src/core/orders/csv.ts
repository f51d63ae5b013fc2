/**
 * A small RFC 4180 reader. Written here rather than taken as a dependency because the rules
 * are short and the station needs one thing most libraries do not give: the line on which
 * each record starts, so a bad row can be reported where the person will look for it.
 *
 * Accepts: a UTF-8 BOM, CRLF or LF line ends, quoted fields with embedded commas, line
 * breaks and doubled quotes. A quote that closes a field must be followed by a comma or the
 * end of the line; anything else is an error for that record, which is skipped. A quote that
 * never closes (or "closes" on a later line with text after it: a stray quote that ran into
 * the next row) is an error for its record, which ends with the line the quote opened on: the
 * rows after it are read.
 *
 * The separator is read from the header line: Excel in many European locales saves "CSV" with
 * semicolons, and "Unicode text" with tabs; whichever of `,` `;` tab is most frequent outside
 * quotes on the first line is used for the whole file.
 */
import { runAtOnce, type Steps } from './slices.js';

const LF = 10;
const CR = 13;

/** Records read between two chances to pause. */
const STEP_RECORDS = 256;

export type CsvDelimiter = ',' | ';' | '\t';
export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  /**
   * 1-based row as a spreadsheet numbers it: every record counts, an empty line and a
   * malformed record too (a quoted line break does not start a new row).
   */
  row: number;
  fields: string[];
}

export interface CsvError {
  line: number;
  /** As CsvRecord.row. */
  row: number;
  /** The fields read before the record broke (its order number is in one of them). */
  fields: string[];
  message: string;
}

export interface CsvParseResult {
  records: CsvRecord[];
  errors: CsvError[];
  delimiter: CsvDelimiter;
}

/** The separator of the first line (outside quotes): the most frequent of `,` `;` tab. */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

export function parseCsv(text: string): CsvParseResult {
  return runAtOnce(parseCsvSteps(text));
}

/** parseCsv, yielding the share of the text read so far every few hundred records. */
export function* parseCsvSteps(text: string): Steps<number, CsvParseResult> {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sep = detectDelimiter(src);
  const records: CsvRecord[] = [];
  const errors: CsvError[] = [];
  let i = 0;
  let line = 1;
  let row = 0;
  const n = src.length;
  const sepCode = sep.charCodeAt(0);
  let count = 0;

  while (i < n) {
    const startLine = line;
    row++;
    const fields: string[] = [];
    let broken: string | null = null;
    // One record.
    for (;;) {
      let value = '';
      if (src[i] === '"') {
        const openAt = i;
        const openLine = line;
        i++;
        let closed = false;
        while (i < n) {
          const c = src[i]!;
          if (c === '"') {
            if (src[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === '\n') line++;
          value += c;
          i++;
        }
        // A quote that "closes" on a later line with text right after it is a stray quote
        // whose field ran into the next row (that row's own first quote closed it): it never
        // closed where it opened, and the next row is a row of its own.
        const ranOn =
          closed &&
          line > openLine &&
          i < n &&
          src[i] !== sep &&
          src[i] !== '\n' &&
          src[i] !== '\r';
        if (!closed || ranOn) {
          // A stray quote would swallow every row after it: the record ends with the line its
          // quote opened on, and the rows after it are read as rows.
          broken ??= 'a quoted field is never closed (missing "); the rows after it were read';
          const nl = src.indexOf('\n', openAt);
          i = nl === -1 ? n : nl + 1;
          line = openLine + 1;
          // What the field held on its own line, for the row's order number and the report.
          const own = src.slice(openAt + 1, nl === -1 ? n : nl).replace(/\r$/, '');
          fields.push(own);
          break;
        } else if (i < n && src[i] !== sep && src[i] !== '\n' && src[i] !== '\r') {
          broken ??= `unexpected text after a closing quote in field ${fields.length + 1}`;
          while (i < n && src[i] !== sep && src[i] !== '\n' && src[i] !== '\r') i++;
        }
      } else {
        // An unquoted field is one slice of the text, not a string built a character at a time.
        const start = i;
        while (i < n) {
          const c = src.charCodeAt(i);
          if (c === sepCode || c === LF || c === CR) break;
          i++;
        }
        value = src.slice(start, i);
      }
      fields.push(value);
      if (i < n && src[i] === sep) {
        i++;
        continue;
      }
      // End of record: CRLF, LF, lone CR or end of input.
      if (src[i] === '\r') i++;
      if (src[i] === '\n') i++;
      line++;
      break;
    }
    // An empty line, or one of separators only (",,,,": a row Excel saves after its cells were
    // cleared), is no record; it still counts as a row, as a spreadsheet numbers it.
    const blank = fields.every((f) => f.trim() === '');
    if (broken) errors.push({ line: startLine, row, fields, message: broken });
    else if (!blank) records.push({ line: startLine, row, fields });
    if (++count % STEP_RECORDS === 0) yield i / n;
  }
  return { records, errors, delimiter: sep };
}

/** Quotes a value when it needs it, for writing CSV (reports, exports). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The last row of a file that stops in the middle of it (see `cutLastRow`). */
export interface CutRow {
  row: number;
  line: number;
  /** Fields read before the file stopped, and how many the header has. */
  fields: number;
  of: number;
}

/**
 * The last row of a CSV that ends in the middle of it: no line ending after it, and fewer
 * fields than the header (or a quoted field still open). A file being written, or a copy that
 * stopped, ends so; a finished file without a final line break has all of its last row's
 * fields. Null when the file ends cleanly.
 */
export function cutLastRow(text: string, parsed: CsvParseResult): CutRow | null {
  if (text === '' || /[\r\n]$/.test(text)) return null;
  const header = parsed.records[0];
  if (!header) return null;
  const record = parsed.records.at(-1);
  const error = parsed.errors.at(-1);
  const last = error && (!record || error.row > record.row) ? error : record;
  if (!last || last === header) return null;
  const open = last === error && error.message.startsWith('a quoted field is never closed');
  if (!open && last.fields.length >= header.fields.length) return null;
  return {
    row: last.row,
    line: last.line,
    fields: last.fields.length,
    of: header.fields.length,
  };
}

/** cutLastRow of a whole file's text (parsed only when it does not end with a line break). */
export function unfinishedLastRow(text: string): CutRow | null {
  if (text === '' || /[\r\n]$/.test(text)) return null;
  return cutLastRow(text, parseCsv(text));
}
