import type Database from 'better-sqlite3';
import type { Tracker } from '../platform/schemas.js';
import {
  UNKNOWN_STATUS,
  type TrackerChange,
  type TrackerRecord,
  type TrackingScope,
} from './types.js';

export interface TrackerSyncState {
  /** Newest updatedAt (epoch ms) seen in a complete pass; null before the first one. */
  watermarkMs: number | null;
  lastAttemptAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
}

interface TrackerRow {
  tracking_number: string;
  tracker_id: string | null;
  tenant_id: string;
  carrier: string | null;
  service_level: string | null;
  label_id: string | null;
  order_reference: string | null;
  status: string;
  status_detail: string | null;
  estimated_delivery_date: string | null;
  /** `[[status, description, location, occurredAt], …]` (migration 9). */
  events_json: string;
  created_at: string | null;
  updated_at_ms: number;
  first_seen_ms: number;
  last_changed_ms: number;
}

const scopeParams = (s: TrackingScope) => ({
  profile_id: s.profileId,
  environment: s.environment,
  scope_tenant_id: s.tenantId,
});

/** The trackers of one scope, in SQL: `scope_id = (…)` over the scope's three named parameters. */
export const TRACKER_SCOPE_ID = `scope_id = (SELECT id FROM tracker_scopes
  WHERE profile_id = @profile_id AND environment = @environment
    AND scope_tenant_id = @scope_tenant_id)`;

/** A time as `toISOString()` writes it (then kept as it came: 10,000 conversions cost 8 ms). */
const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Text that JSON writes as it is, between quotes (no quote, backslash, control or surrogate). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** One JSON value of an event's field: a few thousand per poll, most of them plain text. */
function jsonText(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

/** Only the fields the station keeps (unknown keys are dropped), as the arrays of migration 9. */
export function eventsJson(events: Tracker['events']): string {
  if (!events || events.length === 0) return '[]';
  let out = '[';
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (i > 0) out += ',';
    out += `[${jsonText(e.status)},${jsonText(e.description)},${jsonText(e.location)},${jsonText(e.occurredAt)}]`;
  }
  return out + ']';
}

/** A tracker row's values, in the order of `upsertSql`'s columns. */
type TrackerValues = [
  number,
  string,
  string | null,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string,
  string | null,
  string | null,
  string,
  string | null,
  number,
  number,
  number,
];
const COLUMNS = 16;
/** Rows per upsert statement: one statement for ten rows costs less than ten (a tenth less). */
const BATCH = 10;

/** The newer-wins upsert of `rows` trackers in one statement. */
function upsertSql(rows: number): string {
  const row = `(${Array.from({ length: COLUMNS }, () => '?').join(', ')})`;
  return `
      INSERT INTO trackers (scope_id, tracking_number, tracker_id, tenant_id, carrier,
        service_level, label_id, order_reference, status, status_detail, estimated_delivery_date,
        events_json, created_at, updated_at_ms, first_seen_ms, last_changed_ms)
      VALUES ${Array.from({ length: rows }, () => row).join(', ')}
      ON CONFLICT (scope_id, tracking_number) DO UPDATE SET
        tracker_id = excluded.tracker_id, tenant_id = excluded.tenant_id, carrier = excluded.carrier,
        service_level = excluded.service_level, label_id = excluded.label_id,
        order_reference = excluded.order_reference, status = excluded.status,
        status_detail = excluded.status_detail,
        estimated_delivery_date = excluded.estimated_delivery_date,
        events_json = excluded.events_json, created_at = excluded.created_at,
        updated_at_ms = excluded.updated_at_ms, last_changed_ms = excluded.last_changed_ms
      WHERE excluded.updated_at_ms > trackers.updated_at_ms`;
}

/**
 * The trackers the station has seen, with the newer-wins rule: a tracker is only written when
 * its updatedAt is strictly newer than the stored one, so replays, overlaps and out-of-order
 * pages change nothing. Statements are prepared once, here, with positional parameters (a
 * poll writes thousands of rows: named parameters cost an object per row to build and bind).
 */
export class TrackerStore {
  private readonly current;
  private readonly upsert;
  private readonly upsertBatch;
  /** Rows waiting for the next batched upsert (BATCH rows of 16 values). */
  private readonly pending: TrackerValues[number][] = [];
  private readonly scopeGet;
  private readonly scopeAdd;
  private readonly scopeIds = new Map<string, number>();
  /** The newest updatedAt of the page last ingested (-Infinity: none). */
  private newestMs = -Infinity;
  private readonly syncGet;
  private readonly syncSuccess;
  private readonly syncFailure;
  private readonly ingestTx;

