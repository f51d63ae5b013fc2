import { describe, expect, it } from 'vitest';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HotFolderOptions } from '../../../src/core/orders/hot-folder.js';
import { hotFolderStation } from '../../support/hot-folder.js';
import { scope } from '../../support/order-exports.js';
import { waitUntil } from '../../support/virtual-printer.js';

// A WMS that writes its order file in bursts (real files, real time): the station must not
// read it before it is done, nor move it while it grows, nor report a clean import of part.

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku,item_name,quantity\n';
const row = (n: number) =>
  `W-${n},Maya Okafor,${n} Willow Lane,Evanston,IL,60201,US,1.5,CNDL-${n},Candle ${n},1\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function station(options: Partial<HotFolderOptions> = {}) {
  const { inbox, folder, results, orders, db } = hotFolderStation(options);
  const stored = () =>
    orders
      .search(scope, 'W-')
      .map((o) => o.orderNumber)
      .sort();
  return { inbox, folder, results, stored, close: () => db.close() };
}

describe('hot folder: a file still being written', () => {
  it('waits out a 1 s pause between bursts (default settle) and imports every row, then moves the file', async () => {
    const s = station(); // the station's own settle time, not a test value
    await s.folder.start();
    const file = join(s.inbox, 'wave.csv');
    writeFileSync(file, header + row(1));
    await sleep(1000);
    appendFileSync(file, row(2) + row(3));
    await waitUntil(() => s.results.length === 1);
    await s.folder.stop();

    const [result] = s.results;
    expect(result!.outcome).toBe('processed');
    expect(result!.report.imported.sort()).toEqual(['W-1', 'W-2', 'W-3']);
    expect(readFileSync(result!.movedTo, 'utf8')).toBe(header + row(1) + row(2) + row(3));
    expect(s.stored()).toEqual(['W-1', 'W-2', 'W-3']);
    s.close();
  }, 15_000);

  it('does not read a file that stops in the middle of a row, and imports it whole once the row ends', async () => {
    const s = station({ stableMs: 200, unfinishedMs: 20_000 });
    await s.folder.start();
    const file = join(s.inbox, 'wave.csv');
    const second = row(2);
    writeFileSync(file, header + row(1) + second.slice(0, 20)); // the pause falls mid-row
    await sleep(1200); // well past the settle time
    expect(s.results).toEqual([]);
    expect(readdirSync(s.inbox)).toContain('wave.csv');
    appendFileSync(file, second.slice(20) + row(3));
    await waitUntil(() => s.results.length === 1);
    await s.folder.stop();

    expect(s.results[0]!.outcome).toBe('processed');
    expect(s.results[0]!.report.problems).toEqual([]);
    expect(s.stored()).toEqual(['W-1', 'W-2', 'W-3']);
    s.close();
  });

  it('does not read a JSON file whose writer paused inside it, and imports it whole once it is closed', async () => {
    const s = station({ stableMs: 200, unfinishedMs: 20_000 });
    await s.folder.start();
    const file = join(s.inbox, 'wave.json');
    const order = (n: number) =>
      JSON.stringify({
        orderNumber: `W-${n}`,
        shipTo: {
          name: 'Maya Okafor',
          addressLine1: `${n} Willow Lane`,
          city: 'Evanston',
          stateProvince: 'IL',
          postalCode: '60201',
          countryCode: 'US',
        },
        packages: [{ weightLbs: 1.5, items: [{ sku: `CNDL-${n}`, name: 'Candle', quantity: 1 }] }],
      });
    const whole = `[${order(1)},${order(2)}]`;
    const pause = whole.indexOf('"W-2"') + 2; // inside a string of the second order
    writeFileSync(file, whole.slice(0, pause));
    await sleep(1200); // well past the settle time
    expect(s.results).toEqual([]);
    expect(readdirSync(s.inbox)).toContain('wave.json');
    appendFileSync(file, whole.slice(pause));
    await waitUntil(() => s.results.length === 1);
    await s.folder.stop();

    expect(s.results[0]!.outcome).toBe('processed');
    expect(s.stored()).toEqual(['W-1', 'W-2']);
    s.close();
  });

  it('a JSON file that is still not closed past the limit is refused whole as not valid JSON', async () => {
    const s = station({ stableMs: 100, unfinishedMs: 800 });
    await s.folder.start();
    writeFileSync(join(s.inbox, 'cut.json'), '[{"orderNumber": "W-1", "shipTo": {');
    await waitUntil(() => s.results.length === 1);
    await s.folder.stop();
    expect(s.results[0]!.outcome).toBe('failed');
    expect(s.results[0]!.report.problems[0]!.reason).toMatch(/^not valid JSON/);
    expect(s.stored()).toEqual([]);
    s.close();
  });

  it('past the limit, imports the complete rows and reports the cut last row and what was not imported', async () => {
    const s = station({ stableMs: 100, unfinishedMs: 800 });
    await s.folder.start();
    writeFileSync(join(s.inbox, 'cut.csv'), header + row(1) + row(2) + row(3).slice(0, 30));
    await waitUntil(() => s.results.length === 1);
    await s.folder.stop();

    const [result] = s.results;
    expect(result!.outcome).toBe('failed');
    expect(result!.report.imported.sort()).toEqual(['W-1', 'W-2']);
    expect(result!.report.ordersLeftOut).toBe(1);
    const report = JSON.parse(readFileSync(`${result!.movedTo}.report.json`, 'utf8')) as {
      problems: { row: number; orderNumber?: string; reason: string }[];
    };
    expect(report.problems).toEqual([
      expect.objectContaining({
        row: 4, // as a spreadsheet numbers it: the header is row 1
        orderNumber: 'W-3',
        reason: expect.stringMatching(
          /^the file ends in the middle of this row \(4 of the header's 11 fields, and no line ending\): it was still being written, or its copy stopped\. This row was not imported, nor the rest of its order/,
        ),
      }),
    ]);
    expect(s.stored()).toEqual(['W-1', 'W-2']);
    s.close();
  });

  it('a file written to while it is imported is not moved, and is read again whole', async () => {
    let appended = false;
    const s = station({
      stableMs: 150,
      // The site claim runs after the read: the WMS writes its next burst just then.
      claimFile: () => {
        if (!appended) appendFileSync(join(s.inbox, 'wave.csv'), row(2));
        appended = true;
        return Promise.resolve(null);
      },
    });
    writeFileSync(join(s.inbox, 'wave.csv'), header + row(1));
    await s.folder.start();
    await waitUntil(() => s.results.length === 1);
    await s.folder.stop();

    expect(s.results).toHaveLength(1); // never a clean report of the first burst alone
    expect(s.results[0]!.outcome).toBe('processed');
    expect(s.results[0]!.report.imported.concat(s.results[0]!.report.same).sort()).toEqual([
      'W-1',
      'W-2',
    ]);
    expect(readFileSync(s.results[0]!.movedTo, 'utf8')).toBe(header + row(1) + row(2));
    s.close();
  });
});
