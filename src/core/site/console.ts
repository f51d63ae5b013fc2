import type pg from 'pg';
import type {
  ConsolePlatformView,
  ConsolePrinterView,
  ConsoleSnapshotView,
} from '../../shared/features/site-services.js';
import type { SiteScope } from './types.js';

/** NOTIFY channel for the shift-lead console: a station's heartbeat changed (payload: its id). */
export const CONSOLE_CHANNEL = 'site_console';

/** A station's label printer as it publishes it with its heartbeat (as the console shows it). */
export type HeartbeatPrinter = ConsolePrinterView;

/** What a station publishes with its check-in for the console, beyond its queues. */
export interface Heartbeat {
  appVersion: string;
  signedInUser: string | null;
  printers: HeartbeatPrinter[];
  /** Written where the store has its column (site migration 5); left out before. */
  platform?: ConsolePlatformView;
}

export interface CarrierConnectionRow {
  tenantId: string;
  carrierAccountId: string;
  carrier: string;
  authorizationStatus: string;
  /** When the station read it from the platform: an older reading never replaces a newer one. */
  checkedAt: string;
}

/**
 * The shift-lead console's picture of the site, read in one round of queries: exactly what the
 * Site view shows, so one shape (the contract's) serves both.
 */
export type ConsoleSnapshot = ConsoleSnapshotView;

/**
 * A station on the site's lists: not retired, or checked in again since it was (a computer
 * brought back under its id, which lists it again). Rows of a store before site migration 6
 * have no `retired_at`.
 */
export function listed(r: { last_seen_at: Date; retired_at?: Date | null }): boolean {
  return !r.retired_at || r.retired_at.getTime() < r.last_seen_at.getTime();
}

/** The profile a station packs under, as its heartbeat carries it (site migration 8's stations). */
export type StationProfile = NonNullable<ConsolePlatformView['profile']>;

/**
 * Whether another station is of this station's profile scope (the same profile id and
 * environment, and a brand in common): only those are shown in the console and Settings, and
 * only their printers are offered for a reprint. A station of another tenant on the same store
 * (a 3PL's, say) is not, even under the same profile id. A station whose heartbeat does not
 * say its profile (a version before it, or a store before site migration 5) is kept: it cannot
 * be told apart, and hiding it would hide a station of this site during an upgrade.
 */
export function inProfileScope(
  station: StationProfile | null | undefined,
  mine: { id: string; environment: string; tenants: readonly string[] },
): boolean {
  if (!station || typeof station.id !== 'string' || !Array.isArray(station.tenants)) return true;
  return (
    station.id === mine.id &&
    station.environment === mine.environment &&
    station.tenants.some((t) => mine.tenants.includes(t))
  );
}

/** A station that has not checked in for this long is shown offline (check-in is every 2 s). */
export const ONLINE_WITHIN_MS = 10_000;

/** The carrier connections this station read for its tenants (newest reading wins). */
export async function publishCarriers(
  pool: pg.Pool,
  scope: SiteScope,
  stationId: string,
  rows: readonly CarrierConnectionRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await pool.query(
    `INSERT INTO site_carrier_health (profile_id, environment, tenant_id, carrier_account_id,
       carrier, authorization_status, station_id, updated_at)
     SELECT $1, $2, t.tenant, t.account, t.carrier, t.status, $3, t.checked
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
            AS t(tenant, account, carrier, status, checked)
     ON CONFLICT (profile_id, environment, tenant_id, carrier_account_id) DO UPDATE SET
       carrier = EXCLUDED.carrier, authorization_status = EXCLUDED.authorization_status,
       station_id = EXCLUDED.station_id, updated_at = EXCLUDED.updated_at
     WHERE EXCLUDED.updated_at > site_carrier_health.updated_at`,
    [
      scope.profileId,
      scope.environment,
      stationId,
      rows.map((r) => r.tenantId),
      rows.map((r) => r.carrierAccountId),
      rows.map((r) => r.carrier),
      rows.map((r) => r.authorizationStatus),
      rows.map((r) => r.checkedAt),
    ],
  );
  await pool.query('SELECT pg_notify($1, $2)', [CONSOLE_CHANNEL, stationId]);
}

/**
 * The console's picture: stations (online when seen within ONLINE_WITHIN_MS), labels per hour
 * today by station and packer, cost today by brand and carrier, carrier connections not
 * AUTHORIZED. `dayStart` is the console's local midnight (ISO). Needs attention comes from
 * SiteStore.attention.
 */
