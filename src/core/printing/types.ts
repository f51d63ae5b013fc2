/**
 * Printer configuration and the one interface every printer driver implements.
 * Site profiles embed `PrinterConfig[]`; keep this file free of Node imports so the shared
 * contract can mirror it.
 */

// The printer shape is shared with the contract (one shape from the profile file to the view).
export type { PrinterConfig, PrinterDpi, PrinterKind, PrinterRole } from '../../shared/printers.js';
import type { PrinterConfig } from '../../shared/printers.js';

/** A fault a packer can fix at the printer; 'offline' means no answer at all. */
export type PrinterFault =
  'paper-out' | 'ribbon-out' | 'head-open' | 'paused' | 'buffer-full' | 'offline' | 'other';

export interface PrinterStatus {
  /** True when the printer can print right now. */
  ready: boolean;
  faults: PrinterFault[];
  /** Labels waiting in the printer's own buffer, when it says (~HS). */
  labelsRemaining?: number;
  /** Complete label formats received but not yet printed (~HS); 0 means all came out. */
  formatsInBuffer?: number;
  /** The printer's answer as received, for support. */
  raw?: string;
}

export interface SendOptions {
  signal?: AbortSignal;
  /**
   * status() only: the check right before a job is sent. A driver may answer it from a status
   * read moments ago on the connection the job will go out on, and keep that connection open
   * for the send() that follows.
   */
  beforeSend?: boolean;
  /** status() only: more questions follow shortly (a job being confirmed); keep the line open. */
  keepOpen?: boolean;
}

export interface Printer {
  readonly config: PrinterConfig;
  /** Writes the bytes to the printer; resolves when the transport accepted all of them. */
  send(data: Buffer, options?: SendOptions): Promise<void>;
  /**
   * Asks the printer how it is. `null` when this printer cannot answer status (one-way USB,
   * OS queues); throws a `PrinterError` with code 'printer-offline' when it cannot be reached.
   */
  status(options?: SendOptions): Promise<PrinterStatus | null>;
  /**
   * A job for this printer is on its way (a label being bought): open the connection and ask
   * the printer's status now, so the job finds both ready. Best effort; never throws, and what
   * it returns (when it is ready) never rejects.
   */
  prepare?(): Promise<void> | void;
  /**
   * The status read ahead of a job (prepare) when it is at hand and fresh, taken for the check
   * before the job that is about to go out (as `status({ beforeSend: true })` would give it,
   * without waiting); undefined when there is none and the printer must be asked.
   */
  statusAtHand?(): PrinterStatus | null | undefined;
  /** Print head resolution as the printer reports it, where it can say (Zebra SGD). */
  readDpi?(options?: SendOptions): Promise<number | null>;
  close(): Promise<void>;
}

export type PrinterErrorCode =
  | 'printer-offline'
  | 'printer-fault'
  | 'printer-disconnected'
  | 'printer-timeout'
  | 'printer-not-found'
  | 'printer-config-invalid'
  | 'aborted';

/** Errors that cross to the UI: `message` is for the person at the station. */
export class PrinterError extends Error {
  readonly status: PrinterStatus | undefined;
  /**
   * True when the label may have reached the printer whole (the connection broke after the
   * last byte went out but before the printer acknowledged it). The spool never resends such
   * a job by itself: a person decides.
   */
  readonly mayHavePrinted: boolean;
  constructor(
    readonly code: PrinterErrorCode,
    message: string,
    options?: { cause?: unknown; status?: PrinterStatus; mayHavePrinted?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PrinterError';
    this.status = options?.status;
    this.mayHavePrinted = options?.mayHavePrinted ?? false;
  }
}

/** "ZD421 at 10.1.4.20", "ZD421 (USB)", "ZD421 (queue zebra1)": how messages name a printer. */
export function describePrinter(config: PrinterConfig): string {
  switch (config.kind) {
    case 'network':
      return `${config.name} at ${config.host ?? '?'}${config.port && config.port !== 9100 ? `:${config.port}` : ''}`;
    case 'usb':
      return `${config.name} (USB)`;
    case 'os':
      return `${config.name} (queue ${config.queue ?? '?'})`;
    default: {
      const never: never = config.kind;
      return String(never);
    }
  }
}
