import type { Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';

export type QueueEntryState = 'waiting' | 'done' | 'failed' | 'needs-attention';

export interface QueueEntry {
  id: number;
  shipmentId: number;
  tenantId: string;
  state: QueueEntryState;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A queue entry still to deal with, with the order it ships (what the Queue page lists). */
export interface PendingQueueEntry extends QueueEntry {
  state: Exclude<QueueEntryState, 'done'>;
  /** The order's number; the shipment id when the order is gone. */
  orderNumber: string;
}

export interface QueueCounts {
  waiting: number;
  failed: number;
  needsAttention: number;
  done: number;
}

interface Row {
  id: number;
  profile_id: string;
  environment: string;
  shipment_id: number;
  tenant_id: string;
  state: QueueEntryState;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * What the Queue page lists (and the header counts): entries not done whose shipment was not
 * cancelled meanwhile; a failed one only while its order has no label (scanned again and bought
 * since: over); one that needs attention only while its purchase waits for the shift lead's
 * decision (a decision closes it; an entry left open by a station before that, 2026-11-29, is
 * over all the same).
 */
const PENDING = `FROM offline_queue q
   LEFT JOIN shipments s ON s.id = q.shipment_id
   LEFT JOIN orders o ON o.id = s.order_id
 WHERE q.profile_id = ? AND q.environment = ? AND q.state <> 'done'
   AND (s.state IS NULL OR s.state <> 'cancelled')
   AND NOT (q.state = 'failed' AND EXISTS (SELECT 1 FROM labels l WHERE l.order_id = s.order_id))
   AND (q.state <> 'needs-attention' OR s.state IN ('unknown', 'purchasing'))`;

/** Shipments waiting for the platform, in the order they were packed. */
export class OfflineQueueRepository {
  private readonly s;

  constructor(
    db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO offline_queue (shipment_id, profile_id, environment, tenant_id, state, next_attempt_at, last_error, created_at, updated_at)
         VALUES (@shipmentId, @profileId, @environment, @tenantId, 'waiting', @next, @lastError, @now, @now)`,
      ),
      head: db.prepare<[string, string], Row>(
        `SELECT * FROM offline_queue WHERE profile_id = ? AND environment = ? AND state = 'waiting' ORDER BY id LIMIT 1`,
      ),
      get: db.prepare<[number], Row>(`SELECT * FROM offline_queue WHERE id = ?`),
      byShipment: db.prepare<[number], Row>(`SELECT * FROM offline_queue WHERE shipment_id = ?`),
      list: db.prepare<[string, string, number], Row>(
        `SELECT * FROM offline_queue WHERE profile_id = ? AND environment = ? ORDER BY id DESC LIMIT ?`,
      ),
      // Entries not done whose shipment was not cancelled meanwhile (nor failed with its order
      // labelled since), newest first, with the order's number: one query, not one look-up per row.
      pending: db.prepare<[string, string, number], Row & { order_number: string | null }>(
        `SELECT q.*, o.order_number ${PENDING} ORDER BY q.id DESC LIMIT ?`,
      ),
      pendingCount: db.prepare<[string, string], { n: number }>(`SELECT count(*) AS n ${PENDING}`),
      counts: db.prepare<[string, string], { state: QueueEntryState; n: number }>(
        `SELECT state, count(*) AS n FROM offline_queue WHERE profile_id = ? AND environment = ? GROUP BY state`,
      ),
      retryLater: db.prepare(
        `UPDATE offline_queue SET attempts = attempts + 1, next_attempt_at = @next, last_error = @error, updated_at = @now WHERE id = @id`,
      ),
      requeue: db.prepare(
        `UPDATE offline_queue SET state = 'waiting', next_attempt_at = @now, last_error = @note, updated_at = @now
          WHERE id = @id AND state = 'failed'`,
      ),
      finish: db.prepare(
        `UPDATE offline_queue SET state = @state, attempts = attempts + 1, last_error = @error, updated_at = @now WHERE id = @id`,
      ),
      // A person decided (no attempt of the queue's): the entry is over, with who and what.
      decided: db.prepare(
        `UPDATE offline_queue SET state = @state, last_error = @note, updated_at = @now
          WHERE shipment_id = @shipmentId AND state = @from`,
      ),
    };
  }

  /** `waitMs`: not tried before then (the platform's Retry-After); at once otherwise. */
  add(
    scope: StationScope,
    shipmentId: number,
    tenantId: string,
    reason: string,
    waitMs = 0,
  ): number {
    const now = this.clock();
    return Number(
      this.s.insert.run({
        shipmentId,
        tenantId,
        profileId: scope.profileId,
        environment: scope.environment,
        lastError: reason,
        now: now.toISOString(),
        next: new Date(now.getTime() + waitMs).toISOString(),
      }).lastInsertRowid,
    );
  }

  /** The oldest waiting entry: the queue drains strictly in order. */
  head(scope: StationScope): QueueEntry | undefined {
    const row = this.s.head.get(scope.profileId, scope.environment);
    return row ? toEntry(row) : undefined;
  }

  get(id: number): QueueEntry | undefined {
    const row = this.s.get.get(id);
    return row ? toEntry(row) : undefined;
  }

  /** An entry of this profile and environment; another's id is not found. */
  getInScope(scope: StationScope, id: number): QueueEntry | undefined {
    const row = this.s.get.get(id);
    return row && row.profile_id === scope.profileId && row.environment === scope.environment
      ? toEntry(row)
      : undefined;
  }

  forShipment(shipmentId: number): QueueEntry | undefined {
    const row = this.s.byShipment.get(shipmentId);
    return row ? toEntry(row) : undefined;
  }

  list(scope: StationScope, limit = 100): QueueEntry[] {
    return this.s.list.all(scope.profileId, scope.environment, limit).map(toEntry);
  }

  /** What is still to deal with (not done, shipment not cancelled), newest first. */
  pending(scope: StationScope, limit = 200): PendingQueueEntry[] {
    return this.s.pending.all(scope.profileId, scope.environment, limit).map((row) => ({
      ...toEntry(row),
      // PENDING leaves done entries out.
      state: row.state as Exclude<QueueEntryState, 'done'>,
      orderNumber: row.order_number ?? String(row.shipment_id),
    }));
  }

  /** How many entries the Queue page lists (all of them, not only the newest 200). */
  pendingCount(scope: StationScope): number {
    return this.s.pendingCount.get(scope.profileId, scope.environment)?.n ?? 0;
  }

  counts(scope: StationScope): QueueCounts {
    const counts: QueueCounts = { waiting: 0, failed: 0, needsAttention: 0, done: 0 };
    for (const { state, n } of this.s.counts.all(scope.profileId, scope.environment)) {
      switch (state) {
        case 'waiting':
          counts.waiting = n;
          break;
        case 'failed':
          counts.failed = n;
          break;
        case 'needs-attention':
          counts.needsAttention = n;
          break;
        case 'done':
          counts.done = n;
          break;
        default: {
          const never: never = state;
          throw new Error(`unknown queue state ${String(never)}`);
        }
      }
    }
    return counts;
  }

  retryLater(id: number, next: Date, error: string): void {
    this.s.retryLater.run({
      id,
      next: next.toISOString(),
      error,
      now: this.clock().toISOString(),
    });
  }

  /** A failed entry waits again, due now (a person pressed Retry now); false if it was not failed. */
  requeue(id: number, note: string): boolean {
    return this.s.requeue.run({ id, note, now: this.clock().toISOString() }).changes === 1;
  }

  finish(id: number, state: Exclude<QueueEntryState, 'waiting'>, error: string | null): void {
    this.s.finish.run({ id, state, error, now: this.clock().toISOString() });
  }

  /**
   * A person's decision ends the shipment's entry in state `from` (no attempt counted): `done`
   * once its label is found, `failed` once released as not bought or taken off the Queue.
   */
  decided(
    shipmentId: number,
    from: Exclude<QueueEntryState, 'done'>,
    state: 'done' | 'failed',
    note: string,
  ): void {
    this.s.decided.run({ shipmentId, from, state, note, now: this.clock().toISOString() });
  }
}

function toEntry(row: Row): QueueEntry {
  return {
    id: row.id,
    shipmentId: row.shipment_id,
    tenantId: row.tenant_id,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
