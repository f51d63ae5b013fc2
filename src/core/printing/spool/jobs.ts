import type Database from 'better-sqlite3';
import { inTransaction } from '../../storage/database.js';
import { describePrinter, type PrinterConfig } from '../types.js';

export type PrintJobKind = 'label' | 'test' | 'slip' | 'reprint';

/**
 * queued → sending → printed | failed. 'unknown': the label may or may not have come out (the
 * line broke after the last byte, or the station stopped while sending); never resent by the
 * spool, a person decides. 'cancelled': a shift lead took it out of the queue.
 */
export type PrintJobState = 'queued' | 'sending' | 'printed' | 'failed' | 'unknown' | 'cancelled';

export interface PrintJob {
  id: number;
  printerId: string;
  kind: PrintJobKind;
  state: PrintJobState;
  labelId: string | null;
  orderReference: string | null;
  /** Why it was printed (reprints) or what a shift lead said. */
  reason: string | null;
  attempts: number;
  lastError: string | null;
  lastErrorCode: string | null;
  /** Epoch ms; a queued job waits until then. */
  nextAttemptAt: number;
  createdAt: string;
  updatedAt: string;
  printedAt: string | null;
  payloadBytes: number;
}

export interface PrintJobEvent {
  at: string;
  state: PrintJobState;
  message: string | null;
}

interface Row {
  id: number;
  printer_id: string;
  kind: PrintJobKind;
  state: PrintJobState;
  label_id: string | null;
  order_reference: string | null;
  reason: string | null;
  attempts: number;
  last_error: string | null;
  last_error_code: string | null;
  next_attempt_at: number;
  created_at: string;
  updated_at: string;
  printed_at: string | null;
  payload_bytes: number;
}

const COLUMNS = `id, printer_id, kind, state, label_id, order_reference, reason, attempts, last_error,
  last_error_code, next_attempt_at, created_at, updated_at, printed_at, length(payload) AS payload_bytes`;

const toJob = (r: Row): PrintJob => ({
  id: r.id,
  printerId: r.printer_id,
  kind: r.kind,
  state: r.state,
  labelId: r.label_id,
  orderReference: r.order_reference,
  reason: r.reason,
  attempts: r.attempts,
  lastError: r.last_error,
  lastErrorCode: r.last_error_code,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  printedAt: r.printed_at,
  payloadBytes: r.payload_bytes,
});

/** Why a label has not come out (see `PrintJobStore.printOutcomes`). */
export interface LabelPrintOutcome {
  state: 'waiting' | 'failed' | 'cancelled';
  /** When its job last changed. */
  at: string;
  /** The job's last event ("cancelled by ana"). */
  note: string | null;
}

export interface NewPrintJob {
  printerId: string;
  kind: PrintJobKind;
  payload: Buffer;
  labelId?: string | null;
  orderReference?: string | null;
  reason?: string | null;
}

export interface JobChange {
  state: PrintJobState;
  attempts?: number;
  lastError?: string | null;
  lastErrorCode?: string | null;
  nextAttemptAt?: number;
  printerId?: string;
  printedAt?: string | null;
  /** Written to print_job_events. */
  message?: string | null;
}