  constructor(readonly db: Database.Database) {
    const scope =
      'profile_id = @profile_id AND environment = @environment AND scope_tenant_id = @scope_tenant_id';
    this.scopeGet = db
      .prepare<[string, string, string], number>(
        `SELECT id FROM tracker_scopes
         WHERE profile_id = ? AND environment = ? AND scope_tenant_id = ?`,
      )
      .pluck();
    this.scopeAdd = db.prepare<[string, string, string]>(
      `INSERT INTO tracker_scopes (profile_id, environment, scope_tenant_id) VALUES (?, ?, ?)
       ON CONFLICT DO NOTHING`,
    );
    // What is stored for a whole page's tracking numbers, in one statement (not one per tracker).
    this.current = db.prepare<
      [number, string],
      { tracking_number: string; status: string; updated_at_ms: number }
    >(
      `SELECT tracking_number, status, updated_at_ms FROM trackers
       WHERE scope_id = ? AND tracking_number IN (SELECT value FROM json_each(?))`,
    );
    this.upsert = db.prepare<TrackerValues>(upsertSql(1));
    this.upsertBatch = db.prepare<TrackerValues[number][]>(upsertSql(BATCH));
    this.syncGet = db.prepare<
      Record<string, unknown>,
      {
        watermark_ms: number | null;
        last_attempt_at: string | null;
        last_success_at: string | null;
        last_error: string | null;
        consecutive_failures: number;
      }
    >(`SELECT * FROM tracker_sync WHERE ${scope}`);
    this.syncSuccess = db.prepare(`
      INSERT INTO tracker_sync (profile_id, environment, scope_tenant_id, watermark_ms,
        last_attempt_at, last_success_at, last_error, consecutive_failures)
      VALUES (@profile_id, @environment, @scope_tenant_id, @watermark_ms, @now, @now, NULL, 0)
      ON CONFLICT (profile_id, environment, scope_tenant_id) DO UPDATE SET
        watermark_ms = CASE
          WHEN excluded.watermark_ms IS NULL THEN tracker_sync.watermark_ms
          WHEN tracker_sync.watermark_ms IS NULL THEN excluded.watermark_ms
          ELSE max(tracker_sync.watermark_ms, excluded.watermark_ms) END,
        last_attempt_at = @now, last_success_at = @now, last_error = NULL, consecutive_failures = 0`);
    this.syncFailure = db.prepare(`
      INSERT INTO tracker_sync (profile_id, environment, scope_tenant_id, last_attempt_at,
        last_error, consecutive_failures)
      VALUES (@profile_id, @environment, @scope_tenant_id, @now, @error, 1)
      ON CONFLICT (profile_id, environment, scope_tenant_id) DO UPDATE SET
        last_attempt_at = @now, last_error = @error,
        consecutive_failures = tracker_sync.consecutive_failures + 1`);
    this.ingestTx = db.transaction(
      (scope: TrackingScope, trackers: readonly Tracker[], now: string): TrackerChange[] => {
        const changes: TrackerChange[] = [];
        const scopeId = this.scopeId(scope);
        const nowMs = Date.parse(now);
        const stored = new Map<string, { status: string; updated_at_ms: number }>();
        const numbers = JSON.stringify(trackers.map((t) => t.trackingNumber));
        for (const row of this.current.all(scopeId, numbers)) stored.set(row.tracking_number, row);
        let newest = -Infinity;
        for (const t of trackers) {
          // Each tracker's date is parsed once, here.
          const updatedAtMs = Date.parse(t.updatedAt);
          if (updatedAtMs > newest) newest = updatedAtMs;
          const change = this.ingestOne(scope, scopeId, t, updatedAtMs, nowMs, stored);
          if (change) changes.push(change);
        }
        this.flush();
        this.newestMs = newest;
        return changes;
      },
    );
  }

  /** One page in one transaction. Returns what actually changed (newer updatedAt only). */
  ingest(scope: TrackingScope, trackers: readonly Tracker[], now: string): TrackerChange[] {
    return this.ingestPage(scope, trackers, now).changes;
  }

  /** As ingest, with the page's newest updatedAt (epoch ms; null for an empty page) for the watermark. */
  ingestPage(
    scope: TrackingScope,
    trackers: readonly Tracker[],
    now: string,
  ): { changes: TrackerChange[]; newestMs: number | null } {
    try {
      this.newestMs = -Infinity;
      const changes = this.ingestTx(scope, trackers, now);
      return { changes, newestMs: this.newestMs === -Infinity ? null : this.newestMs };
    } catch (error) {
      this.pending.length = 0;
      // The scope's row may have been rolled back with the page: look it up again next time.
      this.scopeIds.clear();
      throw error;
    }
  }

