import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
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
  // The same file imported at B (Orders): said once, its name once (trial of 2026-11-29).
  await pageB.keyboard.press('Alt+8');
  await pageB
    .getByLabel('Import orders file here')
    .setInputFiles(join(import.meta.dirname, '../resources/orders/sample-orders.csv'));
  await expect(pageB.getByTestId('orders-import')).toHaveText(
    /^sample-orders\.csv was already imported for this site at Station A \(.+\); its orders can be scanned at every station\.$/,
  );
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

  // A's printer switched off: a reprint there from B's History says it waits for that printer,
  // not that it was sent (trial of 2026-11-29).
  await a.printer.close();
  await pageB
    .getByLabel('Reprint on printer')
    .selectOption({ label: 'ZD421 Station A (Station A)' });
  // The button says where it prints, not "here".
  await expect(
    pageB.getByTestId('site-label-detail').getByRole('button', { name: /^Reprint/ }),
  ).toHaveText('Reprint on ZD421 Station A (Station A)');
  await pageB.getByLabel('Reprint reason').fill('box moved to station A');
  await pageB.getByLabel('Reprint reason').press('Enter');
  const toast = pageB.getByTestId('toast').last();
  await expect(toast).toContainText(
    /^Reprint of LUM-10421 queued for ZD421 Station A \(Station A\): it prints when the printer is ready \(.*not answering/,
  );
  await pageB.screenshot({ path: info.outputPath('station-b-reprint-printer-off.png') });

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

/** The cells of these columns that are not whole on one line: wrapped, or cut short with …. */
function notWhole(page: Page, columns: number[]): Promise<string[]> {
  return page
    .getByTestId('site-history-row')
    .locator(columns.map((c) => `td:nth-child(${c})`).join(', '))
    .evaluateAll((cells) =>
      cells
        .filter((td) => {
          const text = td.ownerDocument.createRange();
          text.selectNodeContents(td);
          const lines = new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
          return lines > 1 || td.scrollWidth > td.clientWidth;
        })
        .map((td) => td.textContent ?? ''),
    );
}

test('Site History at 1366×768: the first row selected, its pane shown; dates, order and tracking numbers whole in normal and large text', async ({
  browser,
}, info) => {
  const { site, a, b } = await world.twoStations();
  const pageA = await browser.newPage();
  await pageA.goto(a.station.url);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(pageA);
  await pageA.keyboard.press('Alt+1');
  await scanAndBuy(pageA, 'LUM-10421');
  await expect
    .poll(async () => (await site.owner.pool.query(`SELECT 1 FROM site_labels`)).rowCount, {
      timeout: 30_000,
    })
    .toBe(1);
  // A busy day at station A: 30 more labels, older, with a long service and packer name.
  await site.owner.pool.query(
    `INSERT INTO site_labels (station_id, local_id, purchase_id, platform_label_id, profile_id,
            environment, tenant_id, order_number, order_reference, tracking_number, carrier,
            service_level, cost_cents, currency, packer, created_at)
     SELECT station_id, local_id + n, purchase_id || '-' || n, platform_label_id || '-' || n,
            profile_id, environment, tenant_id, 'ORD-' || (2000 + n), order_reference || '-' || n,
            '9400' || lpad(n::text, 18, '1'), carrier, 'Ground Advantage Saturday Delivery',
            cost_cents, currency, 'Dana Whitfield-Okonkwo', created_at - n * interval '1 hour'
       FROM site_labels, generate_series(1, 30) AS n`,
  );

  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(b.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await page.keyboard.press('Alt+4');
  const rows = page.getByTestId('site-history-row');
  const detail = page.getByTestId('site-label-detail');
  await expect(rows).toHaveCount(31);
  // The first row is selected and its pane shown, as in this station's History.
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await expect(detail).toContainText('Order LUM-10421');
  await expect(detail.getByLabel('Reprint reason')).toBeVisible();
  // ↓ from the search box into the rows, ↓ moves (the pane follows), ↑ back to the box.
  const search = page.getByLabel('Search labels');
  await expect(search).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(detail).toContainText('Order ORD-2001');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(search).toBeFocused();
  // Typed, not searched yet: ↓ searches first, then goes to the first match, selected.
  await search.fill('ORD-201');
  await page.keyboard.press('ArrowDown');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toBeFocused();
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await expect(detail).toContainText('Order ORD-2010');
  // Each search selects its first row: the pane is never left empty.
  await search.fill('');
  await search.press('Enter');
  await expect(rows).toHaveCount(31);
  await expect(detail).toContainText('Order LUM-10421');

  for (const large of [false, true]) {
    if (large) await page.keyboard.press('Alt+l');
    await expect(page.locator('html')).toHaveClass(large ? /large-text/ : /^(?!.*large-text)/);
    // Created, Order and Tracking whole on one line (a trial read "ORD-" and "2009" apart).
    expect(await notWhole(page, [1, 2, 3])).toEqual([]);
    expect(await pastRightEdge(page, '.site-history', 1366)).toEqual([]);
    // Every column in view beside the pane, Reprints too: the rows do not scroll sideways.
    const rowsBox = page.locator('.site-history .history-rows');
    expect(await rowsBox.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    // Carrier keeps its carrier and the start of its service (a trial read "U." in large text).
    const carrierEms = await rows
      .first()
      .locator('td')
      .nth(3)
      .evaluate(
        (el) =>
          el.getBoundingClientRect().width /
          parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).fontSize),
      );
    expect(carrierEms).toBeGreaterThanOrEqual(6);
    // The brand is in the pane (large text has no Brand column).
    await expect(detail).toContainText('Lumen Candle Works');
    await page.screenshot({
      path: info.outputPath(`site-history-${large ? 'large' : 'normal'}.png`),
    });
  }
  await site.owner.close();
});

test('at 1366×768, in normal and large text, Settings with a site store stays inside the window, box names whole', async ({
  browser,
}, info) => {
  const { a } = await world.twoStations();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(a.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await page.keyboard.press('Alt+7');
  const panel = page.getByTestId('site-store-panel');
  await expect(panel.getByRole('row', { name: /Station B/ })).toBeVisible({ timeout: 15_000 });
  const names = page.getByLabel(/^Box \d+ name$/);
  await expect(names).not.toHaveCount(0);
  /** The box presets' names not shown whole in their fields ("Medium 12×10›" was read). */
  const cutNames = () =>
    names.evaluateAll((inputs) =>
      (inputs as unknown as { value: string; scrollWidth: number; clientWidth: number }[])
        .filter((input) => input.scrollWidth > input.clientWidth)
        .map((input) => input.value),
    );
  for (const large of [false, true]) {
    if (large) await page.keyboard.press('Alt+l');
    // Nothing past the window's right edge: the two columns share it, whatever they hold.
    expect(await pastRightEdge(page, '.settings', 1366)).toEqual([]);
    await page.getByLabel('Box 1 name').scrollIntoViewIfNeeded();
    await page.screenshot({
      path: info.outputPath(`settings-site-${large ? 'large' : 'normal'}-text.png`),
    });
    // Each box preset's name whole beside its sizes, in normal and large text ("Medium 12" was
    // read in large text; names much longer than "Medium 12×10×6" scroll in their fields).
    expect(await cutNames()).toEqual([]);
  }
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
