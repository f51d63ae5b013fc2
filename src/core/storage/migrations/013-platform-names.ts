import type { Migration } from './index.js';

/**
 * Owned by the station's status (src/core/station/platform-names.ts): the names the platform
 * last gave a profile's tenant and shipping site, so a station started while the platform does
 * not answer still names them on its header and in Settings (not by their ids). Keyed by the
 * platform's id as well as the profile's scope: a profile pointed at another tenant or site
 * shows that one's id until the platform names it.
 */
export const migration013: Migration = {
  version: 13,
  name: 'platform-names',
  up(db) {
    db.exec(`
      CREATE TABLE platform_names (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('tenant', 'site')),
        platform_id TEXT NOT NULL,
        name TEXT NOT NULL,
        read_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, environment, kind, platform_id)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
