import { describe, expect, it } from 'vitest';
import {
  checkLabelForPrinter,
  guessLabelDpi,
  readLabelSize,
  testLabel,
} from '../../../src/core/printing/zpl.js';
import type { PrinterConfig } from '../../../src/core/printing/types.js';

const printer = (dpi: 203 | 300 | 600): PrinterConfig => ({
  id: 'p',
  name: 'ZD421',
  kind: 'usb',
  dpi,
});
const label = (pw: number, ll: number) => `^XA^PW${pw}^LL${ll}^FO10,10^FDx^FS^XZ`;

describe('ZPL size checks', () => {
  it('reads ^PW and ^LL', () => {
    expect(readLabelSize(label(812, 1218))).toEqual({ widthDots: 812, lengthDots: 1218 });
    expect(readLabelSize('^XA^FDx^FS^XZ')).toEqual({ widthDots: null, lengthDots: null });
  });

  it('recognises 4x6 labels made for each resolution', () => {
    expect(guessLabelDpi(readLabelSize(label(812, 1218)))).toBe(203);
    expect(guessLabelDpi(readLabelSize(label(1200, 1800)))).toBe(300);
    expect(guessLabelDpi(readLabelSize(label(2400, 3600)))).toBe(600);
    expect(guessLabelDpi(readLabelSize(label(400, 600)))).toBeNull();
  });

  it('accepts a label on a printer of the same resolution', () => {
    expect(checkLabelForPrinter(label(812, 1218), printer(203))).toEqual([]);
    expect(checkLabelForPrinter(label(1200, 1800), printer(300))).toEqual([]);
  });

  it('warns before a 203-dpi label goes to a 300-dpi printer, with the size it would come out', () => {
    const [warning, ...rest] = checkLabelForPrinter(label(812, 1218), printer(300));
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ code: 'dpi-mismatch', labelDpi: 203, printerDpi: 300 });
    expect(warning!.message).toBe(
      'This label was made for a 203-dpi printer, but Printer ZD421 (USB) prints at 300 dpi: it would come out 2.7 x 4.1 in instead of 4 x 6 in.',
    );
  });

  it('prefers the resolution the printer reports over the profile', () => {
    expect(
      checkLabelForPrinter(label(812, 1218), printer(203), { reportedDpi: 300 })[0]!.code,
    ).toBe('dpi-mismatch');
  });

  it('warns when a label is longer than the media', () => {
    expect(checkLabelForPrinter(label(812, 1624), printer(203))[0]!.code).toBe('larger-than-media');
  });

  it('says when a label does not give its size', () => {
    expect(checkLabelForPrinter('^XA^FDx^FS^XZ', printer(203))[0]!.code).toBe('size-unknown');
  });

  it('sizes the test label for the printer it is for', () => {
    for (const dpi of [203, 300, 600] as const) {
      const zpl = testLabel({
        id: 'p',
        name: 'Left_^desk',
        kind: 'network',
        host: '10.0.0.9',
        dpi,
      });
      expect(checkLabelForPrinter(zpl, printer(dpi))).toEqual([]);
      expect(zpl).toContain('^FH^FDLeft_5f_5edesk^FS');
    }
  });
});
