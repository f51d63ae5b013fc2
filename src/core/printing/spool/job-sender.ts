import { checkThePrinter, heldWords, type PrintJobStore, type PrintJob } from './jobs.js';
import type { PrinterNotice, PrintSpoolOptions } from './spool-types.js';
import {
  describePrinter,
  PrinterError,
  type Printer,
  type PrinterConfig,
  type PrinterStatus,
} from '../types.js';
import { describeStatus } from '../zebra-status.js';
import { PrinterDpis } from './printer-dpi.js';

/** What the sender needs from the spool that owns it. */
export interface SenderContext {
  store: PrintJobStore;
  options: PrintSpoolOptions;
  clock: () => number;
  isRunning(): boolean;
  signal(): AbortSignal;
  sleep(printerId: string, ms: number): Promise<void>;
  emitJob(job: PrintJob): void;
  emitNotice(notice: PrinterNotice): void;
}

/** Labels dropped mid-send in a row before the job says the printer drops each label. */
const DROPS_SAID = 3;
/** ... and before it is left for a person (Needs attention) instead of sent again. */
const DROPS_GIVEN_UP = 6;

/**
 * Sends one job to its printer and follows it to printed / unknown / back to queued. The rules
 * that make the spool exactly-once live here (see PrintSpool).
 */
export class JobSender {
  private readonly drivers = new Map<
    string,
    { config: PrinterConfig; key: string; driver: Printer }
  >();
  readonly notices = new Map<string, PrinterNotice>();
  /** Jobs whose printer dropped the line while their label came in, how many times in a row. */
  private readonly drops = new Map<number, number>();
  /** What each printer said its resolution is (see PrinterDpis). */
  readonly dpis = new PrinterDpis();

  constructor(private readonly ctx: SenderContext) {}

  async closeDrivers(): Promise<void> {
    const drivers = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.allSettled(drivers.map(({ driver }) => driver.close()));
  }

  /** A label for this printer is being bought: let its driver get the connection ready. */
  prepare(config: PrinterConfig): Promise<void> {
    let driver: Printer;
    try {
      driver = this.driver(config);
    } catch {
      // A printer that cannot be set up says so when its job is sent.
      return Promise.resolve();
    }
    // Its resolution not known (first label of the run, or the printer was away and may be
    // another one now): asked while the platform answers, so the label's check (and its
    // warning on the result panel) uses the printer's own word, not the profile's.
    return Promise.all([driver.prepare?.(), this.dpis.askAhead(config.id, driver)]).then(
      () => undefined,
    );
  }

  /**
   * For a job about to be stored: the printer's driver when the check before sending is
   * already answered (a fresh status read ahead of it, no fault, its resolution known) so the
   * job may be stored as being sent and go out at once; null when the usual way must be taken.
   */
  readyNow(config: PrinterConfig): Printer | null {
    let driver: Printer;
    try {
      driver = this.driver(config);
    } catch {
      return null;
    }
    if (driver.readDpi && !this.dpis.known(config.id)) return null;
    const status = driver.statusAtHand?.();
    if (status === undefined) return null;
    const fault = status ? describeStatus(config, status) : null;
    this.notice(config, status, fault);
    return fault ? null : driver;
  }

  private driver(config: PrinterConfig): Printer {
    const cached = this.drivers.get(config.id);
    // The same settings object as last time (the profile unchanged): no need to compare them.
    if (cached?.config === config) return cached.driver;
    const key = JSON.stringify(config);
    if (cached?.key === key) {
      cached.config = config;
      return cached.driver;
    }
    if (cached) void cached.driver.close();
    this.dpis.forget(config.id);
    const driver = this.ctx.options.createDriver(config);
    this.drivers.set(config.id, { config, key, driver });
    return driver;
  }

  private notice(config: PrinterConfig, status: PrinterStatus | null, message: string | null) {
    const notice: PrinterNotice = { printerId: config.id, status, message };
    const before = this.notices.get(config.id);
    this.notices.set(config.id, notice);
    if (before?.message !== message || before?.status?.ready !== status?.ready)
      this.ctx.emitNotice(notice);
  }

  private backoffMs(attempts: number): number {
    const base = this.ctx.options.backoff?.baseMs ?? 1000;
    const max = this.ctx.options.backoff?.maxMs ?? 30_000;
    return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
  }

