// Site-store test helpers: a migrated site database with the station role of
// resources/site/station-role.sql, on a cluster from usePostgres().
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { siteMigrations } from '../../../src/core/site/schema.js';
import { SiteStore } from '../../../src/core/site/store.js';
import { SUPERUSER_PASSWORD, type PostgresCluster } from '../../support/postgres.js';

export const STATION_PASSWORD = 'station-pw';
const roleSql = readFileSync(
  join(import.meta.dirname, '../../../resources/site/station-role.sql'),
  'utf8',
);
let count = 0;

export interface SiteDatabase {
  name: string;
  /** As site IT (the owner): migrates, changes site settings. */
  ownerUrl: string;
  /** As the stations' least-privilege role. */
  stationUrl: string;
  owner: SiteStore;
}

/**
 * A new database, migrated by site IT, with the station role granted as the SQL file says.
 * `schema`: migrated only that far (a store an earlier version set up).
 */
export async function siteDatabase(
  cluster: PostgresCluster,
  options: { schema?: number } = {},
): Promise<SiteDatabase> {
  const name = `site_${process.pid}_${++count}`;
  const ownerUrl = await cluster.createDatabase(name);
  const owner = new SiteStore({
    config: { url: ownerUrl, stationId: 'site-it', stationName: 'Site IT' },
    password: SUPERUSER_PASSWORD,
  });
  await owner.migrate(
    options.schema === undefined ? undefined : siteMigrations.slice(0, options.schema),
  );
  await grantStationRole(cluster, name);
  return {
    name,
    ownerUrl,
    owner,
    stationUrl: ownerUrl.replace('postgres://postgres@', 'postgres://shipping_station@'),
  };
}

/** The station role of resources/site/station-role.sql on database `name` (made if missing). */
export async function grantStationRole(cluster: PostgresCluster, name: string): Promise<void> {
  const c = cluster.superuser(name);
  await c.connect();
  await c.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'shipping_station') THEN
    CREATE ROLE shipping_station LOGIN PASSWORD '${STATION_PASSWORD}'; END IF; END $$`);
  // The file as psql would run it, minus CREATE ROLE (done above with the :station_password).
  await c.query(
    roleSql
      .split('\n')
      .filter((l) => !l.startsWith('--') && !l.startsWith('\\') && !l.startsWith('CREATE ROLE'))
      .join('\n')
      .replaceAll(':"station_role"', 'shipping_station')
      .replaceAll(":'station_role'", "'shipping_station'"),
  );
  await c.end();
}
