import { renderPackingSlip } from '../packing-slip.js';
import { EventEmitter } from 'node:events';
import { describePrinter, type Printer, type PrinterConfig } from '../types.js';
import { checkLabelForPrinter, testLabel, type LabelWarning } from '../zpl.js';
import { JobSender } from './job-sender.js';
import {
  checkThePrinter,
  PrintJobStore,
  type JobChange,
  type LabelPrintOutcome,
  type NewPrintJob,
  type PrintJob,
  type PrintJobEvent,
  type PrintJobState,
} from './jobs.js';
import { inTransaction } from '../../storage/database.js';

import {
  PrintSpoolError,
  type EnqueueResult,
  type PrinterNotice,
  type PrintSpoolEvents,
  type PrintSpoolOptions,
} from './spool-types.js';

export {
  PrintSpoolError,
  type EnqueueResult,
  type PrinterNotice,
  type PrintSpoolErrorCode,
  type PrintSpoolEvents,
  type PrintSpoolOptions,
} from './spool-types.js';
export type {
  LabelPrintOutcome,
  PrintJob,
  PrintJobEvent,
  PrintJobState,
  PrintJobKind,
} from './jobs.js';

const INTERRUPTED =
  'The station stopped while this was being sent to the printer, so it may or may not have printed.';

/**
 * The durable print spool. Jobs live in SQLite and come out of each printer in the order they
 * were queued. Exactly once: a job is marked 'sending' (committed) before its first byte goes
 * out, and only a driver that knows the label did not print (PrinterError.mayHavePrinted false)
 * lets it go back to 'queued'. Anything else, including a restart that finds a job in
 * 'sending', becomes 'unknown' and waits for a person.
 */
export class PrintSpool extends EventEmitter<PrintSpoolEvents> {
  private readonly store: PrintJobStore;
  private readonly clock: () => number;
  private running = false;
  private abort = new AbortController();
  private readonly workers = new Map<string, Promise<void>>();
  private readonly wakers = new Map<string, () => void>();
  private readonly sender: JobSender;

  constructor(private readonly options: PrintSpoolOptions) {
    super();
    this.clock = options.now ?? Date.now;
    this.store = new PrintJobStore(options.db, this.clock);
    this.sender = new JobSender({
      store: this.store,
      options,
      clock: this.clock,
      isRunning: () => this.running,
      signal: () => this.abort.signal,
      sleep: (printerId, ms) => this.sleep(printerId, ms),
      emitJob: (job) => this.emitJob(job),
      emitNotice: (notice) => this.emit('printer', notice),
    });
  }

  // ── lifecycle ────────────────────────────────────────────────────────────────────────────

  /** Resolves interrupted jobs to 'unknown', then starts printing what is queued. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    for (const job of this.store.interruptedJobs())
      this.emitJob(
        this.store.change(job.id, {
          state: 'unknown',
          lastError: `${INTERRUPTED} ${checkThePrinter(job.kind)}`,
          lastErrorCode: 'interrupted',
        }),
      );
    this.pump();
  }

  /** Stops taking new jobs and cancels what is in flight; resolves when every worker is done. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    for (const wake of this.wakers.values()) wake();
    await Promise.allSettled([...this.workers.values()]);
    await this.sender.closeDrivers();
  }

  // ── adding jobs ──────────────────────────────────────────────────────────────────────────

  /** Queues bytes for a printer; ZPL is checked against the printer's resolution first. */
  enqueue(job: Omit<NewPrintJob, 'payload'> & { payload: Buffer | string }): EnqueueResult {
    const printer = this.printer(job.printerId);
    const payload =
      typeof job.payload === 'string' ? Buffer.from(job.payload, 'utf8') : job.payload;
    const warnings = this.check(printer, job.payload, job.kind);
    const driver = this.readyToSend(printer);
    const added = this.store.add({ ...job, payload }, driver !== null);
    this.emitJob(added);
    if (driver)
      this.track(printer.id, this.sender.sendOnceCommitted(added, printer, driver, payload));
    else this.pump();
    return { job: added, warnings };
  }

  /**
   * The fast way out for a job whose printer is idle, has nothing queued, and was asked how it
   * is moments ago (a label's printer is prepared while the label is bought): the job is stored
   * as its first attempt under way, in the caller's transaction, and its bytes leave as soon as
   * that transaction has committed, without the worker's round of reads and a second commit.
   * The rule stays: 'sending' is committed before the first byte.
   */
  private readyToSend(printer: PrinterConfig): Printer | null {
    if (!this.running || this.workers.has(printer.id) || this.store.head(printer.id)) return null;
    return this.sender.readyNow(printer);
  }

