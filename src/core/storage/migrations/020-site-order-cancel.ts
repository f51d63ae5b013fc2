import type { Migration } from './index.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/**
 * Owned by the site store: a cancel (or reopen) of an order this station fetched from the site
 * store (source "site:…") goes to the store too, so every station's order claim refuses it.
 * Orders imported here already go on any change (migration 004); fetched ones did not, so that
 * a fetch is not sent back. The outbox sends the order with its `cancelled` (SiteOutbox).
 */
export const migration020: Migration = {
  version: 20,
  name: 'site-order-cancel',
  up(db) {
    db.exec(`
      CREATE TRIGGER site_outbox_order_cancel AFTER UPDATE OF cancelled ON orders
        WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1 AND NEW.source LIKE 'site:%'
          AND OLD.cancelled IS NOT NEW.cancelled
          AND json_extract(NEW.cancelled, '$.elsewhere') IS NULL
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('order', NEW.id, ${NOW_MS}); END;
    `);
  },
};
