import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { openDatabase } from '../src/core/storage/database.js';
import { TrackerStore } from '../src/core/tracking/store.js';
import { stationPerTest } from './station';

const ROWS = 10_000;
const statuses = [
  'PRE_TRANSIT',
  'IN_TRANSIT',
  'OUT_FOR_DELIVERY',
  'DELIVERED',
  'EXCEPTION',
  'RETURNED',
];

/** 10,000 trackers in the demo profile's scope, written before the station starts. */
function seed(dataDir: string) {
  const db = openDatabase(join(dataDir, 'station.db'));
  const store = new TrackerStore(db);
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  const trackers = Array.from({ length: ROWS }, (_, i) => ({
    id: `trk_${i}`,
    trackingNumber: `1ZSEED${String(i).padStart(8, '0')}`,
    carrier: i % 2 ? 'UPS' : 'USPS',
    tenantId: 'tnt_lumen',
    // As a station sends it: the order number and the purchase attempt's id.
    orderReference: `SEED-${i}-${i.toString(16).toUpperCase().padStart(8, '0')}`,
    status: statuses[i % statuses.length],
    statusDetail: 'seeded for the board test',
    updatedAt: new Date(base + i * 60_000).toISOString(),
  }));
  store.ingest(
    { profileId: 'demo', environment: 'embedded-sandbox', tenantId: 'tnt_lumen' },
    trackers,
    new Date().toISOString(),
  );
  db.close();
}

const station = stationPerTest([], {}, seed);

test('the tracking board holds 10,000 shipments in a virtualised list, scrolls to the last and filters', async ({
  page,
}, info) => {
  // What the station sends the page: pages of rows, never the whole board in one answer.
  let largestFrame = 0;
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      largestFrame = Math.max(largestFrame, payload.length);
    }),
  );
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+5');
  await expect(page.getByTestId('tracking-total')).toHaveText(/^100\d\d shipments$/, {
    timeout: 10_000,
  });
  const list = page.getByRole('list', { name: 'Shipments' });
  // Virtualised: the DOM holds a window of rows, not ten thousand.
  expect(await list.getByRole('listitem').count()).toBeLessThan(80);
  await page.screenshot({ path: info.outputPath('tracking-10k.png') });

  await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(list).toContainText('1ZSEED00000000');
  await page.getByRole('button', { name: /^DELIVERED/ }).click();
  await expect(page.getByTestId('tracking-total')).toHaveText(/^16\d\d shipments$/);
  await page.screenshot({ path: info.outputPath('tracking-delivered.png') });
  // 10,000 rows are about 3 MB; a page of 200 is under 100 KB.
  expect(largestFrame).toBeGreaterThan(0);
  expect(largestFrame).toBeLessThan(150_000);

  // The Order column is the order number (the reference on hover); searching it finds the row.
  await page.getByRole('button', { name: /^All/ }).click();
  await page.getByRole('textbox', { name: 'Search trackers' }).fill('SEED-4242');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tracking-total')).toHaveText('1 shipment');
  const row = list.getByRole('listitem').first();
  await expect(row).toContainText('1ZSEED00004242');
  await expect(row.getByText('SEED-4242', { exact: true })).toHaveAttribute(
    'title',
    'Order reference SEED-4242-00001092',
  );
  await page.screenshot({ path: info.outputPath('tracking-order-number.png') });

  // Large text at 1366×768: the headings and the row's cells keep apart (no "CarrierStatus").
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.keyboard.press('Alt+l');
  await expect(page.getByTestId('large-text')).toHaveAttribute('aria-pressed', 'true');
  for (const cells of [page.locator('.vhead > span'), row.locator('> span')]) {
    const boxes = await cells.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, fits: el.scrollWidth <= el.clientWidth + 1 };
      }),
    );
    for (let i = 1; i < boxes.length; i++)
      expect(boxes[i]!.left).toBeGreaterThanOrEqual(boxes[i - 1]!.right);
    expect(boxes.at(-1)!.right).toBeLessThanOrEqual(1366);
  }
  const headings = await page
    .locator('.vhead > span')
    .evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).length);
  expect(headings).toBe(0);
  await page.screenshot({ path: info.outputPath('tracking-large-text.png') });
});
