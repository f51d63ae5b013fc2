import type pg from 'pg';
import type { TrackerStore } from '../tracking/store.js';
import type { TrackingScope } from '../tracking/types.js';

/**
 * A follower's copy of the site poller's state into its own SQLite: the board's "last updated"
 * follows the site's last good pass, and "Tracking delayed" its last failed one (a follower
 * does not poll, so the leader's failure is its failure too), recorded once per failed pass;
 * the next good pass clears it. Returns the failed pass now recorded (its last_poll_at).
 */
export async function followSiteSync(
  client: pg.Client,
  o: {
    scope: TrackingScope;
    trackers: TrackerStore;
    stationId: string;
    failedPassSeen: number | null;
  },
): Promise<number | null> {
  const { rows } = await client.query<{
    watermark_ms: string | null;
    last_success_at: Date | null;
    last_poll_at: Date | null;
    last_error: string | null;
    leader_station_id: string | null;
    leader_name: string | null;
  }>(
    `SELECT s.watermark_ms, s.last_success_at, s.last_poll_at, s.last_error,
            s.leader_station_id, st.station_name AS leader_name
       FROM site_tracker_sync s LEFT JOIN site_stations st ON st.station_id = s.leader_station_id
      WHERE s.profile_id = $1 AND s.environment = $2 AND s.scope_tenant_id = $3`,
    [o.scope.profileId, o.scope.environment, o.scope.tenantId],
  );
  const sync = rows[0];
  if (!sync) return o.failedPassSeen;
  const local = o.trackers.syncState(o.scope);
  if (
    sync.last_success_at &&
    (!local.lastSuccessAt || Date.parse(local.lastSuccessAt) < sync.last_success_at.getTime())
  )
    o.trackers.recordSuccess(
      o.scope,
      sync.watermark_ms === null ? null : Number(sync.watermark_ms),
      sync.last_success_at.toISOString(),
    );
  // The leader's own poller records its failures itself.
  const failedAt = sync.last_error ? (sync.last_poll_at?.getTime() ?? null) : null;
  if (failedAt === null || failedAt === o.failedPassSeen || sync.leader_station_id === o.stationId)
    return o.failedPassSeen;
  const at = sync.leader_name ?? sync.leader_station_id ?? 'another station';
  o.trackers.recordFailure(
    o.scope,
    `the site's tracker poll at ${at} failed: ${sync.last_error}`,
    new Date(failedAt).toISOString(),
  );
  return failedAt;
}
