import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { hotFolderStation } from '../../support/hot-folder.js';
import { scope } from '../../support/order-exports.js';
import { waitUntil } from '../../support/virtual-printer.js';

const sample = join(import.meta.dirname, '../../../resources/orders/sample-orders.csv');

describe('order hot folder: plain files only', () => {
  it('moves a symbolic link and a named pipe to failed/ unread, and imports the file after them', async () => {
    const { dir, inbox, orders, folder, results } = hotFolderStation({ stableMs: 50 });
    // A file the station's user may read but the folder's writers must not: a link to it
    // would have put its first line into a report in the (shared) hot folder.
    const privateFile = join(dir, 'private.csv');
    writeFileSync(privateFile, 'root:x:0:0:top-secret-line\n');
    await folder.start();
    symlinkSync(privateFile, join(inbox, 'a-link.csv'));
    execFileSync('mkfifo', [join(inbox, 'b-pipe.csv')]);
    await waitUntil(() => results.length === 2);
    copyFileSync(sample, join(inbox, 'c-orders.csv'));
    await waitUntil(() => results.length === 3);
    await folder.stop();

    const byFile = Object.fromEntries(results.map((r) => [r.report.source, r]));
    expect(byFile['hot-folder:c-orders.csv']!.outcome).toBe('processed');
    expect(orders.findByNumber(scope, 'LUM-10421')).toHaveLength(1);
    for (const [name, what] of [
      ['a-link.csv', 'a symbolic link'],
      ['b-pipe.csv', 'a named pipe'],
    ] as const) {
      const r = byFile[`hot-folder:${name}`]!;
      expect(r.outcome).toBe('failed');
      expect(r.report.problems).toEqual([
        expect.objectContaining({
          field: '(file)',
          reason: expect.stringContaining(`${name} is ${what}, not a plain file`),
        }),
      ]);
      expect(existsSync(join(inbox, name))).toBe(false);
    }
    const failed = readdirSync(join(inbox, 'failed'));
    const reports = failed
      .filter((f) => f.endsWith('.report.json'))
      .map((f) => readFileSync(join(inbox, 'failed', f), 'utf8'));
    expect(reports).toHaveLength(2);
    for (const text of reports) expect(text).not.toContain('top-secret-line');
    // The link itself was moved, not the file it pointed at.
    const movedLink = failed.find((f) => f.endsWith('a-link.csv'))!;
    expect(lstatSync(join(inbox, 'failed', movedLink)).isSymbolicLink()).toBe(true);
    expect(readFileSync(privateFile, 'utf8')).toBe('root:x:0:0:top-secret-line\n');
  });
});
