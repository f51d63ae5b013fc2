import type { Migration } from './index.js';

/**
 * Owned by the site link (src/core/site/labelled-elsewhere.ts): orders the site store said were
 * labelled at another station, as it said so when this station's claim was refused. Kept apart
 * from the orders table, so an order file imported again while the store is away does not make
 * the station forget, and read only while the store does not answer.
 */
export const migration016: Migration = {
  version: 16,
  name: 'labelled-elsewhere',
  up(db) {
    db.exec(`
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
    `);
  },
};
