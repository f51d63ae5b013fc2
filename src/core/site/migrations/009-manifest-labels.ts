import type { SiteMigration } from '../schema.js';

/**
 * Which labels each manifest made at the site took (the platform's label ids): a close-out at any
 * station, of its own labels or the whole site's, writes them here, so End of day's close-out
 * question at every station counts the labels already on a manifest apart from those that go on
 * a new one (the platform lists no manifests by label). A label keeps its first manifest.
 *
 * A new table only: stations of schema 4 to 8 keep using the store (they neither write nor read
 * it, and their close-out question counts as before).
 */
export const siteMigration009: SiteMigration = {
  version: 9,
  name: 'manifest-labels',
  readersFrom: 4,
  sql: `
      CREATE TABLE site_manifest_labels (
        profile_id TEXT NOT NULL,
        environment TEXT NOT NULL,
        platform_label_id TEXT NOT NULL,
        manifest_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        carrier TEXT NOT NULL,
        station_id TEXT NOT NULL,
        made_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (profile_id, environment, platform_label_id)
      );
      -- Every role that may write the site's labels (the stations' role, whatever site IT named
      -- it: station-role.sql's -v station_role) may record a manifest's labels.
      DO $$ DECLARE r TEXT; BEGIN
        FOR r IN SELECT rolname FROM pg_roles
                  WHERE NOT rolsuper AND rolname <> current_user
                    AND rolname <> (SELECT tableowner FROM pg_tables
                                     WHERE schemaname = 'public' AND tablename = 'site_labels')
                    AND has_table_privilege(oid, 'public.site_labels', 'INSERT')
        LOOP
          EXECUTE format('GRANT SELECT, INSERT ON site_manifest_labels TO %I', r);
        END LOOP;
      END $$;
    `,
};
