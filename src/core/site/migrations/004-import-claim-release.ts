import type { SiteMigration } from '../schema.js';

/**
 * A station may give up its own claim on an order file whose import brought in no order (every
 * row refused: a brand the profile does not ship for, say), so the file can be imported once
 * that is put right. The one row a station may delete: a claim is neither money nor audit.
 */
export const siteMigration004: SiteMigration = {
  version: 4,
  name: 'import-claim-release',
  sql: `
      DO $$ BEGIN
        IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shipping_station') THEN
          GRANT DELETE ON site_import_claims TO shipping_station;
        END IF;
      END $$;
    `,
};
