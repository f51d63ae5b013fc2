import type { Migration } from './index.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;
const ON = `WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1`;
// Plain SQL only: any connection to the file (a tool, the sqlite3 shell) can still write these
// tables. The drainer looks for rows itself (a cheap indexed read every 100 ms).

/**
 * Owned by the site store (issue 12): the durable outbox a station drains into its site store.
 *
 * Triggers write the outbox in the same transaction as the change itself, so whatever this
 * station commits (a purchase, its label, a reprint) is in the outbox too, across kill -9 and
 * restarts, without any code path having to remember it. They fire only while a site store is
 * configured (site_sync.enabled): a station on its own writes nothing more than before.
 * The outbox names the row (entity + local key); the drainer reads the row as it is then.
 */
export const migration004: Migration = {
  version: 4,
  name: 'site-outbox',
  up(db) {
    db.exec(`
      CREATE TABLE site_sync (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        enabled INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
        -- The site's offlinePurchase setting as last read from the store ('allow' | 'refuse').
        offline_purchase TEXT NOT NULL DEFAULT 'allow' CHECK (offline_purchase IN ('allow', 'refuse')),
        last_synced_at TEXT,
        last_error TEXT
      ) STRICT;
      INSERT INTO site_sync (id) VALUES (1);

      CREATE TABLE site_outbox (
        id INTEGER PRIMARY KEY,
        entity TEXT NOT NULL CHECK (entity IN ('order', 'purchase', 'label', 'reprint', 'site-reprint')),
        local_key TEXT NOT NULL,
        -- epoch milliseconds: the header's "37 changes waiting, 4 min"
        created_at INTEGER NOT NULL
      ) STRICT;

      -- A reprint on this station of a label another station bought (found in site History).
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

      -- Orders imported here (not those fetched from the site store) go to every station.
      CREATE TRIGGER site_outbox_order_insert AFTER INSERT ON orders ${ON} AND NEW.source NOT LIKE 'site:%'
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('order', NEW.id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_order_update AFTER UPDATE ON orders ${ON} AND NEW.source NOT LIKE 'site:%'
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('order', NEW.id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_purchase_insert AFTER INSERT ON label_purchases ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('purchase', NEW.id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_purchase_update AFTER UPDATE ON label_purchases ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('purchase', NEW.id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_label_insert AFTER INSERT ON labels ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('label', NEW.id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_reprint_insert AFTER INSERT ON reprints ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('reprint', NEW.id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_site_reprint_insert AFTER INSERT ON site_reprint_audit ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('site-reprint', NEW.id, ${NOW_MS}); END;
    `);
  },
};
