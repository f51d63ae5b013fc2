import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DatabaseError, openDatabase, schemaVersion } from '../../../src/core/storage/database.js';
import type { Migration } from '../../../src/core/storage/migrations/index.js';
import { tempDir } from '../../support/tmp.js';

const two: Migration[] = [
  {
    version: 1,
    name: 'notes',
    up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT'),
  },
  { version: 2, name: 'notes-tag', up: (db) => db.exec('ALTER TABLE notes ADD COLUMN tag TEXT') },
];

describe('openDatabase', () => {
  it('creates the file in WAL mode with foreign keys and applies every migration', () => {
    const file = join(tempDir(), 'nested', 'station.db');
    const db = openDatabase(file, { migrations: two });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBe(2);
    db.prepare('INSERT INTO notes (body, tag) VALUES (?, ?)').run('hello', 'x');
    db.close();
  });

  it('applies only the pending migrations and keeps the data', () => {
    const file = join(tempDir(), 'station.db');
    const first = openDatabase(file, { migrations: two.slice(0, 1) });
    first.prepare('INSERT INTO notes (body) VALUES (?)').run('kept');
    first.close();
    const db = openDatabase(file, { migrations: two });
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare('SELECT body FROM notes').all()).toEqual([{ body: 'kept' }]);
    db.close();
  });

  it('refuses a database from a newer version and leaves it untouched', () => {
    const file = join(tempDir(), 'station.db');
    openDatabase(file, { migrations: two }).close();
    let error: unknown;
    try {
      openDatabase(file, { migrations: two.slice(0, 1) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).code).toBe('database-from-newer-version');
    expect((error as Error).message).toMatch(/newer version of Shipping Station/);
    const db = openDatabase(file, { migrations: two });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'notes'").get()).toEqual({
      name: 'notes',
    });
    db.close();
  });

  it('rolls back every pending migration when one fails', () => {
    const file = join(tempDir(), 'station.db');
    const broken: Migration[] = [
      two[0]!,
      { version: 2, name: 'broken', up: (db) => db.exec('ALTER TABLE nope ADD COLUMN x') },
    ];
    expect(() => openDatabase(file, { migrations: broken })).toThrow(/nothing was changed/);
    const db = openDatabase(file, { migrations: [] });
    expect(schemaVersion(db)).toBe(0);
    expect(
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'notes'").get(),
    ).toEqual({ n: 0 });
    db.close();
  });
});