  async attempt(job: PrintJob): Promise<void> {
    const config =
      this.ctx.options.printers().find((p) => p.id === job.printerId) ??
      this.ctx.options.otherPrinter?.(job.printerId);
    if (!config) {
      this.ctx.emitJob(
        this.ctx.store.change(job.id, {
          state: 'failed',
          lastError: `Printer "${job.printerId}" is not set up at this station any more; move the job to another printer`,
          lastErrorCode: 'printer-not-found',
        }),
      );
      return;
    }
    let driver: Printer;
    try {
      driver = this.driver(config);
    } catch (error) {
      this.ctx.emitJob(
        this.ctx.store.change(job.id, {
          state: 'failed',
          lastError: (error as Error).message,
          lastErrorCode: error instanceof PrinterError ? error.code : 'printer-config-invalid',
        }),
      );
      return;
    }
    const signal = this.ctx.signal();

    // 1. Is the printer there and able to print? A fault is waited out without using attempts.
    let before: PrinterStatus | null;
    try {
      before = await driver.status({ signal, beforeSend: true });
    } catch (error) {
      if (signal.aborted || !this.untouched(job)) return;
      // Away: what comes back at this address may be another printer (a 300-dpi swap).
      this.dpis.forget(config.id);
      this.notice(config, null, (error as Error).message);
      this.failedAttempt(job, job.attempts + 1, error as Error);
      return;
    }
    const fault = before ? describeStatus(config, before) : null;
    this.notice(config, before, fault);
    if (!this.ctx.isRunning() || !this.untouched(job)) return;
    if (fault) {
      if (job.lastError !== fault)
        this.ctx.emitJob(
          this.ctx.store.change(job.id, {
            state: 'queued',
            lastError: fault,
            lastErrorCode: 'printer-fault',
          }),
        );
      await this.ctx.sleep(config.id, this.ctx.options.faultPollMs ?? 2000);
      return;
    }

    // Once per printer: its own word on its resolution beats the profile for later checks.
    if (driver.readDpi && !this.dpis.known(config.id)) {
      this.dpis.remember(config.id, await driver.readDpi({ signal }).catch(() => null));
      if (!this.ctx.isRunning() || !this.untouched(job)) return;
    }

    // 2. Committed before the first byte leaves: a crash from here on means "unknown".
    const attempts = job.attempts + 1;
    this.ctx.emitJob(
      this.ctx.store.change(job.id, { state: 'sending', attempts, message: `attempt ${attempts}` }),
    );
    await this.sendAndConfirm(job, config, driver, this.ctx.store.payload(job.id)!, attempts);
  }

  /**
   * The direct way out (PrintSpool.enqueue): `job` was stored as its first attempt under way
   * inside the caller's transaction; its bytes leave once that transaction has committed. A
   * job whose transaction was rolled back (its row gone, or its id given to another job
   * meanwhile) sends nothing; a spool stopped before the first byte leaves it queued, as a
   * worker would.
   */
  async sendOnceCommitted(
    job: PrintJob,
    config: PrinterConfig,
    driver: Printer,
    payload: Buffer,
  ): Promise<void> {
    const db = this.ctx.options.db;
    // Microtasks run once the caller's synchronous transaction has committed or rolled back.
    await Promise.resolve();
    while (db.inTransaction) await new Promise((resolve) => setImmediate(resolve));
    const stored = this.ctx.store.get(job.id);
    if (
      stored?.state !== 'sending' ||
      stored.updatedAt !== job.updatedAt ||
      stored.createdAt !== job.createdAt ||
      stored.printerId !== job.printerId ||
      stored.kind !== job.kind ||
      stored.labelId !== job.labelId
    )
      return;
    if (!this.ctx.isRunning() || this.ctx.signal().aborted) {
      const change = { state: 'queued' as const, attempts: 0, message: 'stopped before sending' };
      this.ctx.emitJob(this.ctx.store.change(job.id, change));
      return;
    }
    await this.sendAndConfirm({ ...job, state: 'queued', attempts: 0 }, config, driver, payload, 1);
  }

  /**
   * 3. The bytes of a job committed as 'sending' (attempt `attempts`), then the printer's word
   * that it printed. `job` is the job as it was before this attempt.
   */
  async sendAndConfirm(
    job: PrintJob,
    config: PrinterConfig,
    driver: Printer,
    payload: Buffer,
    attempts: number,
  ): Promise<void> {
    const signal = this.ctx.signal();
    try {
      await driver.send(payload, { signal });
    } catch (error) {
      const mayHavePrinted = !(error instanceof PrinterError) || error.mayHavePrinted;
      if (mayHavePrinted) {
        this.ctx.emitJob(
          this.ctx.store.change(job.id, {
            state: 'unknown',
            lastError: `${(error as Error).message}. ${checkThePrinter(job.kind)}`,
            lastErrorCode: error instanceof PrinterError ? error.code : 'unexpected',
          }),
        );
      } else if (error instanceof PrinterError && error.code === 'aborted') {
        this.ctx.emitJob(
          this.ctx.store.change(job.id, {
            state: 'queued',
            attempts: job.attempts,
            message: 'stopped before sending',
          }),
        );
      } else {
        this.notice(config, null, (error as Error).message);
        this.failedAttempt(job, attempts, error as Error);
      }
      return;
    }

    // Sent whole. Printed once the printer says it is fine and has nothing left to print.
    this.drops.delete(job.id);
    await this.confirm(job, config, driver);
  }

