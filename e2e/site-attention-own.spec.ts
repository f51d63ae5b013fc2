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
