import { expect, test } from '@playwright/test';
import { siteDatabase } from '../test/core/site/support.js';
import { siteWorld } from './site';
import { importOrders } from './station';

// A station of a site while the site store is away, in Chromium: what the Pack view says of a
// scan of an order only another station imported, and the header's Needs attention count.

const world = siteWorld();

test('with the site store away, a scan says the store was not asked and the count is marked', async ({
  browser,
}, info) => {
  const { site, a, b } = await world.twoStations();

  // Station A imports the orders; station B has none of its own.
  const pageA = await browser.newPage();
  await pageA.goto(a.station.url);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(pageA);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });

  const pageB = await browser.newPage();
  await pageB.goto(b.station.url);
  const siteLine = pageB.getByTestId('site-status');
  await expect(siteLine).toContainText('Site: synced', { timeout: 30_000 });
  const count = pageB.getByTestId('attention-count');
  await expect(count).toHaveText('Needs attention 0');
  await expect(count).toHaveAttribute('title', /^0 at this station, 0 site-wide \(possible double/);
  await pageB.keyboard.press('Alt+1');
  // Station A's console (Site, Alt+0) shows both stations while the store answers.
  await pageA.keyboard.press('Alt+0');
  const stations = pageA.getByTestId('console-stations');
  await expect(stations).toContainText('Station', { timeout: 15_000 });

  world.cluster().stop();
  try {
    await expect(siteLine).toContainText('not reachable', { timeout: 30_000 });
    // The console keeps its last picture of the site, said to be that, instead of going blank.
    await expect(pageA.getByTestId('console-note')).toContainText(/the site as last read at /, {
      timeout: 30_000,
    });
    await expect(stations).toBeVisible();
    // Left and opened again during the outage: the same last picture, not a blank page.
    await pageA.keyboard.press('Alt+1');
    await pageA.keyboard.press('Alt+0');
    await expect(pageA.getByTestId('console-note')).toContainText(/the site as last read at /);
    await expect(stations).toContainText('Station');
    // Station B's page has never opened the console: opened now, in the outage, it shows the
    // site as station B last read it on its own, B packing on its own, not a blank page.
    await pageB.keyboard.press('Alt+0');
    await expect(pageB.getByTestId('console-note')).toContainText(
      /does not answer .*Below: the site as last read at .+; it may have changed since\.$/,
    );
    const atB = pageB.getByTestId('console-stations');
    await expect(atB.getByRole('row', { name: /Station B/ })).toContainText(
      '(this station, packing on its own)',
    );
    await expect(atB.getByRole('row', { name: /Station A/ })).toBeVisible();
    await pageB.screenshot({ path: info.outputPath('station-b-console-first-opened-away.png') });
    await pageB.keyboard.press('Alt+1');
    // Not a plain zero: the site's part is what was last read, and the count says so.
    await expect(count).toHaveText('Needs attention 0?');
    await expect(count).toHaveAttribute(
      'title',
      /^0 at this station and 0 site-wide as last read at .+: the site store is not reachable now/,
    );
    await pageB.keyboard.type('LUM-10421');
    await pageB.keyboard.press('Enter');
    await expect(pageB.getByTestId('result')).toContainText(
      'Nothing matches "LUM-10421" at this station: not an order, a tracking number or a box. It may be an order imported at another station, but the site store is not answering, so it cannot be looked up there now.',
    );
    await pageB.screenshot({ path: info.outputPath('station-b-store-away.png') });
    // At 1366×768, large text, with the Site line of an outage, the counters stay on screen
    // (the header takes a second line rather than cutting them off).
    await pageB.setViewportSize({ width: 1366, height: 768 });
    await pageB.keyboard.press('Alt+l');
    for (const id of ['queue-count', 'attention-count', 'printer-status']) {
      const box = (await pageB.getByTestId(id).boundingBox())!;
      expect(box.x + box.width, id).toBeLessThanOrEqual(1366);
      expect(box.x, id).toBeGreaterThanOrEqual(0);
    }
    await pageB.screenshot({ path: info.outputPath('station-b-store-away-1366-large.png') });
    await pageB.keyboard.press('Alt+l');

    // Station A buys while the store is away (the site's rule allows it): the label prints, and
    // the packer is told that no other station could be asked about this order.
    await pageA.keyboard.press('Alt+1');
    await pageA.keyboard.type('LUM-10422');
    await pageA.keyboard.press('Enter');
    await expect(pageA.getByTestId('rate-reason')).toContainText('cheapest', { timeout: 15_000 });
    await pageA.keyboard.press('Control+Enter');
    await expect(pageA.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
    await expect(pageA.getByTestId('site-unchecked')).toContainText(
      'Bought with the site store away: checked against the other stations when it answers.',
    );
    await pageA.screenshot({ path: info.outputPath('station-a-bought-store-away.png') });
  } finally {
    world.cluster().start();
  }

  // The store answers again: the count is the store's, and the same scan finds A's order.
  await expect(siteLine).toContainText('Site: synced', { timeout: 30_000 });
  await expect(count).toHaveText('Needs attention 0');
  await pageB.keyboard.type('LUM-10421');
  await pageB.keyboard.press('Enter');
  await expect(pageB.getByTestId('order-number')).toHaveText('LUM-10421', { timeout: 15_000 });
  await site.owner.close();
});

// Trial of 2026-11-29 (night): under the site's offline rule "refuse", the console's own row
// said "(this station, packing on its own)" while the station bought nothing.
test('under the offline rule "refuse", the console says this station buys no label meanwhile', async ({
  browser,
}, info) => {
  const site = await siteDatabase(world.cluster());
  await site.owner.setSetting('offlinePurchase', 'refuse');
  const { station } = await world.packingStation(site.stationUrl, 'chi-03', 'Station C');
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await page.keyboard.press('Alt+0');
  const stations = page.getByTestId('console-stations');
  await expect(stations).toContainText('Station C', { timeout: 15_000 });
  world.cluster().stop();
  try {
    await expect(page.getByTestId('console-note')).toContainText(
      /meanwhile no station buys a label .*Below: the site as last read at /,
      { timeout: 30_000 },
    );
    const row = stations.getByRole('row', { name: /Station C/ });
    await expect(row).toContainText('(this station, buying no label until the store answers)');
    await expect(row).not.toContainText('packing on its own');
    await page.screenshot({ path: info.outputPath('console-refuse-store-away.png') });
  } finally {
    world.cluster().start();
  }
  await site.owner.close();
});
