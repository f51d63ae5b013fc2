import type Database from 'better-sqlite3';
import type { Tracker } from '../platform/schemas.js';
import {
  UNKNOWN_STATUS,
  type TrackerChange,
  type TrackerEventRecord,
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
  events_json: string;
  created_at: string | null;
  updated_at: string;
  first_seen_at: string;
  last_changed_at: string;
}

const scopeParams = (s: TrackingScope) => ({
  profile_id: s.profileId,
  environment: s.environment,
  scope_tenant_id: s.tenantId,
});

/**
 * The trackers the station has seen, with the newer-wins rule: a tracker is only written when
 * its updatedAt is strictly newer than the stored one, so replays, overlaps and out-of-order
 * pages change nothing. Statements are prepared once, here.
 */
export class TrackerStore {
  private readonly current;
  private readonly upsert;
  private readonly syncGet;
  private readonly syncSuccess;
  private readonly syncFailure;
  private readonly ingestTx;

  constructor(readonly db: Database.Database) {
    const scope =
      'profile_id = @profile_id AND environment = @environment AND scope_tenant_id = @scope_tenant_id';
    // What is stored for a whole page's tracking numbers, in one statement (not one per tracker).
    this.current = db.prepare<
      Record<string, unknown>,
      { tracking_number: string; status: string; updated_at_ms: number }
    >(
      `SELECT tracking_number, status, updated_at_ms FROM trackers
       WHERE ${scope} AND tracking_number IN (SELECT value FROM json_each(@numbers))`,
    );
    this.upsert = db.prepare(`
      INSERT INTO trackers (profile_id, environment, scope_tenant_id, tracking_number, tracker_id,
        tenant_id, carrier, service_level, label_id, order_reference, status, status_detail,
        estimated_delivery_date, events_json, created_at, updated_at, updated_at_ms,
        first_seen_at, last_changed_at)
      VALUES (@profile_id, @environment, @scope_tenant_id, @tracking_number, @tracker_id,
        @tenant_id, @carrier, @service_level, @label_id, @order_reference, @status, @status_detail,
        @estimated_delivery_date, @events_json, @created_at, @updated_at, @updated_at_ms,
        @now, @now)
      ON CONFLICT (profile_id, environment, scope_tenant_id, tracking_number) DO UPDATE SET
        tracker_id = excluded.tracker_id, tenant_id = excluded.tenant_id, carrier = excluded.carrier,
        service_level = excluded.service_level, label_id = excluded.label_id,
        order_reference = excluded.order_reference, status = excluded.status,
        status_detail = excluded.status_detail,
        estimated_delivery_date = excluded.estimated_delivery_date,
        events_json = excluded.events_json,
        created_at = excluded.created_at, updated_at = excluded.updated_at,
        updated_at_ms = excluded.updated_at_ms, last_changed_at = excluded.last_changed_at
      WHERE excluded.updated_at_ms > trackers.updated_at_ms`);
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
        const stored = new Map<string, { status: string; updated_at_ms: number }>();
        const numbers = JSON.stringify(trackers.map((t) => t.trackingNumber));
        for (const row of this.current.all({ ...scopeParams(scope), numbers }))
          stored.set(row.tracking_number, row);
        for (const t of trackers) {
          const change = this.ingestOne(scope, t, now, stored);
          if (change) changes.push(change);
        }
        return changes;
      },
    );
  }

  /** One page in one transaction. Returns what actually changed (newer updatedAt only). */
  ingest(scope: TrackingScope, trackers: readonly Tracker[], now: string): TrackerChange[] {
    return this.ingestTx(scope, trackers, now);
  }

  private ingestOne(
    scope: TrackingScope,
    t: Tracker,
    now: string,
    stored: Map<string, { status: string; updated_at_ms: number }>,
  ): TrackerChange | null {
    const updatedAtMs = Date.parse(t.updatedAt);
    const before = stored.get(t.trackingNumber);
    if (before && updatedAtMs <= before.updated_at_ms) return null;
    // A page that lists a tracking number twice: the later entry is held against the earlier.
    stored.set(t.trackingNumber, {
      status: t.status ?? UNKNOWN_STATUS,
      updated_at_ms: updatedAtMs,
    });
    const params = { ...scopeParams(scope), tracking_number: t.trackingNumber };
    const status = t.status ?? UNKNOWN_STATUS;
    const tenantId = t.tenantId ?? scope.tenantId;
    const events: TrackerEventRecord[] = (t.events ?? []).map((e) => ({
      status: e.status ?? null,
      description: e.description ?? null,
      location: e.location ?? null,
      occurredAt: e.occurredAt ?? null,
    }));
    this.upsert.run({
      ...params,
      tracker_id: t.id ?? null,
      tenant_id: tenantId,
      carrier: t.carrier ?? null,
      service_level: t.serviceLevel ?? null,
      label_id: t.labelId ?? null,
      order_reference: t.orderReference ?? null,
      status,
      status_detail: t.statusDetail ?? null,
      estimated_delivery_date: t.estimatedDeliveryDate ?? null,
      events_json: JSON.stringify(events),
      created_at: t.createdAt ?? null,
      updated_at: new Date(updatedAtMs).toISOString(),
      updated_at_ms: updatedAtMs,
      now,
    });
    return {
      kind: before ? 'updated' : 'new',
      trackingNumber: t.trackingNumber,
      tenantId,
      orderReference: t.orderReference ?? null,
      carrier: t.carrier ?? null,
      previousStatus: before?.status ?? null,
      status,
      updatedAt: new Date(updatedAtMs).toISOString(),
    };
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
    events: JSON.parse(row.events_json) as TrackerEventRecord[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    firstSeenAt: row.first_seen_at,
    lastChangedAt: row.last_changed_at,
  };
}

export type { TrackerRow };
