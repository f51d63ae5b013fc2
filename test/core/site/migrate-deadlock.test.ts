import { describe, expect, it } from 'vitest';
import { siteMigrations, type SiteMigration } from '../../../src/core/site/schema.js';
import { siteDatabase } from './support.js';
import { usePostgres } from '../../support/use-postgres.js';

const pgc = usePostgres();

/** Migrations of this test's own after the real ones: two tables, then a column on each. */
const n = siteMigrations.length;
const tables: SiteMigration[] = [
  ...siteMigrations,
  {
    version: n + 1,
    name: 'two tables',
    sql: 'CREATE TABLE dl_a (x int); CREATE TABLE dl_b (y int)',
  },
];
const columns: SiteMigration[] = [
  ...tables,
  { version: n + 2, name: 'a column on a', sql: 'ALTER TABLE dl_a ADD COLUMN z int' },
  { version: n + 3, name: 'a column on b', sql: 'ALTER TABLE dl_b ADD COLUMN w int' },
];

describe('site IT migrates while stations work', () => {
  it('a migration that meets a deadlock with a station is made again, not failed', async () => {
    const db = await siteDatabase(pgc.cluster);
    expect(await db.owner.migrate(tables)).toEqual({ from: n, to: n + 1 });
    // A station's transaction reads dl_b, and will read dl_a.
    const station = pgc.cluster.superuser(db.name);
    await station.connect();
    await station.query('BEGIN');
    await station.query('SELECT * FROM dl_b');
    // Site IT's migration takes dl_a and waits for dl_b.
    const migrating = db.owner.migrate(columns);
    const watcher = pgc.cluster.superuser(db.name);
    await watcher.connect();
    for (let i = 0; i < 100; i++) {
      const { rows } = await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = 'dl_b'::regclass`,
      );
      if (rows[0]!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await watcher.end();
    // The station's next read waits for the migration: a deadlock, which PostgreSQL ends by
    // failing the side that waited longest (the migration) after its deadlock_timeout.
    const read = await station.query('SELECT * FROM dl_a').then(
      () => 'read',
      (e: { code?: string }) => e.code,
    );
    await station.query(read === 'read' ? 'COMMIT' : 'ROLLBACK');
    await station.end();
    expect(read).toBe('read');
    // Rolled back whole and made again once the station's transaction ended.
    expect(await migrating).toEqual({ from: n + 1, to: n + 3 });
    expect(await db.owner.migrate(columns)).toEqual({ from: n + 3, to: n + 3 });
    await db.owner.close();
  });
});
