import { describe, expect, it } from 'vitest';
import {
  describeStatus,
  parseHostQueryErrors,
  parseHostStatus,
  StatusParseError,
  toPrinterStatus,
} from '../../../src/core/printing/zebra-status.js';
import type { PrinterConfig } from '../../../src/core/printing/types.js';
import { stalledStatus, statusFramesLength } from '../../../src/core/printing/drivers/tcp-line.js';

const S = '\x02';
const E = '\x03';
/** A ZD421's ~HS answer, with flags to flip. */
function hs({
  paper = 0,
  pause = 0,
  formats = 0,
  full = 0,
  head = 0,
  ribbon = 0,
  remaining = 0,
} = {}) {
  return (
    `${S}030,${paper},${pause},1218,${String(formats).padStart(3, '0')},${full},0,0,000,0,0,0${E}\r\n` +
    `${S}001,0,${head},${ribbon},0,2,6,0,${String(remaining).padStart(8, '0')},1,000${E}\r\n` +
    `${S}1234,0${E}\r\n`
  );
}
function hqes(errors: string, warnings = '00000000') {
  const flag = errors === '00000000' ? 0 : 1;
  return `${S}\r\n  PRINTER STATUS\r\n   ERRORS:         ${flag} 00000000 ${errors}\r\n   WARNINGS:       0 00000000 ${warnings}\r\n${E}\r\n`;
}
const zd421: PrinterConfig = { id: 'p1', name: 'ZD421', kind: 'network', host: '10.1.4.20' };

describe('~HS', () => {
  it('reads a ready printer', () => {
    const status = toPrinterStatus(parseHostStatus(hs()), null);
    expect(status).toMatchObject({
      ready: true,
      faults: [],
      formatsInBuffer: 0,
      labelsRemaining: 0,
    });
    expect(describeStatus(zd421, status)).toBeNull();
  });

  it.each([
    [{ paper: 1 }, 'paper-out', 'Printer ZD421 at 10.1.4.20 is out of paper'],
    [
      { pause: 1 },
      'paused',
      'Printer ZD421 at 10.1.4.20 is paused (press the pause button to resume)',
    ],
    [{ head: 1 }, 'head-open', 'Printer ZD421 at 10.1.4.20 has its lid open'],
    [{ ribbon: 1 }, 'ribbon-out', 'Printer ZD421 at 10.1.4.20 is out of ribbon'],
    [{ full: 1 }, 'buffer-full', 'Printer ZD421 at 10.1.4.20 is busy'],
  ] as const)('%o → %s', (flags, fault, words) => {
    const status = toPrinterStatus(parseHostStatus(hs(flags)), null);
    expect(status.ready).toBe(false);
    expect(status.faults).toEqual([fault]);
    expect(describeStatus(zd421, status)).toContain(words);
  });

  it('names every fault at once, and counts labels still in the printer', () => {
    const status = toPrinterStatus(
      parseHostStatus(hs({ paper: 1, head: 1, formats: 2, remaining: 3 })),
      null,
    );
    expect(status.formatsInBuffer).toBe(2);
    expect(status.labelsRemaining).toBe(3);
    expect(describeStatus(zd421, status)).toBe(
      'Printer ZD421 at 10.1.4.20 is out of paper and has its lid open',
    );
  });

  it('refuses a truncated or garbled answer instead of calling the printer ready', () => {
    expect(() => parseHostStatus(`${S}030,0,0,1218${E}\r\n`)).toThrow(StatusParseError);
    expect(() => parseHostStatus(hs().slice(0, 40))).toThrow(StatusParseError);
    expect(() => parseHostStatus(hs().replace('1218', 'abcd'))).toThrow(StatusParseError);
  });
});

describe('~HQES', () => {
  it.each([
    ['00000000', []],
    ['00000001', ['paper-out']],
    ['00000002', ['ribbon-out']],
    ['00000004', ['head-open']],
    ['00000005', ['paper-out', 'head-open']],
    ['00000008', ['other']],
  ])('errors %s → %o', (bits, faults) => {
    const status = toPrinterStatus(null, parseHostQueryErrors(hqes(bits)));
    expect(status.faults).toEqual(faults);
    expect(status.ready).toBe(faults.length === 0);
  });

  it('ignores warnings such as "clean the head" (the printer still prints)', () => {
    const parsed = parseHostQueryErrors(hqes('00000000', '00000002'));
    expect(parsed.warnings).toBe(2);
    expect(toPrinterStatus(null, parsed).ready).toBe(true);
  });

  it('adds "paused" from ~HS, which ~HQES does not report', () => {
    const status = toPrinterStatus(
      parseHostStatus(hs({ pause: 1 })),
      parseHostQueryErrors(hqes('00000001')),
    );
    expect(status.faults.sort()).toEqual(['paper-out', 'paused']);
  });

  it('refuses an answer without an ERRORS line', () => {
    expect(() => parseHostQueryErrors(`${S}\r\nPRINTER STATUS\r\n${E}`)).toThrow(StatusParseError);
  });
});

describe('reading a status answer off the line', () => {
  it('tells text that is not a status from frames still on their way', () => {
    // A line of text before any frame: refused as soon as its line ends.
    expect(() => statusFramesLength('Odd HS\r\n', 3)).toThrow(/answered "Odd HS"/);
    // Frames begun and not finished: waited on (a slow printer may still finish them).
    expect(statusFramesLength(`${S}030,0,0`, 3)).toBeNull();
    expect(stalledStatus(`${S}030,0,0`)).toBeNull();
    expect(stalledStatus('\r\n')).toBeNull();
    // Text with no line end that stopped coming: refused once the line has been quiet.
    expect(stalledStatus('HELLO')?.reason).toBe('garbled');
    expect(stalledStatus(`junk${S}030`)?.message).toMatch(/answered "junk"/);
    // Three whole frames: their length, line ends included.
    const three = `${S}a${E}\r\n${S}b${E}\r\n${S}c${E}\r\n`;
    expect(statusFramesLength(`${three}${S}next`, 3)).toBe(three.length);
  });
});
