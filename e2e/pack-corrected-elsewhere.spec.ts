import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { siteWorld } from './site';
import { importOrders } from './station';

// A shift lead's evening (trial of 2026-11-29, late night): an order rated on Pack at station A
// was corrected (imported again with a new street) at station B. A's buy was refused, rightly,
// but Pack kept showing the old address and its rates until the order was scanned again. Now
// the refusal shows the order as it is now, rated again, and the next Ctrl+Enter buys it there.

const world = siteWorld();
const samples = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../resources/orders/sample-orders.csv',
);

test('a buy refused because the order was corrected at another station shows it as it is now, and Ctrl+Enter buys it there', async ({
  browser,
}, info) => {
  test.setTimeout(150_000);
  const { a, b } = await world.twoStations();
  const [pageA, pageB] = [await browser.newPage(), await browser.newPage()];
  for (const [page, s] of [
    [pageA, a],
    [pageB, b],
  ] as const) {
    await page.goto(s.station.url);
    await expect(page.getByTestId('site-status')).toContainText('Site: synced', {
      timeout: 30_000,
    });
  }
  await importOrders(pageA);
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await pageA.keyboard.press('Alt+1');
  const scan = pageA.getByRole('textbox', { name: 'Scan' });
  await scan.fill('LUM-10421');
  await scan.press('Enter');
  await expect(pageA.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const order = pageA.getByTestId('order-panel');
  await expect(order).toContainText('418 Willow Lane');
  // Weighed by hand at 2.4 lb (the file says 1.8) and rated at that weight.
  const weight = pageA.getByLabel('Package 1 weight in pounds');
  await weight.fill('2.4');
  await weight.press('Enter');
  await expect(pageA.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });

  // The corrected street, imported at station B while A's packer has the rates on screen.
  const [header, ...rows] = readFileSync(samples, 'utf8').trim().split('\n');
  const row = rows.find((r) => r.startsWith('LUM-10421,'))!;
  const file = info.outputPath('corrections.csv');
  writeFileSync(file, `${header}\n${row.replace('418 Willow Lane', '77 Harbor Rd')}\n`);
  await importOrders(pageB, file);
  await expect(pageB.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });

  // A's Ctrl+Enter: refused (nothing bought), and Pack now shows the order as B corrected it.
  await scan.focus();
  await pageA.keyboard.press('Control+Enter');
  const result = pageA.getByTestId('result');
  await expect(result).toContainText(
    'Order LUM-10421 was imported again after it was rated (its ship-to is now Maya Okafor, 77 Harbor Rd, Evanston, IL, 60201, US): nothing was bought. It is shown as it is now and rated again: check the address and the rate, then Ctrl+Enter buys it.',
    { timeout: 20_000 },
  );
  await expect(result).toContainText('ORDER CHANGED — NOT BOUGHT');
  await expect(order).toContainText('77 Harbor Rd');
  await expect(order).not.toContainText('418 Willow Lane');
  await expect(pageA.getByTestId('rate-reason')).toBeVisible();
  // The correction changed the address only: the packer's weight stands (not the file's again).
  await expect(weight).toHaveValue('2.4');
  expect(a.printer.labels).toHaveLength(0);
  await pageA.screenshot({ path: info.outputPath('pack-corrected-elsewhere.png') });

  // The next Ctrl+Enter buys it, at the new address, with no new scan.
  await scan.focus();
  await pageA.keyboard.press('Control+Enter');
  await expect.poll(() => a.printer.labels.length, { timeout: 20_000 }).toBe(1);
  expect(a.printer.labels[0]!.zpl).toMatch(/77 Harbor Rd/i);
  expect(b.printer.labels).toHaveLength(0);
});
