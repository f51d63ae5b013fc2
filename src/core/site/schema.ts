import { siteMigration001 } from './migrations/001-site-store.js';
import { siteMigration002 } from './migrations/002-site-services.js';
import { siteMigration003 } from './migrations/003-apply-batch.js';
import { siteMigration004 } from './migrations/004-import-claim-release.js';
import { siteMigration005 } from './migrations/005-station-platform.js';
import { siteMigration006 } from './migrations/006-label-voids.js';
import { siteMigration007 } from './migrations/007-order-list-indexes.js';
import { siteMigration008 } from './migrations/008-label-packages.js';
import { siteMigration009 } from './migrations/009-manifest-labels.js';

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
  /**
   * The oldest site schema a station must know to keep using the store after this migration
   * (recorded in site_schema_migrations.readers_from from migration 5 on): an additive change
   * (a column, a table) keeps the stations before it working. Absent: this version itself.
   */
  readersFrom?: number;
}

/** One file per migration in ./migrations, numbered as its version. */
export const siteMigrations: readonly SiteMigration[] = [
  siteMigration001,
  siteMigration002,
  siteMigration003,
  siteMigration004,
  siteMigration005,
  siteMigration006,
  siteMigration007,
  siteMigration008,
  siteMigration009,
];

export const SITE_SCHEMA_VERSION = siteMigrations.length;

/**
 * The oldest store schema this version works with. A station does not upgrade a store that
 * is at least this (the stations of the version before would then refuse it): it works on
 * with what that schema has, without the later migrations' features, and says so, until site
 * IT runs `npm run site -- migrate` once every station is updated. An empty store, or one
 * older than this, is migrated by the first station allowed to.
 *
 * What each later migration adds, and so what a station on an older store does without (the
 * Site view and `npm run site -- status` say it).
 */
export const SITE_SCHEMA_OLDEST = 4;

/** The first schema whose labels keep their voided mark (site migration 6). */
export const SITE_SCHEMA_VOIDS = 6;
/** The first schema that keeps a retired station's row, for its name (site migration 6). */
export const SITE_SCHEMA_RETIRED = 6;
/** The first schema whose labels keep their packages and return mark (site migration 8). */
export const SITE_SCHEMA_PACKAGES = 8;
/** The first schema that keeps which labels each close-out's manifests took (site migration 9). */
export const SITE_SCHEMA_MANIFESTS = 9;
export const SITE_SCHEMA_FEATURES: Readonly<Record<number, string>> = {
  5: "the console's platform state of each station (an API key refused, the platform away)",
  6: "labels voided at the carrier left out of the console's labels and cost, and marked in Site History; a retired station's name kept on its labels",
  7: 'the Whole site order list read through indexes of its own (a second or more per read at a million orders without them)',
  8: "End of day for the whole site (each label's packages, and return labels kept off the site's manifests)",
  9: "End of day's close-out question counting the labels another station's close-out put on a manifest already",
};

/** What a store at `schema` lacks of this version's, in words ('' when nothing). */
export function missingSiteFeatures(
  schema: number,
  features: Readonly<Record<number, string>> = SITE_SCHEMA_FEATURES,
): string {
  return Object.entries(features)
    .filter(([v]) => Number(v) > schema)
    .map(([, what]) => what)
    .join('; ');
}

/**
 * A store this version works with but that lacks later migrations, for site IT: what is
 * missing and who mends it (the Site view, the log, `npm run site -- status`).
 */
export function olderSchemaWords(
  schema: number,
  /** What each migration adds (a migration that adds nothing a station uses has no entry). */
  features: Readonly<Record<number, string>> = SITE_SCHEMA_FEATURES,
  known = SITE_SCHEMA_VERSION,
): string {
  const missing = missingSiteFeatures(schema, features);
  return `The site store is at schema ${schema}; this version of Shipping Station knows ${known}. ${missing ? `Everything works but ${missing}.` : 'Everything works on it as it is: the later migrations add nothing this station does without.'} Site IT runs npm run site -- migrate as the site's owner once every station is updated (npm run site -- status lists each station's site schema). A station of schema 5 or later that cannot follow a store migrated past it stops using it and buys nothing until it is updated; one of schema 4 follows no later schema: update those first (site.md, Upgrading a site).`;
}
