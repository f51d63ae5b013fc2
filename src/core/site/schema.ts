/**
 * The site store's own numbered, forward-only migrations (PostgreSQL). Each runs in one
 * transaction with its row in site_schema_migrations; a database that has a version this
 * station does not know is refused, never touched. Never edit a migration that has shipped.
 *
 * Every row is scoped by profile + environment (+ tenant) exactly as the station's SQLite is,
 * and keyed by station id + the station's own ids, so a replayed upsert never duplicates.
 */
export interface SiteMigration {
  version: number;
  name: string;
  sql: string;
}

export const siteMigrations: readonly SiteMigration[] = [
  {
    version: 1,
    name: 'site-store',
    sql: `
      -- The stations of the site and how far behind each one is (written by the station itself).
      CREATE TABLE site_stations (
        station_id TEXT PRIMARY KEY,
        station_name TEXT NOT NULL,
        last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        outbox_depth INTEGER NOT NULL DEFAULT 0,
        outbox_oldest_at TIMESTAMPTZ,
        -- The station's own queues as it last reported them: the site-wide queue view.
        queued_shipments INTEGER NOT NULL DEFAULT 0,
        queued_print_jobs INTEGER NOT NULL DEFAULT 0,
        needs_attention INTEGER NOT NULL DEFAULT 0
      );

      -- Site-wide settings (offlinePurchase: allow | refuse). Stations cache the last value.
      CREATE TABLE site_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      INSERT INTO site_settings (key, value) VALUES ('offlinePurchase', 'allow');

      -- Every label purchase of every station (the station's label_purchases).
      CREATE TABLE site_purchases (
        station_id TEXT NOT NULL,
        purchase_id TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        order_reference TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('purchasing', 'purchased', 'failed', 'unknown', 'not-bought')),
        packer TEXT,
        failure JSONB,
        confirmed_by TEXT,
        resolution TEXT,
        resolved_by TEXT,
        resolved_at TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL,
        synced_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (station_id, purchase_id)
      );
      CREATE INDEX site_purchases_by_state ON site_purchases (profile_id, environment, state)
        WHERE state IN ('purchasing', 'unknown');
      CREATE INDEX site_purchases_by_order ON site_purchases (profile_id, environment, tenant_id, order_number);

      -- Every label of every station: what site-wide History searches.
      CREATE TABLE site_labels (
        station_id TEXT NOT NULL,
        local_id BIGINT NOT NULL,
        purchase_id TEXT NOT NULL,
        platform_label_id TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        order_reference TEXT NOT NULL,
        tracking_number TEXT NOT NULL,
        carrier TEXT NOT NULL,
        service_level TEXT NOT NULL,
        cost_cents BIGINT NOT NULL,
        currency TEXT NOT NULL,
        packer TEXT,
        created_at TIMESTAMPTZ NOT NULL,
        synced_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (station_id, local_id)
      );
      CREATE INDEX site_labels_by_time ON site_labels (profile_id, environment, created_at DESC);
      CREATE INDEX site_labels_by_order ON site_labels (profile_id, environment, order_number text_pattern_ops);
      CREATE INDEX site_labels_by_tracking ON site_labels (profile_id, environment, tracking_number);
      CREATE INDEX site_labels_by_purchase ON site_labels (purchase_id);

      -- Reprints with reason, who and where, from any station. source: 'local' (a label this
      -- station bought; local_id = its reprints.id) or 'site' (a label another station bought,
      -- found in site-wide History; local_id = its site_reprint_audit.id).
      CREATE TABLE site_reprints (
        station_id TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('local', 'site')),
        local_id BIGINT NOT NULL,
        label_station_id TEXT NOT NULL,
        label_local_id BIGINT NOT NULL,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        station_user TEXT NOT NULL,
        reason TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (station_id, source, local_id)
      );
      CREATE INDEX site_reprints_by_label ON site_reprints (label_station_id, label_local_id);

      -- The order claim taken before POST /api/v1/labels: one holder per order of the site.
      CREATE TABLE site_order_claims (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        station_id TEXT NOT NULL,
        station_name TEXT NOT NULL,
        purchase_id TEXT NOT NULL,
        packer TEXT,
        state TEXT NOT NULL CHECK (state IN ('in-flight', 'purchased', 'released')),
        claimed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (profile_id, environment, tenant_id, order_number)
      );

      -- Site-wide needs attention raised by the store itself (possible double label).
      CREATE TABLE site_attention (
        id BIGSERIAL PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('possible-double-label')),
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        -- Both purchases: [{ stationId, purchaseId }, ...]
        purchases JSONB NOT NULL,
        message TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        resolved_at TIMESTAMPTZ,
        resolved_by TEXT,
        resolution TEXT
      );
      CREATE UNIQUE INDEX site_attention_open ON site_attention (kind, profile_id, environment, tenant_id, order_number)
        WHERE resolved_at IS NULL;

      -- The network printers each station has (reported at check-in): a reprint may go to any.
      CREATE TABLE site_printers (
        station_id TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        name TEXT NOT NULL,
        host TEXT NOT NULL,
        port INTEGER NOT NULL,
        dpi INTEGER NOT NULL,
        -- false once the station no longer has it (rows are never deleted)
        active BOOLEAN NOT NULL DEFAULT true,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (station_id, printer_id)
      );

      -- Orders imported at any station: every station of the site can scan them.
      CREATE TABLE site_orders (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        station_id TEXT NOT NULL,
        source TEXT NOT NULL,
        -- The order as imported (IncomingOrder: shipTo, packages, serviceLevels).
        order_json JSONB NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (profile_id, environment, tenant_id, order_number)
      );
      CREATE INDEX site_orders_by_number ON site_orders (profile_id, environment, order_number);

      -- Order files claimed for import: one import per file per site.
      CREATE TABLE site_import_claims (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        file_sha256 TEXT NOT NULL,
        file_name TEXT NOT NULL,
        station_id TEXT NOT NULL,
        claimed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (profile_id, environment, file_sha256)
      );
    `,
  },
  {
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
  },
];

export const SITE_SCHEMA_VERSION = siteMigrations.length;
