import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase, schemaVersion } from '../../../src/core/storage/database.js';
import { migrations } from '../../../src/core/storage/migrations/index.js';
import { tempDir } from '../../support/tmp.js';

/**
 * The schema guard: migrating an empty database must give exactly the committed schema. A
 * change to any migration shows up here as a diff to review (regenerate with `vitest -u`).
 */
describe('station schema', () => {
  it('migrates an empty database to the committed snapshot', async () => {
    const db = openDatabase(join(tempDir(), 'station.db'));
    expect(schemaVersion(db)).toBe(migrations.length);
    const rows = db
      .prepare<[], { type: string; name: string; sql: string | null }>(
        `SELECT type, name, sql FROM sqlite_master
         WHERE name NOT LIKE 'sqlite_%' ORDER BY type DESC, name`,
      )
      .all();
    db.close();
    const dump = rows
      .filter((r) => r.sql)
      .map((r) => `-- ${r.type} ${r.name}\n${r.sql!.replace(/[ \t]+$/gm, '')};\n`)
      .join('\n');
    expect(dump).toContain('CREATE TABLE labels');
    await expect(`-- schema version ${migrations.length}\n\n${dump}`).toMatchFileSnapshot(
      './schema.snapshot.sql',
    );
  });
});