export async function consoleSnapshot(
  pool: pg.Pool,
  scope: SiteScope,
  dayStart: string,
  hourOffsetMinutes: number,
  /**
   * The store has site migration 6: labels voided at the carrier are left out of the labels and
   * cost (and counted apart). A store before it has no marks, so every label counts.
   */
  voids: boolean,
  /** The profile's brands: the labels, cost and carrier connections of no other tenant are read. */
  tenantIds: readonly string[],
): Promise<ConsoleSnapshot> {
  // Named statements, one text per name: the two shapes have their own names.
  const kept = voids ? 'AND voided IS NULL' : '';
  const v = voids ? '-v' : '';
  const [stations, perHour, cost, carriers, polling, now] = await Promise.all([
    pool.query<{
      station_id: string;
      station_name: string;
      last_seen_at: Date;
      app_version: string | null;
      signed_in_user: string | null;
      printers: HeartbeatPrinter[];
      /** Site migration 5: absent from the rows of a store at schema 4. */
      platform?: ConsolePlatformView | null;
      queued_shipments: number;
      queued_print_jobs: number;
      needs_attention: number;
      outbox_depth: number;
      /** Site migration 6: a retired station (not listed), kept for its name. */
      retired_at?: Date | null;
    }>('SELECT * FROM site_stations ORDER BY station_name'),
    pool.query<{ hour: number; station_id: string; packer: string; labels: number }>({
      name: `site-console-per-hour${v}`,
      text: `SELECT extract(hour FROM (created_at + make_interval(mins => $4::int)) AT TIME ZONE 'UTC')::int AS hour,
                    station_id, COALESCE(packer, '') AS packer, count(*)::int AS labels
               FROM site_labels
              WHERE profile_id = $1 AND environment = $2 AND created_at >= $3 ${kept}
                AND tenant_id = ANY($5::text[])
              GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      values: [scope.profileId, scope.environment, dayStart, hourOffsetMinutes, tenantIds],
    }),
    pool.query<{
      tenant_id: string;
      carrier: string;
      currency: string;
      cents: string;
      labels: number;
      voided_cents: string;
      voided: number;
    }>({
      name: `site-console-cost${v}`,
      // A brand and carrier whose every label today was voided still has its row (0 labels).
      text: voids
        ? `SELECT tenant_id, carrier, currency,
                  COALESCE(sum(cost_cents) FILTER (WHERE voided IS NULL), 0) AS cents,
                  (count(*) FILTER (WHERE voided IS NULL))::int AS labels,
                  COALESCE(sum(cost_cents) FILTER (WHERE voided IS NOT NULL), 0) AS voided_cents,
                  (count(*) FILTER (WHERE voided IS NOT NULL))::int AS voided
             FROM site_labels
            WHERE profile_id = $1 AND environment = $2 AND created_at >= $3
              AND tenant_id = ANY($4::text[])
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
        : `SELECT tenant_id, carrier, currency, sum(cost_cents) AS cents, count(*)::int AS labels,
                  0 AS voided_cents, 0 AS voided
             FROM site_labels
            WHERE profile_id = $1 AND environment = $2 AND created_at >= $3
              AND tenant_id = ANY($4::text[])
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      values: [scope.profileId, scope.environment, dayStart, tenantIds],
    }),
    pool.query<{
      tenant_id: string;
      carrier_account_id: string;
      carrier: string;
      authorization_status: string;
      station_id: string;
      updated_at: Date;
    }>({
      name: 'site-console-carriers',
      text: `SELECT * FROM site_carrier_health
              WHERE profile_id = $1 AND environment = $2 AND authorization_status <> 'AUTHORIZED'
                AND tenant_id = ANY($3::text[])
              ORDER BY tenant_id, carrier`,
      values: [scope.profileId, scope.environment, tenantIds],
    }),
    pool.query<{
      scope_tenant_id: string;
      leader_station_id: string | null;
      last_poll_at: Date | null;
      last_success_at: Date | null;
      last_error: string | null;
    }>({
      name: 'site-console-tracker-polling',
      text: `SELECT scope_tenant_id, leader_station_id, last_poll_at, last_success_at, last_error
               FROM site_tracker_sync WHERE profile_id = $1 AND environment = $2
                AND scope_tenant_id = ANY($3::text[])
              ORDER BY scope_tenant_id`,
      values: [scope.profileId, scope.environment, tenantIds],
    }),
    pool.query<{ now: Date }>('SELECT now() AS now'),
  ]);
  const serverNow = now.rows[0]!.now.getTime();
  return {
    at: new Date(serverNow).toISOString(),
    onlineWithinMs: ONLINE_WITHIN_MS,
    stationNames: Object.fromEntries(stations.rows.map((r) => [r.station_id, r.station_name])),
    // The stations of the profile's scope only: another tenant's station, its signed-in packer
    // and its printer are not this profile's to see.
    stations: stations.rows
      .filter(
        (r) =>
          listed(r) &&
          inProfileScope(r.platform?.profile, {
            id: scope.profileId,
            environment: scope.environment,
            tenants: tenantIds,
          }),
      )
      .map((r) => ({
        stationId: r.station_id,
        stationName: r.station_name,
        lastSeenAt: r.last_seen_at.toISOString(),
        online: serverNow - r.last_seen_at.getTime() <= ONLINE_WITHIN_MS,
        appVersion: r.app_version,
        signedInUser: r.signed_in_user,
        printers: Array.isArray(r.printers) ? r.printers : [],
        platform: r.platform && typeof r.platform.state === 'string' ? r.platform : null,
        queuedShipments: r.queued_shipments,
        queuedPrintJobs: r.queued_print_jobs,
        needsAttention: r.needs_attention,
        outboxDepth: r.outbox_depth,
      })),
    labelsPerHour: perHour.rows.map((r) => ({
      hour: r.hour,
      stationId: r.station_id,
      packer: r.packer,
      labels: r.labels,
    })),
    costToday: cost.rows.map((r) => ({
      tenantId: r.tenant_id,
      carrier: r.carrier,
      currency: r.currency,
      cents: Number(r.cents),
      labels: r.labels,
      voidedCents: Number(r.voided_cents),
      voided: Number(r.voided),
    })),
    carriersNotAuthorized: carriers.rows.map((r) => ({
      tenantId: r.tenant_id,
      carrierAccountId: r.carrier_account_id,
      carrier: r.carrier,
      authorizationStatus: r.authorization_status,
      stationId: r.station_id,
      updatedAt: r.updated_at.toISOString(),
    })),
    trackerPolling: polling.rows.map((r) => ({
      tenantId: r.scope_tenant_id,
      stationId: r.leader_station_id,
      lastPollAt: r.last_poll_at?.toISOString() ?? null,
      lastSuccessAt: r.last_success_at?.toISOString() ?? null,
      lastError: r.last_error,
    })),
  };
}
