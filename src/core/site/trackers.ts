import pg from 'pg';
import { isPlatformError } from '../platform/index.js';
import type { Tracker } from '../platform/schemas.js';
import { SecretMissingError } from '../profiles/secret-vault.js';
import type { TrackerPoller } from '../tracking/poller.js';
import type { TrackerStore } from '../tracking/store.js';
import type { TrackerChange, TrackingScope } from '../tracking/types.js';
import { connectionOf } from './connection.js';
import { describeSiteError } from './errors.js';
import { OutageLog } from './outage.js';
import { followSiteSync } from './tracker-sync.js';

/** The first key of our advisory locks for tracker polling (the second is the scope's hash). */
const TRACKER_LOCK_CLASS = 0x5174;
/** NOTIFY channel: the leader wrote trackers for the scope named in the payload. */
const CHANNEL = 'site_trackers';
const PULL_PAGE = 1000;

export type TrackerRole = 'leader' | 'follower' | 'offline';

/**
 * A pass that failed for a reason of this station's own (no client secret here, a key the
 * platform refuses, a tenant it may not act for): another station may well poll fine.
 */
function ownSetupProblem(error: Error): boolean {
  if (error instanceof SecretMissingError || error.cause instanceof SecretMissingError) return true;
  return isPlatformError(error) && (error.kind === 'auth' || error.kind === 'wrong-tenant');
}

export interface SiteTrackersOptions {
  url: string;
  password: string | undefined;
  stationId: string;
  scope: TrackingScope;
  /** The profile's poller: the leader drives it (pollNow), nobody else starts it. */
  poller: Pick<TrackerPoller, 'pollNow' | 'delayAfter' | 'status' | 'setPageSink'>;
  /** The station's own trackers (SQLite): the board reads them; followers copy the site's here. */
  trackers: TrackerStore;
  /** The poll interval; a follower tries to take over every `checkMs` (default a quarter of it). */
  intervalMs: number;
  checkMs?: number;
  /** With no store for this long, the station polls the platform itself (default 2 intervals). */
  aloneAfterMs?: number;
  connectTimeoutMs?: number;
  onChanges?: (changes: TrackerChange[]) => void;
  onRole?: (role: TrackerRole) => void;
  log?: (line: string) => void;
  /** How often a store that stays away is mentioned again in the log (OutageLog; 5 min). */
  outageReminderMs?: number;
  /** Whether this station has reached the store at its address (SiteLink.hasReachedStore). */
  reached?: () => boolean;
  /** The site's offline rule is "refuse" (SiteOutbox.offlinePurchase): said so in the log. */
  refuses?: () => boolean;
}

/**
 * One tracker poller per site. Every station of the site runs this; exactly one of them, the
 * holder of a session-level PostgreSQL advisory lock for the scope, polls GET /api/v1/trackers
 * and writes what it receives to site_trackers. The lock lives on a connection of its own: when
 * the leader stops, is killed or loses the store, the server ends the session and the lock is
 * free; another station takes it at its next check (a quarter of the interval) and goes on from
 * the site's watermark and schedule (site_tracker_sync), so the platform sees one pass per
 * interval whatever the number of stations. The others copy site_trackers into their own
 * SQLite (newer updatedAt wins), on NOTIFY and at each check, so every Tracking board shows
 * the site's statuses.
 */
export class SiteTrackers {
  private client: pg.Client | null = null;
  private leader = false;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;
  private pulling: Promise<void> | null = null;
  private nextPollAt = 0;
  private lastSeq = 0;
  /** last_poll_at of the site's failed pass last recorded here (a follower's "Tracking delayed"). */
  private failedPassSeen: number | null = null;
  private offlineSince: number | null = null;
  /** After losing its connection a station lets the others take the lock first (one interval). */
  private noLockUntil = 0;
  private currentRole: TrackerRole = 'offline';
  private readonly key: string;
  private readonly checkMs: number;
  /** A check every quarter interval (3.75 s) must not be a log line each while the store is away. */
  private readonly outage: OutageLog;

  constructor(private readonly o: SiteTrackersOptions) {
    this.key = `${o.scope.profileId}|${o.scope.environment}|${o.scope.tenantId}`;
    this.checkMs = o.checkMs ?? Math.max(50, Math.floor(o.intervalMs / 4));
    this.outage = new OutageLog({
      what: 'site trackers',
      log: o.log,
      remindEveryMs: o.outageReminderMs,
      url: o.url,
      reached: o.reached,
      refuses: o.refuses,
    });
  }

  role(): TrackerRole {
    return this.currentRole;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.offlineSince = Date.now();
    this.tick();
  }

