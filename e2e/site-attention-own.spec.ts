import { expect, test } from '@playwright/test';
import { siteDatabase } from '../test/core/site/support.js';
import { siteWorld } from './site';
import { buyWithLostAnswer, importOrders } from './station';

// Trial of 2026-11-29: a station killed while buying came back with "purchase outcome unknown"
// under Needs attention, and under it "Whole site: Nothing needs attention anywhere on the
// site." The Whole site list leaves this station's own items out (they are above it), so a lead
// reading it took the site for clear while this very station had one open.

const world = siteWorld();

test("Whole site does not call the site clear while this station's own item is open", async ({
  page,
}, info) => {
  const site = await siteDatabase(world.cluster());
  const a = await world.packingStation(site.stationUrl, 'chi-01', 'Station A');
  await page.goto(a.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await buyWithLostAnswer(page, world.sandbox(), 'LUM-10423');

  await page.keyboard.press('Alt+2');
  await expect(page.getByTestId('attention-item')).toContainText('LUM-10423');
  const whole = page.getByTestId('site-attention');
  await expect(whole).toContainText(
    'Nothing needs attention at the other stations of the site (this station’s own items are above).',
    { timeout: 20_000 },
  );
  await expect(whole).not.toContainText('anywhere on the site');
  await page.screenshot({ path: info.outputPath('site-attention-own.png') });
});

// Trial J: a failed rating at this station (an item of its own, not the site's) was counted in
// its row of the console's Stations table ("Attention 1") while the panel beside it said
// "Nothing needs attention anywhere on the site."
test('the console does not call the site clear under a station row that counts an item', async ({
  page,
}, info) => {
  const site = await siteDatabase(world.cluster());
  const a = await world.packingStation(site.stationUrl, 'chi-03', 'Station C');
  await page.goto(a.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  // The platform refuses every rating from before the orders come in (none is pre-rated).
  await world.sandbox().addFault({ path: '/api/v1/rates', kind: 'status', status: 400 });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('attention-count')).not.toContainText(/\b0\b/, { timeout: 20_000 });
  await world.sandbox().clearFaults();

  await page.keyboard.press('Alt+0');
  const none = page.getByTestId('console-attention-none');
  await expect(none).toContainText(/Station C \(this station\) has \d+ items? of its own/, {
    timeout: 20_000,
  });
  await expect(none).not.toContainText('anywhere on the site');
  await page.screenshot({ path: info.outputPath('console-attention-station.png') });
});
