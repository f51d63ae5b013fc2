import { expect, test } from '@playwright/test';
import { siteDatabase } from '../test/core/site/support.js';
import { siteWorld } from './site';
import { importOrders } from './station';

const world = siteWorld();

// Trial of 2026-11-29: site IT set the site's box presets while Station 1's Pack was open. Pack
// kept offering Small/Medium/Large, an order's BOX-S picked "Small", and every rating failed
// "Package 1: box box-s is not one of the station's box presets."
test("Pack offers the site's new box presets without being opened again", async ({
  browser,
}, info) => {
  const site = await siteDatabase(world.cluster());
  const { station } = await world.packingStation(site.stationUrl, 'chi-01', 'Station A');
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await expect(page.getByLabel('Scan')).toBeFocused();

  await site.owner.setSetting(
    'boxPresets',
    JSON.stringify([
      { id: 'q1', name: 'Quill mailer', code: 'QM-1', lengthIn: 12, widthIn: 9, heightIn: 2 },
    ]),
  );
  // Pack stays open meanwhile. An order whose file names a box the station no longer has
  // (BOX-S) is rated, not refused, and its box buttons are the site's.
  // The station takes the site's presets at its next check-in (every 2 s).
  await page.waitForTimeout(4000);
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const boxes = page.getByRole('group', { name: 'Package 1 box' });
  await expect(boxes.getByRole('button', { name: /Quill mailer/ })).toBeVisible();
  await expect(boxes.getByRole('button', { name: /Small/ })).toHaveCount(0);
  await expect(page.getByText(/is not one of the station's box presets/)).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('site-box-presets.png') });
});

// Trial of 2026-11-29 (night): the order was already on Pack (its file's BOX-S as Small) when site
// IT changed the presets. It kept Small until scanned again, and its next rating failed "box
// box-s is not one of the station's box presets".
test('an order already on Pack takes the new presets: a box gone is taken off and said', async ({
  browser,
}, info) => {
  const site = await siteDatabase(world.cluster());
  const { station } = await world.packingStation(site.stationUrl, 'chi-02', 'Station B');
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await expect(page.getByLabel('Scan')).toBeFocused();
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const boxes = page.getByRole('group', { name: 'Package 1 box' });
  await expect(boxes.getByRole('button', { name: /Small/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await site.owner.setSetting(
    'boxPresets',
    JSON.stringify([
      { id: 'q1', name: 'Quill mailer', code: 'QM-1', lengthIn: 12, widthIn: 9, heightIn: 2 },
    ]),
  );
  // At the station's next check-in (every 2 s): the order on screen, not scanned again.
  await expect(page.getByTestId('result')).toContainText(
    "The box presets changed (site IT): Small 8×6×4 is no longer one of this station's boxes, so it was taken off this order. Pick its box again from the buttons (or scan it), or press Enter to rate without one.",
    { timeout: 20_000 },
  );
  await expect(boxes.getByRole('button', { name: /Small/ })).toHaveCount(0);
  await expect(boxes.getByRole('button', { name: /Quill mailer/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  // The rates of the old box went; the next one is the new box's.
  await expect(page.getByTestId('rate-reason')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('site-box-presets-open-order.png') });
  await boxes.getByRole('button', { name: /Quill mailer/ }).click();
  await page.getByLabel('Scan').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/is not one of the station's box presets/)).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('site-box-presets-open-order-rated.png') });
});
