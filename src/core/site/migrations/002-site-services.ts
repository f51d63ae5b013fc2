import type { SiteMigration } from '../schema.js';

/**
 * The site services of issue 14: the one tracker poller's results, the console's
 * heartbeat and carrier health, site users.
 */
export const siteMigration002: SiteMigration = {
  version: 2,
  name: 'site-services',
  sql: `
      -- Issue 14: one tracker poller per site, the shift-lead console, users and site settings.

      -- Trackers as the site's one poller (the advisory-lock holder) received them; every other
      -- station copies them into its own SQLite (newer updatedAt wins, as locally).
      CREATE TABLE site_trackers (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        scope_tenant_id TEXT NOT NULL,
        tracking_number TEXT NOT NULL,
        tenant_id TEXT,
        status TEXT,
        updated_at_ms BIGINT NOT NULL,
        -- The tracker as GET /api/v1/trackers returned it.
        tracker_json JSONB NOT NULL,
        -- Order of arrival in the store: followers read what is newer than the last they saw.
        seq BIGSERIAL NOT NULL,
        PRIMARY KEY (profile_id, environment, scope_tenant_id, tracking_number)
      );
      CREATE INDEX site_trackers_by_seq ON site_trackers (profile_id, environment, scope_tenant_id, seq);

      -- Where the site's tracker polling stands, so a new leader goes on from there.
      CREATE TABLE site_tracker_sync (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        scope_tenant_id TEXT NOT NULL,
        watermark_ms BIGINT,
        last_poll_at TIMESTAMPTZ,
        last_success_at TIMESTAMPTZ,
        last_error TEXT,
        leader_station_id TEXT,
        PRIMARY KEY (profile_id, environment, scope_tenant_id)
      );

      -- What a station publishes with each heartbeat for the console.
      ALTER TABLE site_stations ADD COLUMN app_version TEXT;
      ALTER TABLE site_stations ADD COLUMN signed_in_user TEXT;
      -- [{ id, name, state, detail }] of the station's label printers.
      ALTER TABLE site_stations ADD COLUMN printers JSONB NOT NULL DEFAULT '[]';

      -- Carrier connections as each station last read them (the console lists the not AUTHORIZED).
      CREATE TABLE site_carrier_health (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        carrier_account_id TEXT NOT NULL,
        carrier TEXT NOT NULL,
        authorization_status TEXT NOT NULL,
        station_id TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (profile_id, environment, tenant_id, carrier_account_id)
      );

      -- Site users: packers and shift leads. Badges and PINs are stored as hashes only
      -- (badge: SHA-256 of the scanned code, for lookup; PIN: scrypt with a per-user salt).
      CREATE TABLE site_users (
        user_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('packer', 'lead')),
        badge_sha256 TEXT UNIQUE,
        pin_hash TEXT,
        active BOOLEAN NOT NULL DEFAULT true,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );


      INSERT INTO site_settings (key, value) VALUES ('reprintsWithoutLead', '2') ON CONFLICT DO NOTHING;

      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shipping_station') THEN
          GRANT SELECT ON site_trackers, site_tracker_sync, site_carrier_health, site_users TO shipping_station;
          GRANT INSERT, UPDATE ON site_trackers, site_tracker_sync, site_carrier_health TO shipping_station;
          GRANT USAGE ON SEQUENCE site_trackers_seq_seq TO shipping_station;
        END IF;
      END $$;
    `,
};
