-- schema version 24

-- view order_status_now
CREATE VIEW order_status_now AS
        SELECT o.id, o.profile_id, o.environment, CASE
    WHEN EXISTS (SELECT 1 FROM labels l WHERE l.order_id = o.id) THEN 'labelled'
    WHEN o.cancelled IS NOT NULL THEN 'cancelled'
    WHEN EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.state = 'queued') THEN 'queued'
    WHEN (SELECT s.state FROM shipments s WHERE s.order_id = o.id AND s.state <> 'cancelled'
          ORDER BY s.id DESC LIMIT 1) IN ('failed', 'unknown') THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM batch_items b WHERE b.order_id = o.id AND b.state = 'failed'
          AND b.shipment_id IS NULL AND b.order_version = o.updated_at
          AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.id > b.last_shipment_id))
      THEN 'failed'
    WHEN EXISTS (SELECT 1 FROM order_verifications v WHERE v.order_id = o.id
          AND v.order_version = o.updated_at AND (v.complete = 1 OR v.override_by IS NOT NULL)) THEN 'verified'
    ELSE 'open' END AS status FROM orders o;

-- trigger label_day_counts_delete
CREATE TRIGGER label_day_counts_delete AFTER DELETE ON labels BEGIN
        UPDATE label_day_counts SET n = n - 1
         WHERE profile_id = OLD.profile_id AND environment = OLD.environment
           AND day = substr(OLD.created_at, 1, 10) AND tenant_id = OLD.tenant_id;
      END;

