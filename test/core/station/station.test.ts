import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation, scanOrder, type Sandbox, loseNextLabelAnswer } from './support.js';

const root = join(import.meta.dirname, '../../..');

/** The embedded sandbox of the station made last (its faults and ledger). */
let lastSandbox: () => Sandbox = () => {
  throw new Error('no station yet');
};

function station(dataDir: string, extra: Parameters<typeof demoStation>[1] = {}): Station {
  const made = demoStation(dataDir, extra);
  lastSandbox = made.sandbox;
  return made.station;
}

const labelsIn = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.zpl')) : [];

/** Polls until `check` holds; the test's timeout is the only bound (a slow machine is not a failure). */
async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setTimeout(r, 100));
}

describe('Station facade, first run', () => {
  it('opens on the demo profile, packs an order to the virtual printer, and refuses a second label without confirmation', async () => {
    const dataDir = tempDir();
    const s = station(dataDir);
    await s.start();
    try {
      const status = await call(s, 'station.status', {});
      expect(status.profile?.environment).toBe('embedded-sandbox');

      const scan = await scanOrder(s, 'LUM-10421');
      const quote = await call(s, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 1.8, boxId: null }],
      });
      expect(quote.chosenRateId).not.toBeNull();
      expect(quote.reason).toMatch(/cheapest/);

      const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      expect(bought.label?.trackingNumber).toMatch(/\w/);
      const label = bought.label!;
      await until(() => labelsIn(join(dataDir, 'virtual-printer')).length === 1);

      const again = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(again).toMatchObject({ ok: false, error: { code: 'already-labelled' } });
      const rerate = await s.dispatch('pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 1.8 }],
      });
      expect(rerate).toMatchObject({ ok: false, error: { code: 'already-labelled' } });

      const byTracking = await call(s, 'pack.scan', { value: label.trackingNumber });
      expect(byTracking.kind).toBe('label');

      const noReason = await s.dispatch('labels.reprint', { id: label.id, reason: '' });
      expect(noReason).toMatchObject({ ok: false, error: { code: 'validation' } });
      await call(s, 'labels.reprint', { id: label.id, reason: 'torn' });
      await until(() => labelsIn(join(dataDir, 'virtual-printer')).length === 2);
      const audit = await call(s, 'labels.audit', { labelId: label.id });
      expect(audit.map((a) => a.reason)).toEqual(['torn']);
    } finally {
      await s.stop();
    }

    // A restart reopens the demo profile on a new sandbox and printer, with the history kept.
    const again = station(dataDir);
    await again.start();
    try {
      const found = await call(again, 'labels.search', { query: 'LUM-10421' });
      expect(found.labels).toHaveLength(1);
    } finally {
      await again.stop();
    }
  });
});

describe('Station facade, needs attention', () => {
  it('lists a purchase whose answer was lost and resolves it by looking it up on the platform', async () => {
    const dataDir = tempDir();
    const s = station(dataDir);
    await s.start();
    try {
      const scan = await scanOrder(s, 'LUM-10422');
      loseNextLabelAnswer(lastSandbox());
      const quote = await call(s, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 3.4 }],
      });
      const lost = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(lost).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });

      const items = await call(s, 'attention.list', {});
      expect(items).toHaveLength(1);
      expect(items[0]!.kind).toBe('purchase-unknown');
      expect(items[0]!.actions).toContain('check-trackers');
      // Never bought again by itself: a new buy is refused until a person decides.
      const blocked = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(blocked).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
      const rerated = await s.dispatch('pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 3.4 }],
      });
      expect(rerated).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });

      // Labels-changed tells the pages (Pack's NOT CONFIRMED panel turns to the label).
      const told: string[] = [];
      s.onEvent((name, payload) => {
        if (name === 'labels-changed')
          told.push(
            ...(payload as { labels: { orderNumber: string }[] }).labels.map((l) => l.orderNumber),
          );
      });
      const resolved = await call(s, 'attention.resolve', {
        id: items[0]!.id,
        action: 'check-trackers',
      });
      expect(await call(s, 'attention.list', {})).toEqual([]);
      const found = await call(s, 'labels.search', { query: 'LUM-10422' });
      expect(found.labels).toHaveLength(1);
      // The shift lead is told what was found, not "Done.".
      expect(resolved.message).toBe(
        `Found on the platform: label ${found.labels[0]!.trackingNumber} of order LUM-10422, stored and sent to the label printer.`,
      );
      await until(() => told.includes('LUM-10422'));
      expect(lastSandbox().ledger()).toHaveLength(1);
    } finally {
      await s.stop();
    }
  });
});

