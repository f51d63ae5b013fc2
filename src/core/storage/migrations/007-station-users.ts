import type { Migration } from './index.js';

/**
 * Owned by users and roles (issue 14): the station's list of users. On a station alone it is
 * the list (kept by `npm run site -- users … --station-db`); with a site store it is a copy of
 * the site's users (origin 'site'), refreshed while the store answers, so sign-in keeps working
 * when it does not. Only hashes are kept (badge SHA-256, PIN scrypt).
 */
export const migration007: Migration = {
  version: 7,
  name: 'station-users',
  up(db) {
    db.exec(`
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
    `);
  },
};