-- trigger label_day_counts_insert
CREATE TRIGGER label_day_counts_insert AFTER INSERT ON labels BEGIN
        INSERT INTO label_day_counts (profile_id, environment, day, tenant_id, n)
        VALUES (NEW.profile_id, NEW.environment, substr(NEW.created_at, 1, 10), NEW.tenant_id, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
      END;

-- trigger label_day_counts_update
CREATE TRIGGER label_day_counts_update AFTER UPDATE OF profile_id, environment, tenant_id, created_at ON labels
      BEGIN
        UPDATE label_day_counts SET n = n - 1
         WHERE profile_id = OLD.profile_id AND environment = OLD.environment
           AND day = substr(OLD.created_at, 1, 10) AND tenant_id = OLD.tenant_id;
        INSERT INTO label_day_counts (profile_id, environment, day, tenant_id, n)
        VALUES (NEW.profile_id, NEW.environment, substr(NEW.created_at, 1, 10), NEW.tenant_id, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
      END;

-- trigger order_status_batch_items_delete
CREATE TRIGGER order_status_batch_items_delete AFTER DELETE ON batch_items BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_batch_items_insert
CREATE TRIGGER order_status_batch_items_insert AFTER INSERT ON batch_items BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_batch_items_moved
CREATE TRIGGER order_status_batch_items_moved AFTER UPDATE OF order_id ON batch_items
        WHEN OLD.order_id IS NOT NEW.order_id BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_batch_items_update
CREATE TRIGGER order_status_batch_items_update AFTER UPDATE OF state, shipment_id, order_id, order_version, last_shipment_id ON batch_items BEGIN

    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;
      END;

-- trigger order_status_labels_delete
CREATE TRIGGER order_status_labels_delete AFTER DELETE ON labels BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_labels_insert
CREATE TRIGGER order_status_labels_insert AFTER INSERT ON labels BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_labels_moved
CREATE TRIGGER order_status_labels_moved AFTER UPDATE OF order_id ON labels
        WHEN OLD.order_id IS NOT NEW.order_id BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_labels_update
CREATE TRIGGER order_status_labels_update AFTER UPDATE OF order_id ON labels BEGIN

    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;
      END;

-- trigger order_status_order_insert
CREATE TRIGGER order_status_order_insert AFTER INSERT ON orders BEGIN

    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;
      END;

-- trigger order_status_order_update
CREATE TRIGGER order_status_order_update AFTER UPDATE OF updated_at, cancelled ON orders BEGIN

    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;
      END;

-- trigger order_status_order_verifications_delete
CREATE TRIGGER order_status_order_verifications_delete AFTER DELETE ON order_verifications BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_order_verifications_insert
CREATE TRIGGER order_status_order_verifications_insert AFTER INSERT ON order_verifications BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_order_verifications_moved
CREATE TRIGGER order_status_order_verifications_moved AFTER UPDATE OF order_id ON order_verifications
        WHEN OLD.order_id IS NOT NEW.order_id BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_order_verifications_update
CREATE TRIGGER order_status_order_verifications_update AFTER UPDATE OF order_id, order_version, complete, override_by ON order_verifications BEGIN

    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;
      END;

-- trigger order_status_shipments_delete
CREATE TRIGGER order_status_shipments_delete AFTER DELETE ON shipments BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_shipments_insert
CREATE TRIGGER order_status_shipments_insert AFTER INSERT ON shipments BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_shipments_moved
CREATE TRIGGER order_status_shipments_moved AFTER UPDATE OF order_id ON shipments
        WHEN OLD.order_id IS NOT NEW.order_id BEGIN
    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = OLD.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status; END;

-- trigger order_status_shipments_update
CREATE TRIGGER order_status_shipments_update AFTER UPDATE OF state, order_id ON shipments BEGIN

    INSERT INTO order_status (order_id, profile_id, environment, status)
    SELECT id, profile_id, environment, status FROM order_status_now WHERE id = NEW.order_id
    ON CONFLICT (order_id) DO UPDATE SET status = excluded.status
      WHERE order_status.status IS NOT excluded.status;
      END;

-- trigger site_outbox_label_insert
CREATE TRIGGER site_outbox_label_insert AFTER INSERT ON labels WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('label', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_label_unvoid
CREATE TRIGGER site_outbox_label_unvoid AFTER DELETE ON label_voids WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('label', OLD.label_id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_label_void
CREATE TRIGGER site_outbox_label_void AFTER INSERT ON label_voids WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('label', NEW.label_id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_order_cancel
CREATE TRIGGER site_outbox_order_cancel AFTER UPDATE OF cancelled ON orders
        WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1 AND NEW.source LIKE 'site:%'
          AND OLD.cancelled IS NOT NEW.cancelled
          AND json_extract(NEW.cancelled, '$.elsewhere') IS NULL
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('order', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_order_insert
CREATE TRIGGER site_outbox_order_insert AFTER INSERT ON orders WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1 AND NEW.source NOT LIKE 'site:%'
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('order', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_order_update
CREATE TRIGGER site_outbox_order_update AFTER UPDATE ON orders WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1 AND NEW.source NOT LIKE 'site:%'
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('order', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_purchase_insert
CREATE TRIGGER site_outbox_purchase_insert AFTER INSERT ON label_purchases WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('purchase', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_purchase_update
CREATE TRIGGER site_outbox_purchase_update AFTER UPDATE ON label_purchases WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('purchase', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_reprint_insert
CREATE TRIGGER site_outbox_reprint_insert AFTER INSERT ON reprints WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('reprint', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- trigger site_outbox_site_reprint_insert
CREATE TRIGGER site_outbox_site_reprint_insert AFTER INSERT ON site_reprint_audit WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('site-reprint', NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER)); END;

-- table batch_items
CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        order_id INTEGER NOT NULL REFERENCES orders (id),
        state TEXT NOT NULL CHECK (state IN ('waiting', 'working', 'bought', 'failed', 'skipped')),
        shipment_id INTEGER,
        label_id INTEGER,
        cost_cents INTEGER,
        failure TEXT,
        updated_at TEXT NOT NULL, order_version TEXT, last_shipment_id INTEGER,
        PRIMARY KEY (batch_id, position)
      ) STRICT, WITHOUT ROWID;

-- table batches
CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'stopped', 'done')),
        description TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

-- table carrier_account_health
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

-- table import_alerts
CREATE TABLE import_alerts (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        file_name TEXT NOT NULL,
        moved_to TEXT NOT NULL,
        orders_left_out INTEGER NOT NULL CHECK (orders_left_out >= 0),
        problem_count INTEGER NOT NULL CHECK (problem_count >= 0),
        -- JSON: the first few problems, as the report has them
        problems TEXT NOT NULL,
        created_at TEXT NOT NULL,
        dismissed_at TEXT,
        dismissed_by TEXT
      ) STRICT;

-- table label_day_counts
CREATE TABLE label_day_counts (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        day TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (profile_id, environment, day, tenant_id)
      ) STRICT, WITHOUT ROWID;

-- table label_packages
CREATE TABLE label_packages (
        label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
        package_index INTEGER NOT NULL,
        tracking_number TEXT NOT NULL,
        PRIMARY KEY (label_id, package_index)
      ) STRICT, WITHOUT ROWID;

-- table label_purchases
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

-- table label_voids
CREATE TABLE label_voids (
        label_id INTEGER PRIMARY KEY REFERENCES labels (id) ON DELETE CASCADE,
        voided_by TEXT NOT NULL,
        reason TEXT NOT NULL,
        voided_at TEXT NOT NULL
      ) STRICT;

-- table label_zpl
CREATE TABLE label_zpl (
        label_id INTEGER PRIMARY KEY REFERENCES labels (id) ON DELETE CASCADE,
        zpl TEXT NOT NULL
      ) STRICT;

-- table labels
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
        stored_at TEXT NOT NULL, return_of_label_id INTEGER REFERENCES labels (id),
        UNIQUE (profile_id, environment, platform_label_id)
      ) STRICT;

-- table manifest_labels
CREATE TABLE manifest_labels (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        platform_label_id TEXT NOT NULL,
        manifest_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        carrier TEXT NOT NULL,
        made_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, environment, platform_label_id)
      ) WITHOUT ROWID;

-- table offline_queue
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

-- table order_items
CREATE TABLE order_items (
        order_id INTEGER NOT NULL,
        package_index INTEGER NOT NULL,
        line INTEGER NOT NULL,
        sku TEXT NOT NULL,
        name TEXT NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        value_cents INTEGER,
        weight_lbs REAL, details TEXT, barcode TEXT, image_url TEXT,
        PRIMARY KEY (order_id, package_index, line),
        FOREIGN KEY (order_id, package_index)
          REFERENCES order_packages (order_id, package_index) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;

-- table order_packages
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

-- table order_status
CREATE TABLE "order_status" (
        order_id INTEGER PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        status TEXT NOT NULL
          CHECK (status IN ('open', 'verified', 'labelled', 'queued', 'failed', 'cancelled'))
      ) STRICT;

-- table order_verifications
CREATE TABLE order_verifications (
        order_id INTEGER PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
        -- The order's updated_at when these counts began: a re-imported order starts again.
        order_version TEXT NOT NULL,
        counts TEXT NOT NULL,
        -- Every line scanned to its quantity (the Orders view filters on it).
        complete INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
        override_by TEXT,
        override_reason TEXT,
        override_at TEXT,
        updated_at TEXT NOT NULL
      ) STRICT;

-- table orders
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
        updated_at TEXT NOT NULL, options TEXT, search_text TEXT NOT NULL DEFAULT '', cancelled TEXT, shipping_changed_at TEXT, shipping_changed TEXT,
        -- Also the scan index: a scanned order number is looked up across the profile's brands.
        UNIQUE (profile_id, environment, order_number, tenant_id)
      ) STRICT;

-- table platform_names
CREATE TABLE platform_names (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('tenant', 'site')),
        platform_id TEXT NOT NULL,
        name TEXT NOT NULL,
        read_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, environment, kind, platform_id)
      ) STRICT, WITHOUT ROWID;

-- table print_job_events
CREATE TABLE print_job_events (
        id INTEGER PRIMARY KEY,
        job_id INTEGER NOT NULL REFERENCES print_jobs (id),
        at TEXT NOT NULL,
        state TEXT NOT NULL,
        message TEXT
      ) STRICT;

-- table print_jobs
CREATE TABLE print_jobs (
        id INTEGER PRIMARY KEY,
        printer_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('label', 'test', 'slip', 'reprint')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'printed', 'failed', 'unknown', 'cancelled')),
        payload BLOB NOT NULL,
        label_id TEXT,
        order_reference TEXT,
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error TEXT,
        last_error_code TEXT,
        -- epoch milliseconds; a queued job is not tried before this
        next_attempt_at INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        printed_at TEXT
      ) STRICT;

-- table reprints
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

-- table shipment_events
CREATE TABLE shipment_events (
        id INTEGER PRIMARY KEY,
        shipment_id INTEGER NOT NULL REFERENCES shipments (id),
        kind TEXT NOT NULL,
        detail TEXT,
        at TEXT NOT NULL
      ) STRICT;

-- table shipments
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
      , return_of_label_id INTEGER REFERENCES labels (id)) STRICT;

