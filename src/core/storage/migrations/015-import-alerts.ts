import type { Migration } from './index.js';

/**
 * Owned by the order import (src/core/orders/import-alerts.ts): an order file from the hot folder
 * that had problems, kept until a shift lead dismisses it from Needs attention. The file itself
 * is in the hot folder's failed/ with its report; this row is what the station shows, so orders a
 * file lost are not only in a folder nobody opens.
 */
export const migration015: Migration = {
  version: 15,
  name: 'import-alerts',
  up(db) {
    db.exec(`
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
      CREATE INDEX import_alerts_open ON import_alerts (profile_id, environment)
        WHERE dismissed_at IS NULL;
    `);
  },
};