describe('Station facade, settings that restart services', () => {
  it('watches the hot folder set on the profile and imports what is dropped there', async () => {
    const dataDir = tempDir();
    const hot = tempDir('station-hot-');
    // The web host takes a hot folder typed in the page only under a root from its command line.
    const s = station(dataDir, { hotFolderRoots: [hot] });
    await s.start();
    try {
      await call(s, 'profiles.update', { id: 'demo', hotFolder: hot });
      const header = readFileSync(join(root, 'resources/orders/sample-orders.csv'), 'utf8').split(
        /\r?\n/,
      )[0]!;
      writeFileSync(
        join(hot, 'drop.csv'),
        `${header}\nHOT-1,tnt_lumen,Ann Example,,1 Main St,,Springfield,IL,62701,US,,,yes,,1,BOX-S,1.2,8,6,4,SKU-1,Thing,1,5.00\n`,
      );
      // The watcher waits for the file to stop growing, imports it and moves it aside.
      // Polled until it is there; the test's own timeout is the only bound, so a loaded machine
      // makes it slower, never wrong.
      let scan = { kind: 'not-found' };
      while (scan.kind !== 'order') {
        await new Promise((r) => setTimeout(r, 100));
        scan = await call(s, 'pack.scan', { value: 'HOT-1' });
      }
      expect(scan.kind).toBe('order');
      const profiles = await call(s, 'profiles.list', {});
      expect(profiles.find((p) => p.id === 'demo')?.hotFolder).toBe(hot);

      // A file that loses an order (a bad weight) is under Needs attention until dismissed: the
      // orders it lost are not only in a folder nobody opens.
      writeFileSync(
        join(hot, 'night.csv'),
        `${header}\nHOT-2,tnt_lumen,Bo Example,,2 Main St,,Springfield,IL,62701,US,,,yes,,1,BOX-S,heavy,8,6,4,SKU-1,Thing,1,5.00\n` +
          `HOT-3,tnt_lumen,Cy Example,,3 Main St,,Springfield,IL,62701,US,,,yes,,1,BOX-S,1.1,8,6,4,SKU-1,Thing,1,5.00\n`,
      );
      let alert;
      while (!alert) {
        await new Promise((r) => setTimeout(r, 100));
        alert = (await call(s, 'attention.list', {})).find((i) => i.kind === 'import-problems');
      }
      expect(alert).toMatchObject({
        title: 'Order file night.csv: 1 order not imported',
        detail: expect.stringMatching(
          /moved it to .*failed.*night\.csv, with its report beside it/,
        ),
        reasons: [expect.stringMatching(/^row 2 \(order HOT-2\), weight_lbs: .*heavy/)],
        actions: ['dismiss'],
      });
      expect((await call(s, 'station.status', {})).needsAttention).toBe(1);
      await call(s, 'attention.resolve', { id: alert.id, action: 'dismiss' });
      expect(await call(s, 'attention.list', {})).toEqual([]);
      expect((await call(s, 'station.status', {})).needsAttention).toBe(0);
    } finally {
      await s.stop();
    }
  }, 60_000);
});

describe('Station facade, renaming a profile (Settings → Rename)', () => {
  it('takes a name typed with spaces around it, and refuses one too short in words', async () => {
    const s = station(tempDir());
    await s.start();
    try {
      const renamed = await call(s, 'profiles.update', { id: 'demo', name: '  Dock 4  ' });
      expect(renamed.name).toBe('Dock 4');
      for (const name of ['X', '   ']) {
        const r = await s.dispatch('profiles.update', { id: 'demo', name });
        expect(r).toMatchObject({
          ok: false,
          error: {
            code: 'validation',
            message:
              'A profile name needs at least 2 characters (the floor sees it in the header).',
          },
        });
      }
      const kept = (await call(s, 'profiles.list', {})).find((p) => p.id === 'demo')!;
      expect(kept.name).toBe('Dock 4');
    } finally {
      await s.stop();
    }
  });
});

describe('one station per data directory', () => {
  it('refuses a second station on a directory in use, and takes over a lock left by a dead process', async () => {
    const dataDir = tempDir();
    const first = station(dataDir);
    expect(() => station(dataDir)).toThrow(/already using/);
    await first.stop();
    writeFileSync(join(dataDir, 'station.lock'), '999999999\n');
    const second = station(dataDir);
    await second.stop();
  });
});

describe('the shift-lead console without a site store', () => {
  it('says how site IT gives it one, not a Settings view the console does not have', async () => {
    const { station: s } = demoStation(tempDir(), { consoleOnly: true });
    await s.start();
    try {
      const view = await call(s, 'console.snapshot', {});
      expect(view).toMatchObject({ reachable: false, noStore: true });
      expect(view.note).toBe(
        'This console has no site store: it shows a whole site. Site IT starts it with one: npm run web -- --console --provision FILE (a file with a siteStore, see docs/site.md).',
      );
    } finally {
      await s.stop();
    }
  });
});
