import type { SiteMigration } from '../schema.js';

/**
 * The site store of issue 12: the stations and their lag, site settings, every station's
 * purchases, labels and reprints, the order and import claims, site-wide needs attention,
 * the stations' network printers and the orders imported at any station.
 */
export const siteMigration001: SiteMigration = {
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
};
