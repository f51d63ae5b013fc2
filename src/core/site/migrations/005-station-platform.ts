import type { SiteMigration } from '../schema.js';

/**
 * What each station last knew of the Shipping Platform (online, offline, its API key refused…),
 * published with its heartbeat, so the shift-lead console shows a station that cannot buy.
 * The first migration a station of this version does without: on a store still at schema 4 it
 * works as before and publishes no platform state (SITE_SCHEMA_OLDEST). It also records, for
 * each migration from here on, which stations may still use the store after it (`readers_from`).
 */
export const siteMigration005: SiteMigration = {
  version: 5,
  name: 'station-platform-state',
  readersFrom: 4,
  sql: `
      -- { state, detail, since } as the station's header says it; NULL until it publishes one.
      ALTER TABLE site_stations ADD COLUMN platform JSONB;
      -- The oldest site schema a station must know to go on using the store once this
      -- migration has run (NULL: this version itself). A station finding a store newer than
      -- it knows reads it: additive migrations keep the stations before them working.
      ALTER TABLE site_schema_migrations ADD COLUMN readers_from INTEGER;
    `,
};