-- table site_labelled_elsewhere
CREATE TABLE site_labelled_elsewhere (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        station_id TEXT NOT NULL,
        station_name TEXT NOT NULL,
        packer TEXT,
        -- ISO 8601: when the other station claimed the order, as the store said
        claimed_at TEXT NOT NULL,
        label_local_id INTEGER NOT NULL,
        tracking_number TEXT NOT NULL,
        -- epoch ms: when the store said it (old rows are dropped as new ones come)
        learnt_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, environment, tenant_id, order_number)
      ) STRICT, WITHOUT ROWID;

-- table site_outbox
CREATE TABLE site_outbox (
        id INTEGER PRIMARY KEY,
        entity TEXT NOT NULL CHECK (entity IN ('order', 'purchase', 'label', 'reprint', 'site-reprint')),
        local_key TEXT NOT NULL,
        -- epoch milliseconds: the header's "37 changes waiting, 4 min"
        created_at INTEGER NOT NULL
      ) STRICT;

-- table site_reprint_audit
CREATE TABLE site_reprint_audit (
        id INTEGER PRIMARY KEY,
        label_station_id TEXT NOT NULL,
        label_local_id INTEGER NOT NULL,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        order_number TEXT NOT NULL,
        station_user TEXT NOT NULL,
        reason TEXT NOT NULL,
        printer_id TEXT NOT NULL,
        print_job_id INTEGER,
        created_at TEXT NOT NULL
      ) STRICT;

