import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OrderHotFolder, type HotFolderFileResult } from '../../../src/core/orders/hot-folder.js';
import { hotFolderStation } from '../../support/hot-folder.js';
import { scope, tenants } from '../../support/order-exports.js';
import { waitUntil } from '../../support/virtual-printer.js';
const sample = join(import.meta.dirname, '../../../resources/orders/sample-orders.csv');
const bad = join(import.meta.dirname, '../../fixtures/orders/bad-orders.json');

describe('order hot folder', () => {
  it('imports files present at start and dropped later, once each, into processed/ or failed/ with a report', async () => {
    const { inbox, orders, folder, results } = hotFolderStation({ stableMs: 50 });
    copyFileSync(sample, join(inbox, 'monday.csv'));
    writeFileSync(join(inbox, 'notes.txt'), 'not an order file');

    await folder.start();
    await waitUntil(() => results.length === 1);
    copyFileSync(bad, join(inbox, 'tuesday.json'));
    await waitUntil(() => results.length === 2);
    await folder.stop();

    expect(results.map((r) => [r.outcome, r.report.source])).toEqual([
      ['processed', 'hot-folder:monday.csv'],
      ['failed', 'hot-folder:tuesday.json'],
    ]);
    expect(readdirSync(inbox).sort()).toEqual(['failed', 'notes.txt', 'processed']);
    const processed = readdirSync(join(inbox, 'processed'));
    expect(processed.filter((f) => f.endsWith('monday.csv'))).toHaveLength(1);
    const failedReport = readdirSync(join(inbox, 'failed')).find((f) =>
      f.endsWith('.report.json'),
    )!;
    const report = JSON.parse(readFileSync(join(inbox, 'failed', failedReport), 'utf8')) as {
      imported: string[];
      problems: { row: number; field: string }[];
    };
    expect(report.imported).toEqual(['J-1']); // the good order of a bad file still imported
    expect(report.problems).toContainEqual(
      // The place the Orders view and Needs attention give it, not a count of its own.
      expect.objectContaining({
        row: 2,
        field: 'shipTo.countryCode',
        where: expect.stringMatching(/^order 2 in the file/),
      }),
    );
    expect(orders.findByNumber(scope, 'LUM-10424')[0]!.packages).toHaveLength(2);

    // A restart finds nothing left to import: files are processed once.
    const again: HotFolderFileResult[] = [];
    const restarted = new OrderHotFolder({
      folder: inbox,
      orders,
      scope,
      tenants,
      onFile: (r) => again.push(r),
    });
    await restarted.start();
    await restarted.idle();
    await restarted.stop();
    expect(again).toEqual([]);
    expect(existsSync(join(inbox, 'monday.csv'))).toBe(false);
  });
});
