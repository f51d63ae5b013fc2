import type { Migration } from './index.js';

/**
 * Owned by tracking (issue 3): trackers and the carrier-account health cache.
 *
 * Every row is scoped by profile, environment and the tenant the station polled for
 * (`scope_tenant_id`, the profile's tenant: a 3PL sees its brands' trackers through it); the
 * tracker's own tenant (`tenant_id`, the brand) is kept beside it for the board's filter.
 * An identifier of one environment is never looked up in the other.
 */
export const migration003: Migration = {
  version: 3,
  name: 'tracking',
  up(db) {
    db.exec(`
      CREATE TABLE trackers (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        scope_tenant_id TEXT NOT NULL,
        tracking_number TEXT NOT NULL,
        tracker_id TEXT,
        tenant_id TEXT NOT NULL,
        carrier TEXT,
        service_level TEXT,
        label_id TEXT,
        order_reference TEXT,
        status TEXT NOT NULL,
        status_detail TEXT,
        estimated_delivery_date TEXT,
        events_json TEXT NOT NULL DEFAULT '[]',
        created_at TEXT,
        updated_at TEXT NOT NULL,
        -- updated_at as epoch ms: ordering, the newer-wins rule and the watermark compare numbers.
        updated_at_ms INTEGER NOT NULL,
        first_seen_at TEXT NOT NULL,
        last_changed_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, environment, scope_tenant_id, tracking_number)
      ) STRICT, WITHOUT ROWID;

      -- The board: counts by status and the newest first within a status.
      CREATE INDEX trackers_by_status
        ON trackers (profile_id, environment, scope_tenant_id, status, updated_at_ms DESC);
      -- The board filtered by brand.
      CREATE INDEX trackers_by_tenant
        ON trackers (profile_id, environment, scope_tenant_id, tenant_id, status, updated_at_ms DESC);
      -- A scan or search by order reference.
      CREATE INDEX trackers_by_order
        ON trackers (profile_id, environment, scope_tenant_id, order_reference);

      -- Where the incremental poll resumes after a restart.
      CREATE TABLE tracker_sync (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        scope_tenant_id TEXT NOT NULL,
        -- Newest updatedAt seen in a complete pass (epoch ms), null before the first one.
        watermark_ms INTEGER,
        last_attempt_at TEXT,
        last_success_at TEXT,
        last_error TEXT,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (profile_id, environment, scope_tenant_id)
      ) STRICT;

      CREATE TABLE carrier_account_health (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        carrier_account_id TEXT NOT NULL,
        name TEXT,
        carrier TEXT,
        ownership_type TEXT,
        is_active INTEGER NOT NULL,
        connection_id TEXT,
        authorization_status TEXT NOT NULL,
        authorization_type TEXT,
        oauth_url TEXT,
        service_levels_json TEXT NOT NULL DEFAULT '[]',
        raw_json TEXT NOT NULL,
        checked_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, environment, tenant_id, carrier_account_id)
      ) STRICT;
    `);
  },
};