-- table site_sync
CREATE TABLE site_sync (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
        -- The site's offlinePurchase setting as last read from the store ('allow' | 'refuse').
        offline_purchase TEXT NOT NULL DEFAULT 'allow' CHECK (offline_purchase IN ('allow', 'refuse')),
        last_synced_at TEXT,
        last_error TEXT
      , store_identity TEXT) STRICT;

-- table station_users
CREATE TABLE station_users (
        user_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('packer', 'lead')),
        badge_sha256 TEXT UNIQUE,
        pin_hash TEXT,
        active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
        origin TEXT NOT NULL CHECK (origin IN ('local', 'site')),
        updated_at TEXT NOT NULL
      ) STRICT;

-- table tracker_scopes
CREATE TABLE tracker_scopes (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        scope_tenant_id TEXT NOT NULL,
        UNIQUE (profile_id, environment, scope_tenant_id)
      ) STRICT;

-- table tracker_sync
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

-- table trackers
CREATE TABLE "trackers" (
        id INTEGER PRIMARY KEY,
        scope_id INTEGER NOT NULL REFERENCES tracker_scopes (id),
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
        -- [[status, description, location, occurredAt], …], oldest first as the platform sent them.
        events_json TEXT NOT NULL DEFAULT '[]',
        created_at TEXT,
        -- The tracker's updatedAt as epoch ms: ordering, the newer-wins rule and the watermark.
        updated_at_ms INTEGER NOT NULL,
        first_seen_ms INTEGER NOT NULL,
        last_changed_ms INTEGER NOT NULL,
        UNIQUE (scope_id, tracking_number)
      ) STRICT;

