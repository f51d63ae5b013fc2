import type { Migration } from './index.js';

/**
 * Owned by core (issue 3): orders, shipments, label purchases, labels, reprint audit, offline
 * queue. Every business row carries profile_id + environment + tenant_id so data of one
 * profile, environment or brand never leaks into another (an identifier of the sandbox is
 * never sent to production).
 *
 * Money is stored in integer cents. Times are ISO 8601 UTC strings (they sort as text).
 */
export const migration001: Migration = {
  version: 1,
  name: 'station',
  up(db) {
    db.exec(`
      CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL CHECK (environment IN ('embedded-sandbox', 'sandbox', 'production')),
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        ship_to TEXT NOT NULL,
        service_levels TEXT,
        source TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        -- Also the scan index: a scanned order number is looked up across the profile's brands.
        UNIQUE (profile_id, environment, order_number, tenant_id)
      ) STRICT;

      CREATE TABLE order_packages (
        order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        package_index INTEGER NOT NULL,
        box TEXT,
        weight_lbs REAL,
        length_in REAL,
        width_in REAL,
        height_in REAL,
        PRIMARY KEY (order_id, package_index)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE order_items (
        order_id INTEGER NOT NULL,
        package_index INTEGER NOT NULL,
        line INTEGER NOT NULL,
        sku TEXT NOT NULL,
        name TEXT NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        value_cents INTEGER,
        weight_lbs REAL,
        PRIMARY KEY (order_id, package_index, line),
        FOREIGN KEY (order_id, package_index)
          REFERENCES order_packages (order_id, package_index) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE shipments (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_id INTEGER NOT NULL REFERENCES orders (id),
        state TEXT NOT NULL CHECK (state IN (
          'ready', 'queued', 'rated', 'purchasing', 'purchased', 'print-queued',
          'failed', 'unknown', 'cancelled')),
        shipment TEXT NOT NULL,
        rates TEXT,
        selection TEXT,
        failure TEXT,
        station_user TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX shipments_by_order ON shipments (order_id, id);
      CREATE INDEX shipments_by_state ON shipments (profile_id, environment, state);

      CREATE TABLE label_purchases (
        id TEXT PRIMARY KEY,
        shipment_id INTEGER NOT NULL REFERENCES shipments (id),
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_reference TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL CHECK (state IN ('purchasing', 'purchased', 'failed', 'unknown', 'not-bought')),
        request TEXT NOT NULL,
        failure TEXT,
        confirmed_by TEXT,
        resolution TEXT,
        resolved_by TEXT,
        resolved_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX label_purchases_by_shipment ON label_purchases (shipment_id);
      CREATE INDEX label_purchases_by_state ON label_purchases (profile_id, environment, state);

      CREATE TABLE labels (
        id INTEGER PRIMARY KEY,
        purchase_id TEXT NOT NULL UNIQUE REFERENCES label_purchases (id),
        platform_label_id TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_id INTEGER NOT NULL REFERENCES orders (id),
        order_number TEXT NOT NULL,
        order_reference TEXT NOT NULL,
        tracking_number TEXT NOT NULL,
        tracker_id TEXT,
        carrier TEXT NOT NULL,
        service_level TEXT NOT NULL,
        carrier_account_id TEXT NOT NULL,
        cost_cents INTEGER NOT NULL,
        currency TEXT NOT NULL,
        zpl_dropped_at TEXT,
        label_url TEXT,
        created_at TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        UNIQUE (profile_id, environment, platform_label_id)
      ) STRICT;
      CREATE INDEX labels_by_order ON labels (profile_id, environment, order_number, created_at);
      CREATE INDEX labels_by_order_id ON labels (order_id);
      CREATE INDEX labels_by_date ON labels (profile_id, environment, created_at, id);
      CREATE INDEX labels_by_tenant_date ON labels (profile_id, environment, tenant_id, created_at, id);

      -- The ZPL (about 3 KB a label) apart from the record: a history page reads ~300-byte label
      -- rows packed many to a page, and touches ZPL only for a preview or a reprint. No row here
      -- means retention dropped it (labels.zpl_dropped_at says when).
      CREATE TABLE label_zpl (
        label_id INTEGER PRIMARY KEY REFERENCES labels (id) ON DELETE CASCADE,
        zpl TEXT NOT NULL
      ) STRICT;

      -- Every tracking number of a label (one per package), so a scan of any package finds it.
      CREATE TABLE label_packages (
        label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
        package_index INTEGER NOT NULL,
        tracking_number TEXT NOT NULL,
        PRIMARY KEY (label_id, package_index)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX label_packages_by_tracking ON label_packages (tracking_number);

      CREATE TABLE reprints (
        id INTEGER PRIMARY KEY,
        label_id INTEGER NOT NULL REFERENCES labels (id),
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        station_user TEXT NOT NULL,
        reason TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        -- print_jobs.id (migration 002) of the reprint's job.
        print_job_id INTEGER,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX reprints_by_label ON reprints (label_id, id);

      -- Shipments waiting for the platform to come back; drained in id order.
      CREATE TABLE offline_queue (
        id INTEGER PRIMARY KEY,
        shipment_id INTEGER NOT NULL UNIQUE REFERENCES shipments (id),
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('waiting', 'done', 'failed', 'needs-attention')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX offline_queue_waiting ON offline_queue (profile_id, environment, state, id);

      -- What happened to each shipment, in order: the shift lead's history and the test's witness.
      CREATE TABLE shipment_events (
        id INTEGER PRIMARY KEY,
        shipment_id INTEGER NOT NULL REFERENCES shipments (id),
        kind TEXT NOT NULL,
        detail TEXT,
        at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX shipment_events_by_shipment ON shipment_events (shipment_id, id);
    `);
  },
};