/** The spool's SQL, prepared once. Every change is one transaction with its event row. */
export class PrintJobStore {
  private readonly insert;
  private readonly insertEvent;
  private readonly update;
  private readonly byId;
  private readonly payloadById;
  private readonly headOf;
  private readonly printersWithQueued;
  private readonly interrupted;
  private readonly eventsOf;
  private readonly listFiltered;
  private readonly labelJobOf;
  private readonly pendingOf;
  private readonly outcomesOf;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number,
  ) {
    this.insert = db.prepare(`INSERT INTO print_jobs
      (printer_id, kind, state, payload, label_id, order_reference, reason, next_attempt_at, created_at, updated_at)
      VALUES (@printerId, @kind, 'queued', @payload, @labelId, @orderReference, @reason, @now, @at, @at)`);
    this.insertEvent = db.prepare(
      'INSERT INTO print_job_events (job_id, at, state, message) VALUES (?, ?, ?, ?)',
    );
    this.update = db.prepare(`UPDATE print_jobs SET state = @state,
      attempts = coalesce(@attempts, attempts),
      last_error = CASE WHEN @setError THEN @lastError ELSE last_error END,
      last_error_code = CASE WHEN @setError THEN @lastErrorCode ELSE last_error_code END,
      next_attempt_at = coalesce(@nextAttemptAt, next_attempt_at),
      printer_id = coalesce(@printerId, printer_id),
      printed_at = CASE WHEN @setPrinted THEN @printedAt ELSE printed_at END,
      -- Printed and cancelled are final (a reprint is a new job), so their bytes are dropped:
      -- the label cache keeps the one copy of a label's ZPL, and its retention setting is the
      -- only thing that decides how long ZPL is kept. The row stays as the record.
      payload = CASE WHEN @state IN ('printed', 'cancelled') THEN x'' ELSE payload END,
      updated_at = @at
      WHERE id = @id`);
    this.byId = db.prepare(`SELECT ${COLUMNS} FROM print_jobs WHERE id = ?`);
    this.payloadById = db.prepare('SELECT payload FROM print_jobs WHERE id = ?').pluck();
    this.headOf = db.prepare(
      `SELECT ${COLUMNS} FROM print_jobs WHERE state = 'queued' AND printer_id = ? ORDER BY id LIMIT 1`,
    );
    this.printersWithQueued = db
      .prepare(`SELECT DISTINCT printer_id FROM print_jobs WHERE state = 'queued'`)
      .pluck();
    this.interrupted = db.prepare(
      `SELECT ${COLUMNS} FROM print_jobs WHERE state = 'sending' ORDER BY id`,
    );
    this.eventsOf = db.prepare(
      'SELECT at, state, message FROM print_job_events WHERE job_id = ? ORDER BY id',
    );
    this.labelJobOf = db.prepare(
      `SELECT ${COLUMNS} FROM print_jobs WHERE label_id = ? AND kind = 'label' ORDER BY id LIMIT 1`,
    );
    this.pendingOf = db.prepare(
      `SELECT ${COLUMNS} FROM print_jobs WHERE label_id = ? AND state IN ('queued', 'sending')
       ORDER BY id DESC LIMIT 1`,
    );
    this.outcomesOf = db.prepare(
      `SELECT j.label_id AS labelId, j.state, j.updated_at AS at,
         (SELECT message FROM print_job_events e WHERE e.job_id = j.id ORDER BY e.id DESC LIMIT 1) AS note
       FROM print_jobs j
       WHERE j.label_id IN (SELECT value FROM json_each(?)) AND j.kind IN ('label', 'reprint')
       ORDER BY j.id`,
    );
    this.listFiltered = db.prepare(`SELECT ${COLUMNS} FROM print_jobs
      WHERE (@states IS NULL OR state IN (SELECT value FROM json_each(@states)))
        AND (@printerId IS NULL OR printer_id = @printerId)
      ORDER BY id DESC LIMIT @limit`);
  }

  private isoNow() {
    return new Date(this.clock()).toISOString();
  }

  /**
   * `sending`: stored as its first attempt already under way (the spool sends it at once, see
   * PrintSpool.enqueue), with the same two events a queued job gets on its way out.
   */
  add(job: NewPrintJob, sending = false): PrintJob {
    const at = this.isoNow();
    const id = inTransaction(this.db, () => {
      const { lastInsertRowid } = this.insert.run({
        printerId: job.printerId,
        kind: job.kind,
        payload: job.payload,
        labelId: job.labelId ?? null,
        orderReference: job.orderReference ?? null,
        reason: job.reason ?? null,
        now: this.clock(),
        at,
      });
      this.insertEvent.run(lastInsertRowid, at, 'queued', job.reason ?? null);
      if (sending) {
        this.update.run({
          id: lastInsertRowid,
          at,
          state: 'sending',
          attempts: 1,
          setError: 0,
          lastError: null,
          lastErrorCode: null,
          nextAttemptAt: null,
          printerId: null,
          setPrinted: 0,
          printedAt: null,
        });
        this.insertEvent.run(lastInsertRowid, at, 'sending', 'attempt 1');
      }
      return Number(lastInsertRowid);
    });
    return this.get(id)!;
  }

  change(id: number, change: JobChange): PrintJob {
    const at = this.isoNow();
    inTransaction(this.db, () => {
      this.update.run({
        id,
        at,
        state: change.state,
        attempts: change.attempts ?? null,
        setError: change.lastError !== undefined ? 1 : 0,
        lastError: change.lastError ?? null,
        lastErrorCode: change.lastErrorCode ?? null,
        nextAttemptAt: change.nextAttemptAt ?? null,
        printerId: change.printerId ?? null,
        setPrinted: change.printedAt !== undefined ? 1 : 0,
        printedAt: change.printedAt ?? null,
      });
      this.insertEvent.run(id, at, change.state, change.message ?? change.lastError ?? null);
    });
    return this.get(id)!;
  }

  get(id: number): PrintJob | null {
    const row = this.byId.get(id) as Row | undefined;
    return row ? toJob(row) : null;
  }

  payload(id: number): Buffer | null {
    return (this.payloadById.get(id) as Buffer | undefined) ?? null;
  }

  /** The oldest queued job for a printer: jobs come out in the order they were queued. */
  head(printerId: string): PrintJob | null {
    const row = this.headOf.get(printerId) as Row | undefined;
    return row ? toJob(row) : null;
  }

  printersWithQueuedJobs(): string[] {
    return this.printersWithQueued.all() as string[];
  }

  /** The first 'label' job stored for a platform label id (reprints are kind 'reprint'). */
  labelJob(labelId: string): PrintJob | null {
    const row = this.labelJobOf.get(labelId) as Row | undefined;
    return row ? toJob(row) : null;
  }

  /** The newest job of this label (its own or a reprint) still waiting or being sent. */
  pendingLabelJob(labelId: string): PrintJob | null {
    const row = this.pendingOf.get(labelId) as Row | undefined;
    return row ? toJob(row) : null;
  }

  /**
   * How each label's printing stands, for labels whose jobs have not all printed: 'waiting' while
   * a job of it (its own or a reprint) is queued or being sent, 'failed' while one failed or may
   * not have printed (Needs attention has it), 'cancelled' when its newest job was cancelled and
   * none printed. A label that printed once, or has no job here, is not in the map.
   */
  printOutcomes(labelIds: readonly string[]): Map<string, LabelPrintOutcome> {
    const out = new Map<string, LabelPrintOutcome>();
    if (labelIds.length === 0) return out;
    const printed = new Set<string>();
    const rank = { waiting: 3, failed: 2, cancelled: 1 } as const;
    const rows = this.outcomesOf.all(JSON.stringify(labelIds)) as {
      labelId: string;
      state: PrintJobState;
      at: string;
      note: string | null;
    }[];
    for (const r of rows) {
      if (r.state === 'printed') {
        printed.add(r.labelId);
        continue;
      }
      const state =
        r.state === 'cancelled'
          ? 'cancelled'
          : r.state === 'queued' || r.state === 'sending'
            ? 'waiting'
            : 'failed';
      const seen = out.get(r.labelId);
      // Rows come oldest first: a later job of the same rank replaces an earlier one.
      if (!seen || rank[state] >= rank[seen.state])
        out.set(r.labelId, { state, at: r.at, note: r.note });
    }
    for (const id of printed) out.delete(id);
    return out;
  }

  /** Jobs left in 'sending' by a previous run (a crash or kill -9 mid-send). */
  interruptedJobs(): PrintJob[] {
    return (this.interrupted.all() as Row[]).map(toJob);
  }

  events(id: number): PrintJobEvent[] {
    return this.eventsOf.all(id) as PrintJobEvent[];
  }

  /** Newest first, optionally only some states and/or one printer. */
  list(filter: { states?: readonly PrintJobState[]; printerId?: string; limit?: number } = {}) {
    const rows = this.listFiltered.all({
      states: filter.states?.length ? JSON.stringify(filter.states) : null,
      printerId: filter.printerId ?? null,
      limit: filter.limit ?? 200,
    }) as Row[];
    return rows.map(toJob);
  }
}

/**
 * What a person does with a job that may or may not have printed: a label is marked printed or
 * sent again (Needs attention, Queue); a test page is only looked at, never sent again (its
 * outcome is said in Settings, where it was asked for).
 */
export function checkThePrinter(kind: PrintJobKind): string {
  return kind === 'test'
    ? 'Look at the printer: a test page is not sent again; if it did not come out, put it right and try again.'
    : 'Check the printer: mark it printed, or send it again.';
}

/**
 * A label the printer has kept in its buffer for longer than `afterMs` with no fault: it is not
 * sent again, and a person is told where it is.
 */
export function heldWords(config: PrinterConfig, afterMs: number): string {
  return `Printer ${describePrinter(config)} has kept this label in its buffer for more than ${Math.round(afterMs / 1000)} s without printing it and without a fault: if it peels labels, take the label off; otherwise check it (paused from its own panel, or stuck). It prints when the printer lets it go and is not sent again.`;
}