  /** Stops; a leader's session ends, which frees the lock for another station at once. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.busy?.catch(() => {});
    await this.pulling?.catch(() => {});
    this.o.poller.setPageSink(null);
    const client = this.client;
    this.client = null;
    this.leader = false;
    await client?.end().catch(() => {});
  }

  private tick(): void {
    if (!this.running) return;
    this.busy = this.step()
      .then(
        () => this.outage.answered(),
        (error: unknown) => {
          this.outage.failed(describeSiteError(error, this.o.url));
          this.lose();
        },
      )
      .finally(() => {
        this.busy = null;
        if (!this.running) return;
        const wait = this.leader
          ? Math.max(0, Math.min(this.checkMs, this.nextPollAt - Date.now()))
          : this.checkMs;
        this.timer = setTimeout(() => {
          this.timer = null;
          this.tick();
        }, wait);
        this.timer.unref();
      });
  }

  private setRole(role: TrackerRole): void {
    if (role === this.currentRole) return;
    this.currentRole = role;
    this.o.log?.(`site trackers: ${role}`);
    this.o.onRole?.(role);
  }

  /** The connection is gone: so is the leadership (the server frees the lock with the session). */
  private lose(): void {
    const client = this.client;
    this.client = null;
    if (this.leader) this.noLockUntil = Date.now() + this.o.intervalMs;
    this.leader = false;
    this.o.poller.setPageSink(null);
    client?.end().catch(() => {});
    this.offlineSince ??= Date.now();
    this.setRole('offline');
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      ...connectionOf(this.o.url, this.o.password),
      connectionTimeoutMillis: this.o.connectTimeoutMs ?? 3000,
      statement_timeout: 5000,
      application_name: `shipping-station ${this.o.stationId} trackers`.slice(0, 63),
    });
    const gone = () => {
      if (this.client === client) this.lose();
    };
    client.on('error', gone);
    client.on('end', gone);
    client.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload === this.key && !this.leader)
        void this.pull().catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.removeListener('end', gone);
      await client.end().catch(() => {});
      throw error;
    }
    return client;
  }

  private async step(): Promise<void> {
    if (!this.client) {
      try {
        this.client = await this.connect();
        this.offlineSince = null;
        this.setRole('follower');
      } catch (error) {
        this.offlineSince ??= Date.now();
        // Alone for a while (the store does not answer): poll the platform ourselves, so the
        // board does not freeze for the length of an outage.
        const alone =
          Date.now() - this.offlineSince >= (this.o.aloneAfterMs ?? 2 * this.o.intervalMs);
        if (alone && Date.now() >= this.nextPollAt) {
          await this.o.poller.pollNow().catch(() => {});
          this.nextPollAt =
            Date.now() + this.o.poller.delayAfter(this.o.poller.status().consecutiveFailures);
        }
        throw error;
      }
    }
    const client = this.client;
    if (!this.leader) {
      if (Date.now() < this.noLockUntil) {
        await this.pull();
        return;
      }
      const { rows } = await client.query<{ got: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS got',
        [TRACKER_LOCK_CLASS, this.key],
      );
      if (!rows[0]?.got) {
        await this.pull();
        return;
      }
      await this.takeOver(client);
    }
    // Alive connection = leadership still ours (the lock is the session's).
    await client.query('SELECT 1');
    if (Date.now() < this.nextPollAt) return;
    // The pass's start is written first: a leader killed mid-pass has still spent this interval,
    // and the next leader waits from here.
    await client.query(
      `INSERT INTO site_tracker_sync (profile_id, environment, scope_tenant_id, last_poll_at, leader_station_id)
       VALUES ($1, $2, $3, now(), $4)
       ON CONFLICT (profile_id, environment, scope_tenant_id) DO UPDATE SET
         last_poll_at = now(), leader_station_id = EXCLUDED.leader_station_id`,
      [this.o.scope.profileId, this.o.scope.environment, this.o.scope.tenantId, this.o.stationId],
    );
    let error: Error | null = null;
    try {
      await this.o.poller.pollNow();
    } catch (e) {
      error = e as Error;
    }
    if (this.client !== client) return; // lost during the pass: the next leader goes on
    const sync = this.o.trackers.syncState(this.o.scope);
    await client.query(
      `INSERT INTO site_tracker_sync (profile_id, environment, scope_tenant_id, watermark_ms,
         last_poll_at, last_success_at, last_error, leader_station_id)
       VALUES ($1, $2, $3, $4, now(), CASE WHEN $5::text IS NULL THEN now() END, $5, $6)
       ON CONFLICT (profile_id, environment, scope_tenant_id) DO UPDATE SET
         watermark_ms = GREATEST(site_tracker_sync.watermark_ms, EXCLUDED.watermark_ms),
         last_success_at = COALESCE(EXCLUDED.last_success_at, site_tracker_sync.last_success_at),
         last_error = EXCLUDED.last_error, leader_station_id = EXCLUDED.leader_station_id`,
      [
        this.o.scope.profileId,
        this.o.scope.environment,
        this.o.scope.tenantId,
        sync.watermarkMs,
        error ? error.message : null,
        this.o.stationId,
      ],
    );
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, this.key]);
    this.nextPollAt =
      Date.now() + this.o.poller.delayAfter(this.o.poller.status().consecutiveFailures);
    if (error && ownSetupProblem(error)) await this.handOver(client, error);
  }

  /**
   * This station cannot poll (its own secret or key): the lock is given up so a station that
   * can takes over within a check, instead of the whole site's board freezing behind it. It
   * tries to lead again only after a few intervals (its secret may have been put right).
   */
  private async handOver(client: pg.Client, error: Error): Promise<void> {
    await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [
      TRACKER_LOCK_CLASS,
      this.key,
    ]);
    this.leader = false;
    this.o.poller.setPageSink(null);
    this.noLockUntil = Date.now() + 4 * this.o.intervalMs;
    this.o.log?.(
      `site trackers: this station cannot poll the platform (${error.message}); another station takes over`,
    );
    this.setRole('follower');
  }

  /**
   * The lock is ours: catch up with what the last leader wrote, take its watermark, and keep
   * its schedule (the next pass is one interval after its last one, not now).
   */
  private async takeOver(client: pg.Client): Promise<void> {
    this.leader = true;
    await this.pull();
    const { rows } = await client.query<{ watermark_ms: string | null; last_poll_at: Date | null }>(
      `SELECT watermark_ms, last_poll_at FROM site_tracker_sync
        WHERE profile_id = $1 AND environment = $2 AND scope_tenant_id = $3`,
      [this.o.scope.profileId, this.o.scope.environment, this.o.scope.tenantId],
    );
    const row = rows[0];
    if (row?.watermark_ms != null)
      this.o.trackers.recordSuccess(
        this.o.scope,
        Number(row.watermark_ms),
        new Date().toISOString(),
      );
    this.nextPollAt = row?.last_poll_at ? row.last_poll_at.getTime() + this.o.intervalMs : 0;
    this.o.poller.setPageSink((trackers) => this.write(client, trackers));
    this.setRole('leader');
  }

  /** One page of the leader's pass into site_trackers (newer updatedAt wins, as locally). */
  private async write(client: pg.Client, trackers: readonly Tracker[]): Promise<void> {
    if (this.client !== client) throw new Error('The site store connection was lost.');
    if (trackers.length === 0) return;
    const s = this.o.scope;
    await client.query(
      `INSERT INTO site_trackers (profile_id, environment, scope_tenant_id, tracking_number,
         tenant_id, status, updated_at_ms, tracker_json)
       SELECT $1, $2, $3, t.n, t.tenant, t.status, t.ms, t.json::jsonb
         FROM unnest($4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[])
              AS t(n, tenant, status, ms, json)
       ON CONFLICT (profile_id, environment, scope_tenant_id, tracking_number) DO UPDATE SET
         tenant_id = EXCLUDED.tenant_id, status = EXCLUDED.status,
         updated_at_ms = EXCLUDED.updated_at_ms, tracker_json = EXCLUDED.tracker_json,
         seq = nextval('site_trackers_seq_seq')
       WHERE EXCLUDED.updated_at_ms > site_trackers.updated_at_ms`,
      [
        s.profileId,
        s.environment,
        s.tenantId,
        trackers.map((t) => t.trackingNumber),
        trackers.map((t) => t.tenantId ?? null),
        trackers.map((t) => t.status ?? null),
        trackers.map((t) => Date.parse(t.updatedAt)),
        trackers.map((t) => JSON.stringify(t)),
      ],
    );
  }

  /** Copies what the site's leader wrote since the last copy into this station's SQLite. */
  pull(): Promise<void> {
    this.pulling ??= (async () => {
      const client = this.client;
      if (!client) return;
      for (;;) {
        const { rows } = await client.query<{ seq: string; tracker_json: Tracker }>(
          `SELECT seq, tracker_json FROM site_trackers
            WHERE profile_id = $1 AND environment = $2 AND scope_tenant_id = $3 AND seq > $4
            ORDER BY seq LIMIT ${PULL_PAGE}`,
          [this.o.scope.profileId, this.o.scope.environment, this.o.scope.tenantId, this.lastSeq],
        );
        if (rows.length > 0) {
          const changes = this.o.trackers.ingest(
            this.o.scope,
            rows.map((r) => r.tracker_json),
            new Date().toISOString(),
          );
          this.lastSeq = Number(rows[rows.length - 1]!.seq);
          if (changes.length > 0) this.o.onChanges?.(changes);
        }
        if (rows.length < PULL_PAGE) break;
      }
      this.failedPassSeen = await followSiteSync(client, {
        scope: this.o.scope,
        trackers: this.o.trackers,
        stationId: this.o.stationId,
        failedPassSeen: this.failedPassSeen,
      });
    })().finally(() => {
      this.pulling = null;
    });
    return this.pulling;
  }
}