  /**
   * A label for this printer is on its way (being bought): its driver may open the connection
   * and ask the printer's status now, so the job goes out without waiting for either. The
   * promise (it never rejects) says when that is done.
   */
  prepare(printerId: string): Promise<void> {
    if (!this.running) return Promise.resolve();
    const config = this.options.printers().find((p) => p.id === printerId);
    return config ? this.sender.prepare(config) : Promise.resolve();
  }

  /** A test label on that printer (a short ESC/POS slip on a receipt printer), in one call. */
  printTest(printerId: string): EnqueueResult {
    const printer = this.printer(printerId);
    return this.enqueue({
      printerId,
      kind: 'test',
      payload: printer.role === 'receipt' ? testSlip(printer.name) : testLabel(printer),
      reason: 'test print',
    });
  }

  /** See PrinterDpis.answered: the printer's resolution, when asked ahead of this label. */
  dpiAnswered(printerId: string, ms: number): Promise<void> {
    return this.sender.dpis.answered(printerId, ms);
  }

  /** Asks the printer its resolution again before its next job (it was away, or a test page). */
  forgetReportedDpi(printerId: string): void {
    this.sender.dpis.forget(printerId);
  }

  /** The resolution the printer gave itself when asked before a job (null: not asked or not said). */
  reportedDpi(printerId: string): number | null {
    return this.sender.dpis.get(printerId);
  }

  /** The warnings `enqueue` would give, without queueing (for the UI before the packer confirms). */
  checkLabel(printerId: string, payload: Buffer | string): LabelWarning[] {
    const buf = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
    return this.check(this.printer(printerId), buf, 'label');
  }

  private check(printer: PrinterConfig, payload: Buffer | string, kind: NewPrintJob['kind']) {
    if (kind === 'slip' || printer.role === 'receipt') return [];
    // ZPL's commands are ASCII: a label's text as it came, or its bytes read as latin1.
    const zpl = typeof payload === 'string' ? payload : payload.toString('latin1');
    return checkLabelForPrinter(zpl, printer, {
      reportedDpi: this.sender.dpis.get(printer.id),
    });
  }

  // ── what a shift lead sees and does ──────────────────────────────────────────────────────

  list(filter?: {
    states?: readonly PrintJobState[];
    printerId?: string;
    limit?: number;
  }): PrintJob[] {
    return this.store.list(filter);
  }

  /** Jobs that need a person: 'unknown', 'failed', and queued jobs held up by a printer problem. */
  needsAttention(): PrintJob[] {
    return this.store
      .list({ states: ['unknown', 'failed', 'queued', 'sending'] })
      .filter((j) => j.state === 'unknown' || j.state === 'failed' || j.lastError !== null);
  }

  get(id: number): PrintJob | null {
    return this.store.get(id);
  }

  /** The label job already stored for a platform label id, if any (recovery after a crash). */
  labelJob(labelId: string): PrintJob | null {
    return this.store.labelJob(labelId);
  }

  pendingLabelJob(labelId: string): PrintJob | null {
    return this.store.pendingLabelJob(labelId);
  }

  /** Labels among these that have not come out, and why (see `PrintJobStore.printOutcomes`). */
  printOutcomes(labelIds: readonly string[]): Map<string, LabelPrintOutcome> {
    return this.store.printOutcomes(labelIds);
  }

  payload(id: number): Buffer | null {
    return this.store.payload(id);
  }

  history(id: number): PrintJobEvent[] {
    return this.store.events(id);
  }

  /** The last status each printer gave. */
  printerNotices(): PrinterNotice[] {
    return [...this.sender.notices.values()];
  }

  /**
   * Send again, now. For 'unknown' this is the person's decision that it did not print.
   * (Printing the same label once more on purpose is a reprint: a new job.)
   */
  retry(id: number, note = 'sent again by a shift lead'): PrintJob {
    this.transition(id, ['failed', 'unknown', 'queued'], 'retry', {
      state: 'queued',
      attempts: 0,
      nextAttemptAt: this.clock(),
      lastError: null,
      lastErrorCode: null,
      message: note,
    });
    this.pump(true);
    return this.store.get(id)!;
  }