-- table verification_events
CREATE TABLE verification_events (
        id INTEGER PRIMARY KEY,
        order_id INTEGER NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('counted', 'wrong-item', 'too-many', 'override', 'reset')),
        value TEXT,
        quantity INTEGER,
        station_user TEXT,
        detail TEXT,
        at TEXT NOT NULL
      ) STRICT;

-- index batch_items_failed_by_order
CREATE INDEX batch_items_failed_by_order ON batch_items (order_id)
        WHERE state = 'failed' AND shipment_id IS NULL;

-- index batches_by_scope
CREATE INDEX batches_by_scope ON batches (profile_id, environment, created_at);

-- index import_alerts_open
CREATE INDEX import_alerts_open ON import_alerts (profile_id, environment)
        WHERE dismissed_at IS NULL;

-- index label_packages_by_tracking
CREATE INDEX label_packages_by_tracking ON label_packages (tracking_number);

-- index label_purchases_by_shipment
CREATE INDEX label_purchases_by_shipment ON label_purchases (shipment_id);

-- index label_purchases_by_state
CREATE INDEX label_purchases_by_state ON label_purchases (profile_id, environment, state);

-- index labels_by_date
CREATE INDEX labels_by_date ON labels (profile_id, environment, created_at, id);

-- index labels_by_order
CREATE INDEX labels_by_order ON labels (profile_id, environment, order_number, created_at);

-- index labels_by_order_id
CREATE INDEX labels_by_order_id ON labels (order_id);

-- index labels_by_return_of
CREATE INDEX labels_by_return_of ON labels (return_of_label_id) WHERE return_of_label_id IS NOT NULL;

-- index labels_by_tenant_date
CREATE INDEX labels_by_tenant_date ON labels (profile_id, environment, tenant_id, created_at, id);

-- index offline_queue_waiting
CREATE INDEX offline_queue_waiting ON offline_queue (profile_id, environment, state, id);

-- index order_status_by_scope
CREATE INDEX order_status_by_scope ON order_status (profile_id, environment);

-- index order_status_by_status
CREATE INDEX order_status_by_status ON order_status (profile_id, environment, status, order_id);

-- index orders_by_update
CREATE INDEX orders_by_update ON orders (profile_id, environment, updated_at);

-- index print_job_events_by_job
CREATE INDEX print_job_events_by_job ON print_job_events (job_id, id);

-- index print_jobs_by_label
CREATE INDEX print_jobs_by_label ON print_jobs (label_id) WHERE label_id IS NOT NULL;

-- index print_jobs_by_order
CREATE INDEX print_jobs_by_order ON print_jobs (order_reference) WHERE order_reference IS NOT NULL;

-- index print_jobs_by_state
CREATE INDEX print_jobs_by_state ON print_jobs (state, printer_id, id);

-- index reprints_by_label
CREATE INDEX reprints_by_label ON reprints (label_id, id);

-- index reprints_by_time
CREATE INDEX reprints_by_time ON reprints (profile_id, environment, created_at);

-- index shipment_events_by_shipment
CREATE INDEX shipment_events_by_shipment ON shipment_events (shipment_id, id);

-- index shipments_by_order
CREATE INDEX shipments_by_order ON shipments (order_id, id);

-- index shipments_by_state
CREATE INDEX shipments_by_state ON shipments (profile_id, environment, state);

-- index trackers_by_status
CREATE INDEX trackers_by_status ON trackers (scope_id, status, updated_at_ms DESC);

-- index trackers_by_tenant
CREATE INDEX trackers_by_tenant
        ON trackers (scope_id, tenant_id, status, updated_at_ms DESC);

-- index verification_events_by_order
CREATE INDEX verification_events_by_order ON verification_events (order_id, id);
