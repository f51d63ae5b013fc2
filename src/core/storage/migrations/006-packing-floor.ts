import type { Migration } from './index.js';

/**
 * The packing floor (issue 15): item barcodes and images from the order file, item-by-item
 * verification of what goes in the box (with a shift lead's override), and batches of labels
 * bought in one run. Every row is reached through an order (profile + environment scoped) or
 * carries its own scope.
 */
export const migration006: Migration = {
  version: 6,
  name: 'packing-floor',
  up(db) {
    db.exec(`
      ALTER TABLE order_items ADD COLUMN barcode TEXT;
      ALTER TABLE order_items ADD COLUMN image_url TEXT;

      -- What the packer scanned into the box, per order item (key "<package>:<line>").
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

      -- Every scan and decision, kept for the shift lead (wrong items, overrides).
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
      CREATE INDEX verification_events_by_order ON verification_events (order_id, id);

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
      CREATE INDEX batches_by_scope ON batches (profile_id, environment, created_at);

      CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        order_id INTEGER NOT NULL REFERENCES orders (id),
        state TEXT NOT NULL CHECK (state IN ('waiting', 'working', 'bought', 'failed', 'skipped')),
        shipment_id INTEGER,
        label_id INTEGER,
        cost_cents INTEGER,
        failure TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (batch_id, position)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
