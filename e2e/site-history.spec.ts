import { expect, test } from '@playwright/test';
import { siteWorld } from './site';
import { importOrders, pastRightEdge, scanAndBuy } from './station';

const world = siteWorld();

test("a label bought at station A is found and reprinted from station B's History", async ({
  browser,
}, info) => {
  const { site, a, b } = await world.twoStations();
  const pageA = await browser.newPage();
  const pageB = await browser.newPage();

  // Station A: import the orders, scan one and buy its label.
  await pageA.goto(a.station.url);
  await expect(pageA.getByTestId('profile-name')).toHaveText('Lumen Chicago');
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(pageA);
  await pageA.keyboard.press('Alt+1');
  await scanAndBuy(pageA, 'LUM-10421');
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(1);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await pageA.screenshot({ path: info.outputPath('station-a-bought.png') });

  // Station B: History searches the whole site, finds A's label, and reprints it on B's printer.
  await pageB.goto(b.station.url);
  await expect(pageB.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await pageB.keyboard.press('Alt+4');
  await expect(pageB.getByLabel('History scope')).toHaveValue('site');
  await pageB.getByLabel('Search labels').fill('LUM-10421');
  await pageB.keyboard.press('Enter');
  const row = pageB.getByTestId('site-history-table').getByRole('row', { name: /LUM-10421/ });
  await expect(row).toContainText('Station A');
  await row.click();
  await expect(pageB.getByTestId('site-label-detail')).toContainText('Bought at Station A');
  await pageB.getByLabel('Reprint reason').fill('label torn at the dock');
  await pageB.screenshot({ path: info.outputPath('station-b-site-history.png') });
  await pageB.keyboard.press('Enter');
  await expect.poll(() => b.printer.labels.length, { timeout: 30_000 }).toBe(1);
  expect(a.printer.labels.length).toBe(1);
  await expect(row).toContainText('1', { timeout: 15_000 });
  expect(await world.sandbox().ledger()).toHaveLength(1);
  const audit = await site.owner.pool.query(
    `SELECT station_id, label_station_id, reason FROM site_reprints`,
  );
  expect(audit.rows).toEqual([
    { station_id: 'chi-02', label_station_id: 'chi-01', reason: 'label torn at the dock' },
  ]);
  // The label's detail lists the reprint: who, why, where.
  await row.click();
  await expect(pageB.getByTestId('site-reprint-audit')).toContainText(
    /packer at Station B: label torn at the dock/,
  );
  await pageB.screenshot({ path: info.outputPath('station-b-reprinted.png') });

  // Settings shows the connection, this station on the site, and every station's lag.
  await pageB.keyboard.press('Alt+7');
  const panel = pageB.getByTestId('site-store-panel');
  await expect(panel).toContainText(
    `shipping_station@127.0.0.1:${world.cluster().port}/${site.name}`,
  );
  await expect(panel).toContainText('Station B (chi-02)');
  await expect(panel).toContainText('Station A (chi-01)');
  await expect(pageB.getByTestId('site-store-state')).toContainText('Site: synced');
  await panel.scrollIntoViewIfNeeded();
  await pageB.screenshot({ path: info.outputPath('station-b-settings.png') });
  await site.owner.close();
});

test('in large text at 1366×768, Settings with a site store stays inside the window', async ({
  browser,
}, info) => {
  const { a } = await world.twoStations();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(a.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await page.keyboard.press('Alt+l');
  await page.keyboard.press('Alt+7');
  const panel = page.getByTestId('site-store-panel');
  await expect(panel.getByRole('row', { name: /Station B/ })).toBeVisible({ timeout: 15_000 });
  // Nothing past the window's right edge: the two columns share it, whatever they hold.
  expect(await pastRightEdge(page, '.settings', 1366)).toEqual([]);
  // A box preset's name is still readable beside its sizes.
  const name = page.getByLabel('Box 1 name');
  expect((await name.boundingBox())!.width).toBeGreaterThan(120);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('settings-site-large-text.png') });
});

test("Orders, Whole site: a lead at station B finds station A's orders, where each stands, and opens one on Pack", async ({
  browser,
}, info) => {
  const { a, b } = await world.twoStations();
  const pageA = await browser.newPage();
  await pageA.goto(a.station.url);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(pageA);
  await pageA.keyboard.press('Alt+1');
  await scanAndBuy(pageA, 'LUM-10423');
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(1);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });

  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(b.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await page.keyboard.press('Alt+8');
  await expect(page.getByLabel('Orders scope')).toHaveValue('station');
  await page.getByLabel('Orders scope').selectOption('site');
  const table = page.getByTestId('site-orders-table');
  await expect(table.getByRole('row', { name: /LUM-10423/ })).toContainText(
    /Station A.*Labelled at Station A by packer, \d\d:\d\d/,
  );
  await expect(table.getByRole('row', { name: /LUM-10424/ })).toContainText(/Station A.*Open/);
  await page.getByRole('button', { name: 'Labelled', exact: true }).click();
  await expect(page.getByTestId('site-order-row')).toHaveCount(1);
  await page.screenshot({ path: info.outputPath('site-orders.png') });
  await page.getByRole('button', { name: 'All', exact: true }).click();

  // Large text: the status column stays inside the window.
  await page.keyboard.press('Alt+l');
  await expect(table.getByRole('row', { name: /LUM-10424/ })).toBeVisible();
  expect(await pastRightEdge(page, '.site-orders', 1366)).toEqual([]);
  await page.screenshot({ path: info.outputPath('site-orders-large-text.png') });
  await page.keyboard.press('Alt+l');

  // Station A labels another order while B's list is on screen: B's row says so by itself.
  const other = table.getByRole('row', { name: /LUM-10425/ });
  await expect(other).toContainText('Open');
  await scanAndBuy(pageA, 'LUM-10425');
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(2);
  await expect(other).toContainText(/Labelled at Station A by packer/, { timeout: 20_000 });

  // Typed, ↓, Enter: the order opens on Pack here, fetched from the store.
  await page.getByLabel('Search site orders').fill('LUM-10424');
  await expect(page.getByTestId('site-order-row')).toHaveText([/^LUM-10424/]);
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('site-order-row')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10424', { timeout: 15_000 });
});
