import { stripControlCharacters } from '../orders/control-characters.js';
import { describePrinter, type PrinterConfig, type PrinterDpi } from './types.js';

/**
 * Label size checks. A ZPL label is drawn in dots, so the same file prints at a different size
 * on a printer with a different head: a 4x6 label made for 203 dpi (^PW812 ^LL1218) comes out
 * 2.7 x 4.1 in on a 300-dpi printer. We catch that before it wastes labels.
 */

export interface LabelSize {
  /** ^PW (print width), in dots; null when the label does not set it. */
  widthDots: number | null;
  /** ^LL (label length), in dots; null when the label does not set it. */
  lengthDots: number | null;
}

export type LabelWarningCode = 'dpi-mismatch' | 'size-unknown' | 'larger-than-media';

export interface LabelWarning {
  code: LabelWarningCode;
  /** For the person at the station. */
  message: string;
  /** The resolution the label seems to be made for. */
  labelDpi?: PrinterDpi;
  printerDpi?: PrinterDpi;
}

const DPIS: readonly PrinterDpi[] = [203, 300, 600];

/** Reads ^PW and ^LL from the (first) label; the last value wins as on the printer. */
export function readLabelSize(zpl: string): LabelSize {
  const last = (re: RegExp) => {
    let value: number | null = null;
    for (const m of zpl.matchAll(re)) value = Number.parseInt(m[1]!, 10);
    return value;
  };
  return { widthDots: last(/\^PW\s*(\d+)/gi), lengthDots: last(/\^LL\s*(\d+)/gi) };
}

const inches = (dots: number, dpi: number) => Math.round((dots / dpi) * 10) / 10;

/**
 * Which resolution a label was made for, given the media it is meant for (4x6 in by default):
 * the one at which its ^PW matches the media width within 5 %.
 */
export function guessLabelDpi(size: LabelSize, mediaWidthIn = 4): PrinterDpi | null {
  if (size.widthDots === null) return null;
  for (const dpi of DPIS) {
    if (Math.abs(size.widthDots / dpi - mediaWidthIn) / mediaWidthIn <= 0.05) return dpi;
  }
  return null;
}

export interface CheckOptions {
  /** What the printer itself reported (SGD head.resolution.in_dpi), over the profile's value. */
  reportedDpi?: PrinterDpi | null;
  mediaWidthIn?: number;
  mediaLengthIn?: number;
}

/** Warnings to show before a label goes to `printer`; empty when it will print right. */
export function checkLabelForPrinter(
  zpl: string,
  printer: PrinterConfig,
  options: CheckOptions = {},
): LabelWarning[] {
  const printerDpi = options.reportedDpi ?? printer.dpi ?? 203;
  const mediaW = options.mediaWidthIn ?? 4;
  const mediaL = options.mediaLengthIn ?? 6;
  const size = readLabelSize(zpl);
  const who = `Printer ${describePrinter(printer)}`;
  if (size.widthDots === null && size.lengthDots === null) {
    return [
      {
        code: 'size-unknown',
        message: `This label does not say its size (no ^PW/^LL); ${who} will use the size it is set up for.`,
        printerDpi,
      },
    ];
  }
  const warnings: LabelWarning[] = [];
  const labelDpi = guessLabelDpi(size, mediaW);
  if (labelDpi !== null && labelDpi !== printerDpi) {
    const w = inches(size.widthDots!, printerDpi);
    const l = size.lengthDots === null ? null : inches(size.lengthDots, printerDpi);
    warnings.push({
      code: 'dpi-mismatch',
      message:
        `This label was made for a ${labelDpi}-dpi printer, but ${who} prints at ${printerDpi} dpi: ` +
        `it would come out ${w}${l === null ? '' : ` x ${l}`} in instead of ${mediaW} x ${mediaL} in.`,
      labelDpi,
      printerDpi,
    });
  } else {
    const tooWide = size.widthDots !== null && size.widthDots / printerDpi > mediaW * 1.05;
    const tooLong = size.lengthDots !== null && size.lengthDots / printerDpi > mediaL * 1.05;
    if (tooWide || tooLong)
      warnings.push({
        code: 'larger-than-media',
        message: `This label is larger than ${mediaW} x ${mediaL} in at ${printerDpi} dpi; part of it would be cut off on ${who}.`,
        printerDpi,
      });
  }
  return warnings;
}

/**
 * Text for a `^FH^FD…^FS` field: control characters removed, and the characters ZPL gives a
 * meaning to (`^` and `~` start commands, `_` is the ^FH escape, and `\`) written as ^FH hex
 * escapes, so no text the station prints can end a field or start a command. Every field the
 * station writes itself uses ^FH with this.
 */
export function zplFieldText(value: string): string {
  return stripControlCharacters(value).replace(
    /[_^~\\]/g,
    (c) => `_${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** A one-label test print sized for the printer, naming it. */
export function testLabel(printer: PrinterConfig, at = new Date()): string {
  const dpi = printer.dpi ?? 203;
  const pw = Math.round(4 * dpi);
  const ll = Math.round(6 * dpi);
  const s = (n: number) => Math.round((n * dpi) / 203);
  const text = zplFieldText;
  return [
    '^XA',
    `^PW${pw}`,
    `^LL${ll}`,
    '^CI28',
    `^FO${s(40)},${s(40)}^GB${pw - s(80)},${ll - s(80)},${s(6)}^FS`,
    `^FO${s(80)},${s(100)}^A0N,${s(60)},${s(60)}^FH^FDTest print^FS`,
    `^FO${s(80)},${s(200)}^A0N,${s(40)},${s(40)}^FH^FD${text(printer.name)}^FS`,
    `^FO${s(80)},${s(260)}^A0N,${s(30)},${s(30)}^FH^FD${text(describePrinter(printer))}^FS`,
    `^FO${s(80)},${s(320)}^A0N,${s(30)},${s(30)}^FH^FD${dpi} dpi, 4 x 6 in^FS`,
    `^FO${s(80)},${s(380)}^A0N,${s(30)},${s(30)}^FH^FD${text(at.toISOString().slice(0, 16).replace('T', ' '))} UTC^FS`,
    `^FO${s(80)},${s(480)}^BY${Math.max(2, s(3))}^BCN,${s(150)},Y,N,N^FH^FDTEST-${dpi}^FS`,
    '^XZ',
  ].join('\n');
}
