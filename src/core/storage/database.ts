import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { migrations, type Migration } from './migrations/index.js';
import { keepPrivate, makePrivateDir, makePrivateFile } from './private-files.js';

export type Db = Database.Database;

export class DatabaseError extends Error {
  constructor(
    readonly code: 'database-from-newer-version' | 'migration-failed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DatabaseError';
  }
}

export interface OpenDatabaseOptions {
  /** Used by tests of the migration runner itself; the app always uses the real list. */
  migrations?: readonly Migration[];
  /** better-sqlite3's nativeBinding, for hosts whose ABI differs from plain Node (Electron). */
  nativeBinding?: string;
  readonly?: boolean;
}

/**
 * Opens (creating if needed) the station database: WAL for concurrent readers while the spool
 * and the packer write, foreign keys on, a busy timeout so a second process waits instead of
 * failing, then the numbered migrations. A database written by a newer version of the app is
 * refused, never touched: shipping records are money.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  const onDisk = file !== ':memory:' && !options.readonly;
  if (onDisk) {
    makePrivateDir(dirname(file));
    // Created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the mode of
    // the database file, so they are private too.
    makePrivateFile(file);
  }
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  try {
    db.pragma('journal_mode = WAL');
    // A database created by an older version may have -wal/-shm files readable by others.
    if (onDisk) keepPrivate(`${file}-wal`, `${file}-shm`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (!options.readonly) migrate(db, options.migrations ?? migrations, file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Db, list: readonly Migration[], file = 'the station database'): void {
  const current = schemaVersion(db);
  const latest = list.length;
  list.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} is numbered ${m.version}, expected ${i + 1}`);
  });
  if (current > latest) {
    throw new DatabaseError(
      'database-from-newer-version',
      `${file} was written by a newer version of Shipping Station (schema ${current}, this version knows ${latest}). ` +
        'Install the newer version again; the database was left untouched.',
    );
  }
  if (current === latest) return;
  // All pending migrations in one transaction: either the station is on the new schema, or
  // nothing changed at all.
  const run = db.transaction(() => {
    for (const m of list.slice(current)) m.up(db);
    db.pragma(`user_version = ${latest}`);
  });
  try {
    run();
  } catch (cause) {
    throw new DatabaseError(
      'migration-failed',
      `Could not upgrade ${file} from schema ${current} to ${latest}; nothing was changed. (${(cause as Error).message})`,
      { cause },
    );
  }
}

const runners = new WeakMap<Db, (work: () => unknown) => unknown>();

/**
 * Runs `work` in a transaction (a savepoint inside another one): committed when it returns,
 * rolled back when it throws. The same as `db.transaction(work)()`, without building that
 * wrapper (five functions) for every call: the purchase path runs several per label.
 */
export function inTransaction<T>(db: Db, work: () => T): T {
  let run = runners.get(db);
  if (!run) {
    run = db.transaction((w: () => unknown) => w());
    runners.set(db, run);
  }
  return run(work) as T;
}