  private async confirm(job: PrintJob, config: PrinterConfig, driver: Printer): Promise<void> {
    const signal = this.ctx.signal();
    const unknown = (why: string, code: string) =>
      this.ctx.emitJob(
        this.ctx.store.change(job.id, {
          state: 'unknown',
          lastError: `${why}; it may or may not have printed. ${checkThePrinter(job.kind)}`,
          lastErrorCode: code,
        }),
      );
    const stopped = 'The station stopped before the printer confirmed this label';
    const sentAt = this.ctx.clock();
    let lastFault: string | null = null;
    for (;;) {
      let after: PrinterStatus | null;
      try {
        after = await driver.status({ signal, keepOpen: true });
      } catch (error) {
        if (signal.aborted) return unknown(stopped, 'interrupted');
        this.notice(config, null, (error as Error).message);
        const why = `Printer ${describePrinter(config)} stopped answering after it received this label`;
        return unknown(why, 'printer-offline');
      }
      const fault = after ? describeStatus(config, after) : null;
      this.notice(config, after, fault);
      if (!after || (!fault && (after.formatsInBuffer ?? 0) === 0)) {
        this.ctx.emitJob(
          this.ctx.store.change(job.id, {
            state: 'printed',
            printedAt: new Date(this.ctx.clock()).toISOString(),
            lastError: null,
            lastErrorCode: null,
          }),
        );
        return;
      }
      // The label is in the printer and comes out when the fault is fixed, or (no fault) when the
      // printer lets it go: said once it holds it for long (a printer that peels labels waits
      // until the label is taken). Never sent again either way.
      const heldMs = this.ctx.options.heldSaidAfterMs ?? 30_000;
      const said =
        fault ?? (this.ctx.clock() - sentAt >= heldMs ? heldWords(config, heldMs) : null);
      if (said && said !== lastFault) {
        lastFault = said;
        this.ctx.emitJob(
          this.ctx.store.change(job.id, {
            state: 'sending',
            lastError: fault
              ? `${fault}; this label is waiting inside the printer and will print when that is fixed`
              : said,
            lastErrorCode: 'printer-fault',
          }),
        );
      }
      const pollMs = said
        ? (this.ctx.options.faultPollMs ?? 2000)
        : (this.ctx.options.printingPollMs ?? 250);
      await this.ctx.sleep(config.id, pollMs);
      if (signal.aborted) return unknown(stopped, 'interrupted');
    }
  }

  /** Nothing reached the printer: try again later, or give up (maxAttempts and giveUpAfterMs). */
  private failedAttempt(job: PrintJob, attempts: number, error: Error) {
    const code = error instanceof PrinterError ? error.code : 'unexpected';
    const waited = this.ctx.clock() - Date.parse(job.createdAt);
    if (job.kind === 'test') {
      // A test page says whether the printer works now: never printed by surprise later.
      this.ctx.emitJob(
        this.ctx.store.change(job.id, {
          state: 'failed',
          attempts,
          lastError: `${error.message.replace(/\.$/, '')}. The test page did not print and is not sent again; put it right and try again.`,
          lastErrorCode: code,
        }),
      );
      return;
    }
    // A printer that answers its status, then drops each label: said after a few in a row, and
    // left for a person after a few more (sending it for half an hour does not mend it).
    const dropped = code === 'printer-disconnected' || code === 'printer-timeout';
    const drops = dropped ? (this.drops.get(job.id) ?? 0) + 1 : 0;
    if (dropped) this.drops.set(job.id, drops);
    else this.drops.delete(job.id);
    if (drops >= DROPS_SAID) {
      const given = drops >= DROPS_GIVEN_UP;
      if (given) this.drops.delete(job.id);
      this.ctx.emitJob(
        this.ctx.store.change(job.id, {
          state: given ? 'failed' : 'queued',
          attempts,
          lastError: `${error.message}, ${drops} times in a row: it answers, but does not take the label (another program connected to it, or a label it refuses). ${given ? 'Not sent again by itself: check the printer and send it again, or move the job to another printer.' : 'Check the printer, or move the job to another printer (Queue → Move to…).'}`,
          lastErrorCode: code,
          ...(given ? {} : { nextAttemptAt: this.ctx.clock() + this.backoffMs(attempts) }),
        }),
      );
      return;
    }
    if (
      attempts >= (this.ctx.options.maxAttempts ?? 20) &&
      waited >= (this.ctx.options.giveUpAfterMs ?? 30 * 60_000)
    ) {
      this.ctx.emitJob(
        this.ctx.store.change(job.id, {
          state: 'failed',
          attempts,
          lastError: `${error.message}. Gave up after ${attempts} attempts; send it again when the printer is back.`,
          lastErrorCode: code,
        }),
      );
      return;
    }
    this.ctx.emitJob(
      this.ctx.store.change(job.id, {
        state: 'queued',
        attempts,
        lastError: error.message,
        lastErrorCode: code,
        nextAttemptAt: this.ctx.clock() + this.backoffMs(attempts),
      }),
    );
  }

  /** False when a shift lead cancelled or moved the job while the printer was being asked. */
  private untouched(job: PrintJob): boolean {
    const now = this.ctx.store.get(job.id);
    return (
      now?.state === 'queued' && now.printerId === job.printerId && now.updatedAt === job.updatedAt
    );
  }
}