  /**
   * The scope's row id, made on its first tracker (inside the page's transaction). Kept for
   * the next pages, so ingest is never called inside a caller's transaction: one rolled back
   * after it would leave a kept id that no longer exists.
   */
  private scopeId(scope: TrackingScope): number {
    const key = `${scope.profileId}\u0000${scope.environment}\u0000${scope.tenantId}`;
    let id = this.scopeIds.get(key);
    if (id === undefined) {
      this.scopeAdd.run(scope.profileId, scope.environment, scope.tenantId);
      id = this.scopeGet.get(scope.profileId, scope.environment, scope.tenantId)!;
      this.scopeIds.set(key, id);
    }
    return id;
  }

  private ingestOne(
    scope: TrackingScope,
    scopeId: number,
    t: Tracker,
    updatedAtMs: number,
    nowMs: number,
    stored: Map<string, { status: string; updated_at_ms: number }>,
  ): TrackerChange | null {
    const before = stored.get(t.trackingNumber);
    if (before && updatedAtMs <= before.updated_at_ms) return null;
    const status = t.status ?? UNKNOWN_STATUS;
    // A page that lists a tracking number twice: the later entry is held against the earlier.
    stored.set(t.trackingNumber, { status, updated_at_ms: updatedAtMs });
    const tenantId = t.tenantId ?? scope.tenantId;
    const orderReference = t.orderReference ?? null;
    const carrier = t.carrier ?? null;
    this.pending.push(
      scopeId,
      t.trackingNumber,
      t.id ?? null,
      tenantId,
      carrier,
      t.serviceLevel ?? null,
      t.labelId ?? null,
      orderReference,
      status,
      t.statusDetail ?? null,
      t.estimatedDeliveryDate ?? null,
      eventsJson(t.events),
      t.createdAt ?? null,
      updatedAtMs,
      nowMs,
      nowMs,
    );
    if (this.pending.length === BATCH * COLUMNS) {
      this.upsertBatch.run(...this.pending);
      this.pending.length = 0;
    }
    return {
      kind: before ? 'updated' : 'new',
      trackingNumber: t.trackingNumber,
      tenantId,
      orderReference,
      carrier,
      previousStatus: before?.status ?? null,
      status,
      updatedAt: CANONICAL_TIME.test(t.updatedAt)
        ? t.updatedAt
        : new Date(updatedAtMs).toISOString(),
    };
  }

  /** The rows short of a whole batch, one statement each. */
  private flush(): void {
    const p = this.pending;
    for (let i = 0; i < p.length; i += COLUMNS)
      this.upsert.run(...(p.slice(i, i + COLUMNS) as TrackerValues));
    p.length = 0;
  }

  syncState(scope: TrackingScope): TrackerSyncState {
    const row = this.syncGet.get(scopeParams(scope));
    return {
      watermarkMs: row?.watermark_ms ?? null,
      lastAttemptAt: row?.last_attempt_at ?? null,
      lastSuccessAt: row?.last_success_at ?? null,
      lastError: row?.last_error ?? null,
      consecutiveFailures: row?.consecutive_failures ?? 0,
    };
  }

  /** After a complete pass: the watermark only moves forward. */
  recordSuccess(scope: TrackingScope, watermarkMs: number | null, now: string): void {
    this.syncSuccess.run({ ...scopeParams(scope), watermark_ms: watermarkMs, now });
  }

  recordFailure(scope: TrackingScope, error: string, now: string): void {
    this.syncFailure.run({ ...scopeParams(scope), error, now });
  }
}

export function rowToRecord(row: TrackerRow): TrackerRecord {
  return {
    trackingNumber: row.tracking_number,
    trackerId: row.tracker_id,
    tenantId: row.tenant_id,
    carrier: row.carrier,
    serviceLevel: row.service_level,
    labelId: row.label_id,
    orderReference: row.order_reference,
    status: row.status,
    statusDetail: row.status_detail,
    estimatedDeliveryDate: row.estimated_delivery_date,
    events: (JSON.parse(row.events_json) as (string | null)[][]).map(
      ([status, description, location, occurredAt]) => ({
        status: status ?? null,
        description: description ?? null,
        location: location ?? null,
        occurredAt: occurredAt ?? null,
      }),
    ),
    createdAt: row.created_at,
    updatedAt: new Date(row.updated_at_ms).toISOString(),
    firstSeenAt: new Date(row.first_seen_ms).toISOString(),
    lastChangedAt: new Date(row.last_changed_ms).toISOString(),
  };
}

export type { TrackerRow };
