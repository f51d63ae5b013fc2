import type { SiteMigration } from '../schema.js';

/**
 * What each station last knew of the Shipping Platform (online, offline, its API key refused…),
 * published with its heartbeat, so the shift-lead console shows a station that cannot buy.
 * The first migration a station of this version does without: on a store still at schema 4 it
 * works as before and publishes no platform state (SITE_SCHEMA_OLDEST).
 */
export const siteMigration005: SiteMigration = {
  version: 5,
  name: 'station-platform-state',
  sql: `
      -- { state, detail, since } as the station's header says it; NULL until it publishes one.
      ALTER TABLE site_stations ADD COLUMN platform JSONB;
    `,
};
