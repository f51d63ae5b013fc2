import type { Migration } from './index.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;
const ON = `WHEN (SELECT enabled FROM site_sync WHERE id = 1) = 1`;

/**
 * Owned by the site store: a label marked voided at the carrier (migration 21), or its mark taken
 * back, goes to the store again with its mark (SiteOutbox sends a label with `voided`), so the
 * console and Site History leave it out of the day's labels and cost.
 */
export const migration022: Migration = {
  version: 22,
  name: 'site-label-voids',
  up(db) {
    db.exec(`
      CREATE TRIGGER site_outbox_label_void AFTER INSERT ON label_voids ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('label', NEW.label_id, ${NOW_MS}); END;
      CREATE TRIGGER site_outbox_label_unvoid AFTER DELETE ON label_voids ${ON}
      BEGIN INSERT INTO site_outbox (entity, local_key, created_at) VALUES ('label', OLD.label_id, ${NOW_MS}); END;
    `);
  },
};
