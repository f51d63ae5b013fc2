import type Database from 'better-sqlite3';
import type { Printer, PrinterConfig, PrinterStatus } from '../types.js';
import type { LabelWarning } from '../zpl.js';
import type { PrintJob } from './jobs.js';

/** The print spool's surface: what it is given, what it tells, how it refuses. */

export interface PrinterNotice {
  printerId: string;
  /** null: the printer does not answer status (one-way USB, OS queue) or is unreachable. */
  status: PrinterStatus | null;
  /** "Printer ZD421 at 10.1.4.20 is out of paper"; null when all is well. */
  message: string | null;
}

export interface PrintSpoolEvents {
  /** A job was added or changed state (or its last error changed). */
  job: [PrintJob];
  /** What a printer said the last time the spool asked. */
  printer: [PrinterNotice];
}

export type PrintSpoolErrorCode =
  'job-not-found' | 'job-state-conflict' | 'printer-not-found' | 'wrong-printer-role';

export class PrintSpoolError extends Error {
  constructor(
    readonly code: PrintSpoolErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PrintSpoolError';
  }
}

export interface PrintSpoolOptions {
  db: Database.Database;
  /** The printers of the current site profile. */
  printers: () => readonly PrinterConfig[];
  /**
   * A printer of another profile of this station, by id: a job queued while that profile was in
   * use still prints on its printer after a switch (it is at this station all the same). Asked
   * only when `printers()` has no such id.
   */
  otherPrinter?: (id: string) => PrinterConfig | undefined;
  createDriver: (config: PrinterConfig) => Printer;
  /** Retry delay after a failed attempt: base·2^(attempts-1), capped. Defaults 1 s and 30 s. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** Send attempts before a job is 'failed' (faults reported by the printer do not count). */
  maxAttempts?: number;
  /**
   * …and not before this long after it was queued: a printer switched off for a few minutes
   * (paper, a jam, a cable) must not turn every waiting label into a shift lead's task.
   * Default 30 minutes.
   */
  giveUpAfterMs?: number;
  /** How often a printer with a fault (paper out…) is asked again. Default 2 s. */
  faultPollMs?: number;
  /** While a printer works through labels already sent. Default 250 ms. */
  printingPollMs?: number;
  /**
   * A label the printer keeps in its buffer this long with no fault (a printer that peels labels
   * waits until it is taken; one that is stuck never lets it go) is said on its job, and the
   * printer asked at faultPollMs from then on. Default 30 s.
   */
  heldSaidAfterMs?: number;
  now?: () => number;
}

export interface EnqueueResult {
  job: PrintJob;
  /** Shown to the packer before it prints (e.g. a 203-dpi label on a 300-dpi printer). */
  warnings: LabelWarning[];
}

/**
 * The words of a printer with a fault (out of paper, head open, not answering) that holds one
 * of these labels' jobs, or null: a batch buys no more labels into it.
 */
export function faultHolding(
  spool: {
    printerNotices(): PrinterNotice[];
    pendingLabelJob(labelId: string): { printerId: string } | null;
  },
  labelIds: readonly string[],
): string | null {
  const notices = spool.printerNotices();
  for (const labelId of labelIds) {
    const job = spool.pendingLabelJob(labelId);
    const notice = job && notices.find((n) => n.printerId === job.printerId);
    if (notice?.message) return notice.message;
  }
  return null;
}

/** How many labels a batch may have bought and not yet seen printed (docs/core.md, batches). */
export const BATCH_PRINT_LEAD = 2;

/**
 * What a batch asks of the spool between labels (packing/batch.ts): the fault holding its
 * labels (faultHolding), how many of them have not printed yet (queued or being sent), the
 * printer a label waits for, and the spool's next word on a job or a printer (or `ms`,
 * whichever comes first).
 */
export function batchPrintWatch(spool: {
  printerNotices(): PrinterNotice[];
  pendingLabelJob(labelId: string): { printerId: string } | null;
  printerName(printerId: string): string;
  on(event: 'job' | 'printer', listener: () => void): unknown;
  off(event: 'job' | 'printer', listener: () => void): unknown;
}) {
  return {
    printHold: (labelIds: readonly string[]) => faultHolding(spool, labelIds),
    printsPending: (labelIds: readonly string[]) =>
      labelIds.filter((id) => spool.pendingLabelJob(id) !== null).length,
    printerOf: (labelId: string) => {
      const job = spool.pendingLabelJob(labelId);
      return job ? spool.printerName(job.printerId) : null;
    },
    printNews: (ms: number) =>
      new Promise<void>((resolve) => {
        const heard = () => {
          clearTimeout(timer);
          spool.off('job', heard);
          spool.off('printer', heard);
          resolve();
        };
        const timer = setTimeout(heard, ms);
        spool.on('job', heard);
        spool.on('printer', heard);
      }),
  };
}
