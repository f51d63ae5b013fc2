import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { openDatabase } from '../src/core/storage/database.js';
import { seedLabels } from '../test/core/labels/seed.js';
import { stationPerTest } from './station';

const LABELS = 120;

/** 120 labels in the demo profile's cache, written before the station starts. */
function seed(dataDir: string) {
  const db = openDatabase(join(dataDir, 'station.db'));
  const base = Date.parse('2026-11-01T08:00:00.000Z');
  seedLabels(
    db,
    { profileId: 'demo', environment: 'embedded-sandbox' },
    Array.from({ length: LABELS }, (_, i) => ({
      orderNumber: `PAGE-${String(i + 1).padStart(3, '0')}`,
      tenantId: 'tnt_lumen',
      tracking: `1ZPAGE${String(i + 1).padStart(8, '0')}`,
      createdAt: new Date(base + i * 60_000).toISOString(),
    })),
  );
  db.close();
}

const station = stationPerTest([], {}, seed);

test('History pages through 120 labels with a real total, by keyboard and by button (#13.13)', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+4');
  const pager = page.getByTestId('history-pager');
  const rows = page.getByTestId('history-row');
  await expect(pager).toContainText(`1–50 of ${LABELS} labels`);
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText('PAGE-120');
  await page.screenshot({ path: info.outputPath('history-page-1.png') });

  // From the search box into the rows, then PageDown: the next 50, the first of them focused.
  await page.keyboard.press('ArrowDown');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(pager).toContainText(`51–100 of ${LABELS} labels`);
  await expect(rows.first()).toContainText('PAGE-070');
  await expect(rows.first()).toBeFocused();
  await expect(page.getByTestId('label-detail').locator('h2')).toHaveText('1ZPAGE00000070');

  await page.getByRole('button', { name: /Older/ }).click();
  await expect(pager).toContainText(`101–120 of ${LABELS} labels`);
  await expect(rows).toHaveCount(20);
  await expect(rows.last()).toContainText('PAGE-001');
  await expect(page.getByRole('button', { name: /Older/ })).toBeDisabled();

  await page.keyboard.press('PageUp');
  await expect(pager).toContainText(`51–100 of ${LABELS} labels`);

  // Back in the search box on that page, ↓ goes into the rows on screen: the list already
  // answers what is in the box, so it is not searched again from the first page.
  const search = page.getByRole('textbox', { name: 'Search labels' });
  await search.focus();
  await search.press('ArrowDown');
  await expect(rows.first()).toBeFocused();
  await expect(pager).toContainText(`51–100 of ${LABELS} labels`);
  await expect(rows.first()).toContainText('PAGE-070');
  await expect(page.getByTestId('label-detail').locator('h2')).toHaveText('1ZPAGE00000070');

  // A search counts its own matches.
  await search.fill('PAGE-007');
  await search.press('Enter');
  await expect(pager).toContainText('1–1 of 1 label');
  await expect(rows).toHaveCount(1);

  // A day picked in From / To applies at once, no Enter needed: the labels are one a minute
  // from 08:00 UTC on 1 November, none on 2 November.
  await search.fill('');
  await search.press('Enter');
  await expect(pager).toContainText(`of ${LABELS} labels`);
  await page.getByLabel('From').fill('2026-11-02');
  await expect(pager).toContainText('No labels');
  await page.getByLabel('From').fill('2026-10-31');
  await expect(pager).toContainText(`of ${LABELS} labels`);
});
