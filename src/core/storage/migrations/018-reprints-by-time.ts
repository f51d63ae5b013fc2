import type { Migration } from './index.js';

/**
 * Owned by the end of day (src/core/labels/end-of-day.ts): the reprints of a profile by when they
 * were made, so a day's count reads its own rows instead of every reprint the station made.
 */
export const migration018: Migration = {
  version: 18,
  name: 'reprints-by-time',
  up(db) {
    db.exec(`CREATE INDEX reprints_by_time ON reprints (profile_id, environment, created_at);`);
  },
};
