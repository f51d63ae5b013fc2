import { expect, test, type Page } from '@playwright/test';
import { siteDatabase } from '../test/core/site/support.js';
import { siteWorld } from './site';
import { importOrders, scanAndBuy } from './station';

// Electron has no window.prompt: what the station asks, it asks in the page. Two places that
// used the browser's prompt (and so did nothing in the desktop app): resolving a possible double
// label under Whole site, and renaming a profile in Settings.

const world = siteWorld();

/** Fails the test on any browser dialog: the station never opens one. */
function noDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (d) => {
    opened.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return opened;
}

test('a shift lead resolves a possible double label under Whole site with a note typed in the page', async ({
  page,
}, info) => {
  const site = await siteDatabase(world.cluster());
  const a = await world.packingStation(site.stationUrl, 'chi-01', 'Station A');
  const dialogs = noDialogs(page);
  await page.goto(a.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await scanAndBuy(page, 'LUM-10421');
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(1);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });

  // The item as the store raises it when a second station's offline label reaches it (migration
  // 3's apply_batch), written here directly: its two purchases are A's and another station's.
  const { rows } = await site.owner.pool.query<{ purchase_id: string }>(
    `SELECT purchase_id FROM site_purchases WHERE order_number = 'LUM-10421'`,
  );
  expect(rows).toHaveLength(1);
  await site.owner.pool.query(
    `INSERT INTO site_attention (kind, profile_id, environment, tenant_id, order_number, purchases, message)
     SELECT 'possible-double-label', profile_id, environment, tenant_id, order_number,
            jsonb_build_array(jsonb_build_object('stationId', 'chi-01', 'purchaseId', purchase_id),
                              jsonb_build_object('stationId', 'chi-09', 'purchaseId', 'lp_elsewhere')),
            'Possible double label: order LUM-10421 was labelled at Station A and at Station I while the site store was unreachable. Keep one label and void the other.'
       FROM site_purchases WHERE order_number = 'LUM-10421'`,
  );

  await page.keyboard.press('Alt+2');
  const item = page.getByTestId('site-attention-item');
  await expect(item).toContainText('Possible double label', { timeout: 20_000 });
  await expect(item).toContainText('Station A');
  // The header counts it as the page lists it.
  await expect(page.getByTestId('attention-count')).toHaveText('Needs attention 1');
  // The other station's label reaches the store (a copy of A's under Station I's ids), and a
  // shift lead marks A's voided at A (History): the card says which is voided and which is kept.
  await site.owner.pool.query(
    `INSERT INTO site_labels
     SELECT (jsonb_populate_record(null::site_labels, to_jsonb(l) || jsonb_build_object(
              'station_id', 'chi-09', 'purchase_id', 'lp_elsewhere', 'tracking_number', '1Z999ELSEWHERE'))).*
       FROM site_labels l WHERE order_number = 'LUM-10421'`,
  );
  await site.owner.pool.query(
    `UPDATE site_labels SET voided = jsonb_build_object('by', 'lead Maya', 'reason', 'double label', 'at', now())
      WHERE order_number = 'LUM-10421' AND station_id = 'chi-01'`,
  );
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('Alt+2');
  const labels = item.getByTestId('double-label-label');
  await expect(labels).toHaveCount(2, { timeout: 20_000 });
  await expect(labels.filter({ hasText: 'Station A' })).toContainText(
    'voided at the carrier by lead Maya',
  );
  await expect(labels.filter({ hasText: '1Z999ELSEWHERE' })).not.toContainText('voided');
  await expect(item.getByTestId('double-label-kept')).toContainText('the other is the one kept');
  // Resolved without a note says what to write; nothing is resolved.
  await item.getByRole('button', { name: 'Resolved' }).click();
  await expect(
    page.getByText('Say which label was kept, and whether the other was voided.'),
  ).toBeVisible();
  const note = item.getByLabel('Note for the possible double label of LUM-10421');
  await note.fill("kept Station A's label, voided the other on the carrier portal");
  await page.screenshot({ path: info.outputPath('whole-site-resolve.png') });
  await note.press('Enter');
  await expect(page.getByTestId('site-attention-item')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('site-attention')).toContainText(
    'Nothing needs attention anywhere on the site.',
  );
  await expect(page.getByTestId('attention-count')).toHaveText('Needs attention 0');
  const resolved = await site.owner.pool.query<{ resolution: string; resolved_by: string }>(
    `SELECT resolution, resolved_by FROM site_attention WHERE order_number = 'LUM-10421'`,
  );
  expect(resolved.rows[0]?.resolution).toBe(
    "kept Station A's label, voided the other on the carrier portal",
  );
  expect(dialogs).toEqual([]);
});

test('site IT renames a profile in Settings in a field of its row (Enter saves, Esc leaves)', async ({
  page,
}, info) => {
  const a = await world.packingStation(null, 'chi-01', 'Station A');
  const dialogs = noDialogs(page);
  await page.goto(a.station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen Chicago');
  await expect(page.getByLabel('Scan')).toBeFocused();
  await page.keyboard.press('Alt+7');
  const row = page.getByTestId('profiles').getByRole('row', { name: /Lumen Chicago/ });
  await row.getByRole('button', { name: 'Rename' }).click();
  const field = row.getByLabel('New name for Lumen Chicago');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('Lumen Chicago');
  await field.press('Escape');
  await expect(field).toHaveCount(0);

  await row.getByRole('button', { name: 'Rename' }).click();
  await row.getByLabel('New name for Lumen Chicago').fill('Lumen Chicago dock 4');
  await page.screenshot({ path: info.outputPath('settings-rename.png') });
  await page.keyboard.press('Enter');
  await expect(
    page.getByTestId('profiles').getByRole('row', { name: /Lumen Chicago dock 4/ }),
  ).toBeVisible();
  await expect(page.getByTestId('profiles').getByLabel(/New name for/)).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
