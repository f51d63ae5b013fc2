import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../src/core/orders/csv.js';

describe('parseCsv (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF and a BOM', () => {
    const text = '\uFEFFa,b,c\r\n"1, 2","say ""hi""","two\r\nlines"\r\nx,,z\r\n';
    const { records, errors } = parseCsv(text);
    expect(errors).toEqual([]);
    expect(records).toEqual([
      { line: 1, row: 1, fields: ['a', 'b', 'c'] },
      { line: 2, row: 2, fields: ['1, 2', 'say "hi"', 'two\r\nlines'] },
      { line: 4, row: 3, fields: ['x', '', 'z'] },
    ]);
  });

  it('accepts LF, a last line without a line end, and skips blank lines (still counted as rows)', () => {
    expect(parseCsv('a,b\n\n1,2').records).toEqual([
      { line: 1, row: 1, fields: ['a', 'b'] },
      { line: 3, row: 3, fields: ['1', '2'] },
    ]);
  });

  it('keeps an empty last field and a quoted empty field', () => {
    expect(parseCsv('a,"",\n').records[0]!.fields).toEqual(['a', '', '']);
  });

  it('reports text after a closing quote and an unterminated quote, with their lines', () => {
    const { records, errors } = parseCsv(
      'ok,1\n"bad"x,2\nfine,3\n"never closed,4\nnot lost,5\nlast,6\n',
    );
    // The quote that never closes costs its own row only: the rows after it are read.
    expect(records.map((r) => [r.fields[0], r.line, r.row])).toEqual([
      ['ok', 1, 1],
      ['fine', 3, 3],
      ['not lost', 5, 5],
      ['last', 6, 6],
    ]);
    expect(errors).toEqual([
      {
        line: 2,
        row: 2,
        fields: ['bad', '2'],
        message: expect.stringMatching(/after a closing quote/),
      },
      {
        line: 4,
        row: 4,
        fields: ['never closed,4'],
        message: expect.stringMatching(/never closed .*the rows after it were read/),
      },
    ]);
  });

  it('a stray quote that the next row\'s own quote would "close" costs its own row only', () => {
    // European Excel: semicolons; row 3 opens a quote it never closes, and row 4's first
    // quoted field would close it with text after the quote.
    const { records, errors } = parseCsv(
      'n;name;street;city\nA-1;Ann;"1 Main St";Austin\nA-2;Unclosed;"2 Oak St;Austin\nA-3;Bob;"3 Elm St";Austin\nA-4;Cy;4 Pine St;Austin\n',
    );
    expect(records.map((r) => [r.fields[0], r.row])).toEqual([
      ['n', 1],
      ['A-1', 2],
      ['A-3', 4],
      ['A-4', 5],
    ]);
    expect(records[2]!.fields).toEqual(['A-3', 'Bob', '3 Elm St', 'Austin']);
    expect(errors).toEqual([
      {
        line: 3,
        row: 3,
        fields: ['A-2', 'Unclosed', '2 Oak St;Austin'],
        message: expect.stringMatching(/never closed/),
      },
    ]);
    // A quoted field that really holds a line break is still one field.
    expect(parseCsv('a;b\n"1\n2";3\n').records[1]!.fields).toEqual(['1\n2', '3']);
  });

  it('takes the separator from the header line: commas, semicolons or tabs', () => {
    expect(parseCsv('a;b;"c,d"\n1;"2;3";4,5\n')).toMatchObject({
      delimiter: ';',
      records: [{ fields: ['a', 'b', 'c,d'] }, { fields: ['1', '2;3', '4,5'] }],
    });
    expect(parseCsv('a\tb\n1\t2').records[1]!.fields).toEqual(['1', '2']);
    // Commas win a tie, and a header with no separator at all is one comma column.
    expect(parseCsv('a,b;c\n1,2;3').records[1]!.fields).toEqual(['1', '2;3']);
    expect(parseCsv('order_number\nA-1').delimiter).toBe(',');
  });
});
