import type pg from 'pg';
import { SiteStoreError } from './errors.js';
import { siteMigrations, type SiteMigration } from './schema.js';

/** A lock id of our own for migrations (pg_advisory_xact_lock): one station migrates at a time. */
const MIGRATION_LOCK = 0x5_1735;

/**
 * The site store's schema: which version the database is at, and bringing it to this
 * version's. SiteStore delegates to it; `run` and `tx` turn a pg error into words for site IT.
 */
export class SiteMigrator {
  constructor(
    private readonly pool: pg.Pool,
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
    private readonly tx: <T>(work: (c: pg.PoolClient) => Promise<T>) => Promise<T>,
  ) {}

  /** The schema version of the database (0 when nothing was ever migrated). */
  async schemaVersion(): Promise<number> {
    return this.run(async () => {
      // Two statements: PostgreSQL resolves every table a statement names before it runs, so
      // one CASE over a table that does not exist yet fails instead of answering 0.
      const exists = await this.pool.query<{ t: string | null }>(
        `SELECT to_regclass('site_schema_migrations')::text AS t`,
      );
      if (!exists.rows[0]?.t) return 0;
      const { rows } = await this.pool.query<{ v: number | null }>(
        'SELECT COALESCE(max(version), 0) AS v FROM site_schema_migrations',
      );
      return Number(rows[0]?.v ?? 0);
    });
  }

  /**
   * The oldest site schema a station must know to use a store whose migrations go past
   * `known`: the most any of those later migrations asks (`readers_from`, or its own version
   * where it says none). Only asked of a store newer than `known` (≥ 5: the column is there).
   */
  async readersFrom(known: number): Promise<number> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ r: number | null }>(
        'SELECT max(COALESCE(readers_from, version)) AS r FROM site_schema_migrations WHERE version > $1',
        [known],
      );
      return Number(rows[0]?.r ?? known);
    });
  }

  /**
   * Brings the database to this version's schema, all pending migrations in one transaction
   * under an advisory lock (two stations starting at once migrate once). A database from a
   * newer version is refused and left untouched.
   */
  async migrate(
    list: readonly SiteMigration[] = siteMigrations,
  ): Promise<{ from: number; to: number }> {
    list.forEach((m, i) => {
      if (m.version !== i + 1) throw new Error(`site migration ${m.name} is numbered ${m.version}`);
    });
    // Read first, without DDL: a station's role may not create tables, and a store from a newer
    // version must be said as that, not as the role's missing rights. Checked again under the lock.
    const current = await this.schemaVersion();
    if (current > list.length) throw newerSchema(current, list.length);
    // Stations keep working while site IT migrates: a station's read that meets the migration's
    // table locks in the other order is a deadlock PostgreSQL ends by failing one side. The
    // migration, rolled back whole, is then simply made again (a station retries at its next
    // check-in anyway).
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.migrateOnce(list);
      } catch (error) {
        if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }

  private migrateOnce(list: readonly SiteMigration[]): Promise<{ from: number; to: number }> {
    return this.tx(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query(`CREATE TABLE IF NOT EXISTS site_schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const { rows } = await c.query<{ v: number | null }>(
        'SELECT max(version) AS v FROM site_schema_migrations',
      );
      const from = Number(rows[0]?.v ?? 0);
      if (from > list.length) throw newerSchema(from, list.length);
      for (const m of list.slice(from)) {
        await c.query(m.sql);
        await c.query('INSERT INTO site_schema_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
        // The column exists from migration 5 on (its own SQL adds it).
        if (m.readersFrom !== undefined)
          await c.query('UPDATE site_schema_migrations SET readers_from = $1 WHERE version = $2', [
            m.readersFrom,
            m.version,
          ]);
      }
      return { from, to: list.length };
    });
  }
}

/** How many times a migration that met a deadlock is made (the last failure is said). */
const DEADLOCK_ATTEMPTS = 5;

/** PostgreSQL's deadlock_detected (40P01), as pg threw it or wrapped in a SiteStoreError. */
function isDeadlock(error: unknown): boolean {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  return code(error) === '40P01' || code((error as { cause?: unknown } | null)?.cause) === '40P01';
}

function newerSchema(found: number, known: number): SiteStoreError {
  return new SiteStoreError({
    kind: 'newer-schema',
    message: `The site store was set up by a newer version of Shipping Station (schema ${found}, this station knows ${known}). Update this station; the site store was left untouched.`,
  });
}
