import type { Migration } from './index.js';

/**
 * Owned by End of day's close-out (src/core/labels/manifest-records.ts): which labels each
 * manifest this station made took (the platform's label ids, as the manifest's answer lists
 * them), so the close-out question counts the labels that are on a manifest already apart from
 * those that go on a new one. The platform lists no manifests by label, so this is the station's
 * own record; with a site store the site keeps one too (site migration 9).
 */
export const migration024: Migration = {
  version: 24,
  name: 'manifest-labels',
  up(db) {
    db.exec(`
      CREATE TABLE manifest_labels (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        platform_label_id TEXT NOT NULL,
        manifest_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        carrier TEXT NOT NULL,
        made_at INTEGER NOT NULL,
        PRIMARY KEY (profile_id, environment, platform_label_id)
      ) WITHOUT ROWID;
    `);
  },
};
