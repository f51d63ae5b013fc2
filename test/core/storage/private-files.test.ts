import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/storage/database.js';
import { acquireDataDirLock } from '../../../src/core/station/lock.js';
import { ConfSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { tempDir } from '../../support/tmp.js';

const mode = (path: string) => statSync(path).mode & 0o777;

// A typical desktop umask lets everyone read new files; the station must not rely on it.
let previousUmask = 0;
beforeEach(() => {
  previousUmask = process.umask(0o022);
});
afterEach(() => {
  process.umask(previousUmask);
});

describe.runIf(process.platform !== 'win32')('the data directory is private to its user', () => {
  it('creates the data directory 0700 and station.db, its WAL and SHM 0600', () => {
    const dataDir = join(tempDir(), 'station');
    const unlock = acquireDataDirLock(dataDir);
    const db = openDatabase(join(dataDir, 'station.db'));
    try {
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'station.db'))).toBe(0o600);
      expect(mode(join(dataDir, 'station.db-wal'))).toBe(0o600);
      expect(mode(join(dataDir, 'station.db-shm'))).toBe(0o600);
      expect(mode(join(dataDir, 'station.lock'))).toBe(0o600);
    } finally {
      db.close();
      unlock();
    }
  });

  it('a database opened in a new directory creates that directory 0700', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const db = openDatabase(join(dir, 'station.db'));
    db.close();
    expect(mode(dir)).toBe(0o700);
  });

  it('settings.json is written 0600 in a directory created 0700', () => {
    const dir = join(tempDir(), 'fresh');
    new ConfSettingsStore(join(dir, 'settings.json')).set('a', 1);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'settings.json'))).toBe(0o600);
  });
});
