import {
  describePrinter,
  type PrinterConfig,
  type PrinterFault,
  type PrinterStatus,
} from './types.js';

/**
 * Zebra host status, as answered on the same channel the label went down (TCP 9100 or USB
 * bulk IN). Two commands, because printers differ in what they answer:
 *
 * `~HS` (every ZPL II printer) answers three STX…ETX frames, CR LF after each:
 *   1: aaa,b,c,dddd,eee,f,g,h,iii,j,k,l  b paper out, c paused, dddd label length (dots),
 *      eee formats in the receive buffer, f buffer full, g diagnostic mode, h partial format,
 *      j corrupt RAM, k under temperature, l over temperature
 *   2: mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www  o head up (open), p ribbon out, q thermal transfer,
 *      r print mode, s width mode, t label waiting, uuuuuuuu labels remaining in batch
 *   3: xxxx,y                            password, static RAM
 *
 * `~HQES` (newer firmware, Link-OS) answers one STX…ETX block with lines
 *   "ERRORS:   1 00000000 00000005" and "WARNINGS: 0 00000000 00000000": a flag, then group 2
 *   and group 1 as hex bit masks. Group 1 error bits: 1 media out, 2 ribbon out, 4 head open,
 *   8 cutter fault, 0x10 head over temperature, 0x20 motor over temperature, 0x40 bad head
 *   element, 0x80 head detection error, 0x100 invalid firmware config, 0x200 thermistor open.
 *   It has no "paused" bit: pause only shows in ~HS.
 */

const STX = '\x02';
const ETX = '\x03';

/** The STX…ETX frames in `text`, in order; an unterminated trailing frame is left out. */
export function statusFrames(text: string): string[] {
  const frames: string[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(STX, from);
    if (start < 0) return frames;
    const end = text.indexOf(ETX, start + 1);
    if (end < 0) return frames;
    frames.push(text.slice(start + 1, end));
    from = end + 1;
  }
}

export interface HostStatus {
  paperOut: boolean;
  paused: boolean;
  labelLengthDots: number;
  formatsInBuffer: number;
  bufferFull: boolean;
  partialFormat: boolean;
  corruptRam: boolean;
  underTemperature: boolean;
  overTemperature: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  thermalTransfer: boolean;
  labelWaiting: boolean;
  labelsRemaining: number;
}

export class StatusParseError extends Error {
  override name = 'StatusParseError';
}

/** Parses a complete `~HS` answer (all three frames). Throws StatusParseError when malformed. */
export function parseHostStatus(text: string): HostStatus {
  const frames = statusFrames(text);
  if (frames.length < 2)
    throw new StatusParseError(`~HS answer incomplete: ${JSON.stringify(text)}`);
  const one = frames[0]!.split(',').map((s) => s.trim());
  const two = frames[1]!.split(',').map((s) => s.trim());
  if (one.length < 12 || two.length < 9)
    throw new StatusParseError(`~HS answer has too few fields: ${JSON.stringify(text)}`);
  const flag = (v: string | undefined) => v === '1';
  const num = (v: string | undefined) => {
    const n = Number.parseInt(v ?? '', 10);
    if (!Number.isFinite(n)) throw new StatusParseError(`~HS field is not a number: ${v}`);
    return n;
  };
  return {
    paperOut: flag(one[1]),
    paused: flag(one[2]),
    labelLengthDots: num(one[3]),
    formatsInBuffer: num(one[4]),
    bufferFull: flag(one[5]),
    partialFormat: flag(one[7]),
    corruptRam: flag(one[9]),
    underTemperature: flag(one[10]),
    overTemperature: flag(one[11]),
    headOpen: flag(two[2]),
    ribbonOut: flag(two[3]),
    thermalTransfer: flag(two[4]),
    labelWaiting: flag(two[7]),
    labelsRemaining: num(two[8]),
  };
}

export const HQES_ERROR = {
  mediaOut: 0x1,
  ribbonOut: 0x2,
  headOpen: 0x4,
  cutterFault: 0x8,
  headOverTemperature: 0x10,
  motorOverTemperature: 0x20,
  badHeadElement: 0x40,
  headDetectionError: 0x80,
  invalidFirmwareConfig: 0x100,
  thermistorOpen: 0x200,
} as const;

