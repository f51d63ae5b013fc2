import type { Migration } from './index.js';

/**
 * Owned by the site sync (src/core/site/sync.ts): which database the station last sent its
 * history to (the site store's database OID, as PostgreSQL numbers it). A store restored from a
 * backup into the same name is a new database with a new OID: the station sends its whole
 * history again, as it does when pointed at another store.
 */
export const migration019: Migration = {
  version: 19,
  name: 'site-store-identity',
  up(db) {
    db.exec(`ALTER TABLE site_sync ADD COLUMN store_identity TEXT;`);
  },
};
