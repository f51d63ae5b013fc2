import type Database from 'better-sqlite3';
import { rowToRecord, TRACKER_SCOPE_ID, type TrackerRow } from './store.js';
import { trackerStatuses, type TrackerRecord, type TrackingScope } from './types.js';

export interface BoardFilter {
  /** A brand (the tracker's own tenant), for a 3PL's board. */
  tenantId?: string;
  carrier?: string;
  /** Part of a tracking number or an order reference, case-insensitive. */
  search?: string;
}

export interface BoardListQuery extends BoardFilter {
  /** Omitted: every status. */
  status?: string;
  /** Default 100, at most 1000. */
  limit?: number;
  offset?: number;
}

export interface StatusCount {
  status: string;
  count: number;
}

/**
 * The shift lead's shipment board: counts by status and the trackers of one status, newest
 * first, filtered by brand, carrier and a search. Each combination of filters is one SQL text
 * prepared once and kept (there are sixteen at most), so the indexes on (scope, status,
 * updated_at) and (scope, tenant, status, updated_at) carry the work at any size.
 */
export class TrackerBoard {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly byNumber: Database.Statement<Record<string, unknown>, TrackerRow>;

  constructor(private readonly db: Database.Database) {
    this.byNumber = db.prepare(
      `SELECT * FROM trackers WHERE ${SCOPE} AND tracking_number = @tracking_number`,
    );
  }

  /** Every known status (zero included, in board order), then any other status the platform sent. */
  counts(scope: TrackingScope, filter: BoardFilter = {}): StatusCount[] {
    const { sql, params } = build(scope, filter, undefined);
    const rows = this.statement(`count:${sql}`, () =>
      this.db.prepare(
        `SELECT status, count(*) AS count FROM trackers WHERE ${sql} GROUP BY status`,
      ),
    ).all(params) as StatusCount[];
    const found = new Map(rows.map((r) => [r.status, r.count]));
    const known: StatusCount[] = trackerStatuses.map((s) => ({
      status: s,
      count: found.get(s) ?? 0,
    }));
    const others = rows
      .filter((r) => !(trackerStatuses as readonly string[]).includes(r.status))
      .sort((a, b) => a.status.localeCompare(b.status));
    return [...known, ...others];
  }

  list(scope: TrackingScope, query: BoardListQuery = {}): TrackerRecord[] {
    const { sql, params } = build(scope, query, query.status);
    const rows = this.statement(`list:${sql}`, () =>
      this.db.prepare(
        `SELECT * FROM trackers WHERE ${sql}
         ORDER BY updated_at_ms DESC, tracking_number LIMIT @limit OFFSET @offset`,
      ),
    ).all({
      ...params,
      limit: Math.min(Math.max(1, query.limit ?? 100), 1000),
      offset: Math.max(0, query.offset ?? 0),
    }) as TrackerRow[];
    return rows.map(rowToRecord);
  }

  get(scope: TrackingScope, trackingNumber: string): TrackerRecord | null {
    const row = this.byNumber.get({ ...scopeParams(scope), tracking_number: trackingNumber });
    return row ? rowToRecord(row) : null;
  }

  /** The query plan of a list, for tests that make sure an index carries it. */
  explainList(scope: TrackingScope, query: BoardListQuery = {}): string {
    const { sql, params } = build(scope, query, query.status);
    const rows = this.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT * FROM trackers WHERE ${sql}
         ORDER BY updated_at_ms DESC, tracking_number LIMIT 100`,
      )
      .all(params) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  }

  private statement(key: string, make: () => Database.Statement): Database.Statement {
    let st = this.statements.get(key);
    if (!st) {
      st = make();
      this.statements.set(key, st);
    }
    return st;
  }
}

const SCOPE = TRACKER_SCOPE_ID;

function scopeParams(scope: TrackingScope) {
  return {
    profile_id: scope.profileId,
    environment: scope.environment,
    scope_tenant_id: scope.tenantId,
  };
}

function build(scope: TrackingScope, filter: BoardFilter, status: string | undefined) {
  const clauses = [SCOPE];
  const params: Record<string, unknown> = scopeParams(scope);
  if (status !== undefined) {
    clauses.push('status = @status');
    params.status = status;
  }
  if (filter.tenantId !== undefined) {
    clauses.push('tenant_id = @tenant_id');
    params.tenant_id = filter.tenantId;
  }
  if (filter.carrier !== undefined) {
    clauses.push('carrier = @carrier');
    params.carrier = filter.carrier;
  }
  const search = filter.search?.trim();
  if (search) {
    clauses.push(
      "(tracking_number LIKE @search ESCAPE '\\' OR order_reference LIKE @search ESCAPE '\\')",
    );
    params.search = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  }
  return { sql: clauses.join(' AND '), params };
}