export interface HostQueryErrors {
  errorPresent: boolean;
  /** Group 1 error bits (HQES_ERROR). */
  errors: number;
  errorsGroup2: number;
  warningPresent: boolean;
  warnings: number;
  warningsGroup2: number;
}

/** Parses a `~HQES` answer. Throws StatusParseError when the ERRORS line is missing. */
export function parseHostQueryErrors(text: string): HostQueryErrors {
  const line = (name: string) =>
    new RegExp(`${name}:\\s*([01])\\s+([0-9A-Fa-f]{8})\\s+([0-9A-Fa-f]{8})`).exec(text);
  const errors = line('ERRORS');
  if (!errors)
    throw new StatusParseError(`~HQES answer has no ERRORS line: ${JSON.stringify(text)}`);
  const warnings = line('WARNINGS');
  return {
    errorPresent: errors[1] === '1',
    errorsGroup2: Number.parseInt(errors[2]!, 16),
    errors: Number.parseInt(errors[3]!, 16),
    warningPresent: warnings?.[1] === '1',
    warningsGroup2: warnings ? Number.parseInt(warnings[2]!, 16) : 0,
    warnings: warnings ? Number.parseInt(warnings[3]!, 16) : 0,
  };
}

/** One PrinterStatus from whatever the printer answered (either may be missing). */
export function toPrinterStatus(
  hs: HostStatus | null,
  hqes: HostQueryErrors | null,
  raw?: string,
): PrinterStatus {
  const faults = new Set<PrinterFault>();
  if (hs) {
    if (hs.paperOut) faults.add('paper-out');
    if (hs.ribbonOut) faults.add('ribbon-out');
    if (hs.headOpen) faults.add('head-open');
    if (hs.paused) faults.add('paused');
    if (hs.bufferFull) faults.add('buffer-full');
    if (hs.corruptRam || hs.overTemperature) faults.add('other');
  }
  if (hqes) {
    const e = hqes.errors;
    if (e & HQES_ERROR.mediaOut) faults.add('paper-out');
    if (e & HQES_ERROR.ribbonOut) faults.add('ribbon-out');
    if (e & HQES_ERROR.headOpen) faults.add('head-open');
    const known = HQES_ERROR.mediaOut | HQES_ERROR.ribbonOut | HQES_ERROR.headOpen;
    if ((e & ~known) !== 0 || hqes.errorsGroup2 !== 0) faults.add('other');
    if (hqes.errorPresent && faults.size === 0) faults.add('other');
  }
  const status: PrinterStatus = { ready: faults.size === 0, faults: [...faults] };
  if (hs) {
    status.labelsRemaining = hs.labelsRemaining;
    status.formatsInBuffer = hs.formatsInBuffer;
  }
  if (raw !== undefined) status.raw = raw;
  return status;
}

const FAULT_WORDS: Record<PrinterFault, string> = {
  'paper-out': 'is out of paper',
  'ribbon-out': 'is out of ribbon',
  'head-open': 'has its lid open',
  paused: 'is paused (press the pause button to resume)',
  'buffer-full': 'is busy (its memory is full; wait for it to catch up)',
  offline: 'is not answering (check that it is switched on and connected)',
  other: 'reports an error (check the light and the display on the printer)',
};

/** A CUPS queue's own states are fixed at the computer, not on the printer's buttons. */
const QUEUE_WORDS: Partial<Record<PrinterFault, string>> = {
  paused:
    'is paused in the print system (site IT: resume the queue, e.g. cupsenable, or in the printer settings)',
  offline: 'is not answering the print system (check that it is switched on and connected)',
  other: 'has an alert in the print system (site IT: lpstat -l -p shows it)',
};

/** "Printer ZD421 at 10.1.4.20 is out of paper", or null when it is ready. */
export function describeStatus(config: PrinterConfig, status: PrinterStatus): string | null {
  if (status.ready) return null;
  const words = status.faults.map((f) =>
    config.kind === 'os' && f in QUEUE_WORDS ? QUEUE_WORDS[f]! : FAULT_WORDS[f],
  );
  const list =
    words.length <= 1
      ? (words[0] ?? FAULT_WORDS.other)
      : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return `Printer ${describePrinter(config)} ${list}`;
}
