import { siteMigration001 } from './migrations/001-site-store.js';
import { siteMigration002 } from './migrations/002-site-services.js';
import { siteMigration003 } from './migrations/003-apply-batch.js';
import { siteMigration004 } from './migrations/004-import-claim-release.js';

/**
 * The site store's own numbered, forward-only migrations (PostgreSQL). Each runs in one
 * transaction with its row in site_schema_migrations; a database that has a version this
 * station does not know is refused, never touched. Never edit a migration that has shipped.
 *
 * Every row is scoped by profile + environment (+ tenant) exactly as the station's SQLite is,
 * and keyed by station id + the station's own ids, so a replayed upsert never duplicates.
 */
export interface SiteMigration {
  version: number;
  name: string;
  sql: string;
}

/** One file per migration in ./migrations, numbered as its version. */
export const siteMigrations: readonly SiteMigration[] = [
  siteMigration001,
  siteMigration002,
  siteMigration003,
  siteMigration004,
];

export const SITE_SCHEMA_VERSION = siteMigrations.length;