  /** Sends it to another printer instead (same bytes); returns the size warnings for that one. */
  move(id: number, printerId: string, note?: string): EnqueueResult {
    const target = this.printer(printerId);
    // A 4x6 ZPL label on a receipt printer comes out as text or not at all, and would be
    // counted as printed: refused, as a packing slip on a label printer is.
    const current = this.store.get(id);
    if (current) {
      const from = this.options.printers().find((p) => p.id === current.printerId);
      const wants =
        current.kind === 'slip'
          ? 'receipt'
          : current.kind === 'test'
            ? (from?.role ?? 'label')
            : 'label';
      if ((target.role ?? 'label') !== wants)
        throw new PrintSpoolError(
          'wrong-printer-role',
          wants === 'label'
            ? `${target.name} is a receipt printer: a shipping label cannot print on it. Move the job to a label printer.`
            : `${target.name} is a label printer: a packing slip or receipt cannot print on it. Move the job to a receipt printer.`,
        );
    }
    const job = this.transition(id, ['queued', 'failed', 'unknown'], 'move', {
      state: 'queued',
      printerId,
      attempts: 0,
      nextAttemptAt: this.clock(),
      lastError: null,
      lastErrorCode: null,
      message: note ?? `moved to ${describePrinter(target)}`,
    });
    this.pump(true);
    return { job, warnings: this.check(target, this.store.payload(id)!, job.kind) };
  }

  cancel(id: number, note = 'cancelled by a shift lead'): PrintJob {
    return this.transition(id, ['queued', 'failed', 'unknown'], 'cancel', {
      state: 'cancelled',
      message: note,
    });
  }

  /** For 'unknown': the person saw it come out. */
  markPrinted(id: number, note = 'marked printed by a shift lead'): PrintJob {
    return this.transition(id, ['unknown', 'failed'], 'mark printed', {
      state: 'printed',
      printedAt: new Date(this.clock()).toISOString(),
      message: note,
    });
  }

  private transition(id: number, from: PrintJobState[], what: string, change: JobChange): PrintJob {
    // Checked and written in one transaction, so a worker cannot pick the job up in between.
    const job = inTransaction(this.options.db, () => {
      const current = this.store.get(id);
      if (!current) throw new PrintSpoolError('job-not-found', `Print job ${id} does not exist`);
      if (!from.includes(current.state))
        throw new PrintSpoolError(
          'job-state-conflict',
          current.state === 'sending'
            ? `Print job ${id} is being sent to the printer right now; wait for it to finish`
            : `Print job ${id} is ${current.state}; cannot ${what} it`,
        );
      return this.store.change(id, change);
    });
    this.emitJob(job);
    return job;
  }

  /** A printer's name as the station shows it ("Dock ZD421"); its id when it is not set up. */
  printerName(id: string): string {
    const config = this.options.printers().find((p) => p.id === id);
    return (config ?? this.options.otherPrinter?.(id))?.name ?? id;
  }

  private printer(id: string): PrinterConfig {
    const config =
      this.options.printers().find((p) => p.id === id) ?? this.options.otherPrinter?.(id);
    if (!config)
      throw new PrintSpoolError(
        'printer-not-found',
        `No printer "${id}" is set up at this station`,
      );
    return config;
  }

  // ── the workers: one per printer, jobs in order ──────────────────────────────────────────

  private pump(wake = false) {
    if (!this.running) return;
    for (const printerId of this.store.printersWithQueuedJobs()) {
      if (this.workers.has(printerId)) {
        if (wake) this.wakers.get(printerId)?.();
        continue;
      }
      this.track(printerId, this.work(printerId));
    }
  }

  /** The printer's one worker at a time; when it ends, the next queued job gets one. */
  private track(printerId: string, work: Promise<void>): void {
    const worker = work.finally(() => {
      this.workers.delete(printerId);
      // A job may have arrived while this worker was finishing.
      if (this.running && this.store.head(printerId)) this.pump();
    });
    this.workers.set(printerId, worker);
  }

  private sleep(printerId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.set(printerId, () => {
        this.wakers.delete(printerId);
        done();
      });
    });
  }

  private async work(printerId: string): Promise<void> {
    while (this.running) {
      const job = this.store.head(printerId);
      if (!job) return;
      const wait = job.nextAttemptAt - this.clock();
      if (wait > 0) {
        await this.sleep(printerId, wait);
        continue;
      }
      await this.sender.attempt(job);
    }
  }

  private emitJob(job: PrintJob) {
    this.emit('job', job);
  }
}

/** What a receipt printer prints for "Test print": ESC/POS, since ZPL would come out as text. */
function testSlip(printerName: string): Buffer {
  return renderPackingSlip({
    orderNumber: 'TEST',
    items: [{ sku: 'TEST', name: `Test print: ${printerName}`, quantity: 1 }],
    packedAt: new Date(),
  });
}
