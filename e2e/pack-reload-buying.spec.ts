import { expect, test } from '@playwright/test';
import { importOrders, provisionedPerTest } from './station';

/**
 * A page reloaded while its label is being bought (a packer's F5, a second tab opened): the
 * label still comes out of the printer, and the page says whose it is, instead of an empty Pack.
 */

const lab = provisionedPerTest({ id: 'lumen-reload', name: 'Lumen reload' });

test('a page reloaded mid-purchase says which order is being bought, then shows its label with Reprint', async ({
  page,
}, info) => {
  const station = await lab.lumen();
  await page.goto(station.url);
  await expect(page.getByTestId('printer-status')).toContainText('ready');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });

  // The platform takes 4 s to sell this label; the page is reloaded meanwhile.
  await lab.sandbox().addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'delay',
    delayMs: 4000,
    times: 1,
  });
  await page.keyboard.press('Control+Enter');
  await page.waitForTimeout(500);
  await page.reload();

  const result = page.getByTestId('result');
  await expect(result).toContainText(
    'A label for order LUM-10422 is being bought (asked before this page was opened): it shows here when it is done.',
  );
  await page.screenshot({ path: info.outputPath('reloaded-while-buying.png') });
  expect(lab.printer().labels.length).toBe(0);

  // Bought: the order is on screen with its label, said as bought while the page opened.
  await expect(result).toContainText(
    "Order LUM-10422's label was bought while this page was being opened, and sent to the label printer",
    { timeout: 20_000 },
  );
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10422');
  await expect(page.getByRole('button', { name: /^Reprint/ })).toBeVisible();
  await expect.poll(() => lab.printer().labels.length, { timeout: 15_000 }).toBe(1);
  expect((await lab.sandbox().ledger()).length).toBe(1);
  await page.screenshot({ path: info.outputPath('reloaded-label.png') });
});

test('two tabs buy one order at once: the second is told the label is on its way and then shows it', async ({
  page,
  context,
}, info) => {
  const station = await lab.lumen();
  await page.goto(station.url);
  await expect(page.getByTestId('printer-status')).toContainText('ready');
  await importOrders(page);
  const other = await context.newPage();
  await other.goto(new URL('/', station.url).toString());
  await expect(other.getByTestId('printer-status')).toContainText('ready');
  for (const tab of [page, other]) {
    await tab.keyboard.press('Alt+1');
    await tab.keyboard.type('LUM-10422');
    await tab.keyboard.press('Enter');
    await expect(tab.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  }

  // The platform takes 4 s to sell this label; the first tab's buy key is pressed meanwhile.
  await lab.sandbox().addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'delay',
    delayMs: 4000,
    times: 1,
  });
  await other.keyboard.press('Control+Enter');
  await other.waitForTimeout(500);
  await page.bringToFront();
  await page.keyboard.press('Control+Enter');

  // Until 2026-11-29: a red FAILED "This order is being shipped right now" over a live buy key,
  // and the label never shown in this tab.
  const result = page.getByTestId('result');
  await expect(result).toContainText(
    'A label for order LUM-10422 is being bought right now elsewhere at this station (another tab or window, or its offline queue)',
  );
  await expect(result).not.toContainText('FAILED');
  await expect(page.getByRole('button', { name: /Buy .*& print/ })).toBeDisabled();
  await page.screenshot({ path: info.outputPath('second-tab-while-buying.png') });

  await expect(result).toContainText(
    "Order LUM-10422's label was bought meanwhile elsewhere at this station",
    { timeout: 20_000 },
  );
  await expect(page.getByRole('button', { name: /^Reprint/ })).toBeVisible();
  await expect.poll(() => lab.printer().labels.length, { timeout: 15_000 }).toBe(1);
  expect((await lab.sandbox().ledger()).length).toBe(1);
  await page.screenshot({ path: info.outputPath('second-tab-label.png') });
});

test('an order scanned in a second tab while the first buys it: said as being bought, then its label', async ({
  page,
  context,
}, info) => {
  const station = await lab.lumen();
  await page.goto(station.url);
  await expect(page.getByTestId('printer-status')).toContainText('ready');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await lab.sandbox().addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'delay',
    delayMs: 4000,
    times: 1,
  });
  await page.keyboard.press('Control+Enter');

  const other = await context.newPage();
  await other.goto(new URL('/', station.url).toString());
  await expect(other.getByTestId('printer-status')).toContainText('ready');
  // A page opened mid-purchase says so by itself; the packer scans the order anyway.
  await other.keyboard.press('Alt+1');
  await other.keyboard.type('LUM-10422');
  await other.keyboard.press('Enter');
  const result = other.getByTestId('result');
  // Until 2026-11-29: a red FAILED "This order is being shipped right now", and no label after.
  await expect(result).toContainText(
    'A label for order LUM-10422 is being bought right now elsewhere at this station (another tab or window, or its offline queue)',
  );
  await expect(result).not.toContainText('FAILED');
  await other.screenshot({ path: info.outputPath('scanned-while-buying.png') });
  await expect(result).toContainText(
    "Order LUM-10422's label was bought meanwhile elsewhere at this station",
    { timeout: 20_000 },
  );
  await expect(other.getByRole('button', { name: /^Reprint/ })).toBeVisible();
  await expect.poll(() => lab.printer().labels.length, { timeout: 15_000 }).toBe(1);
  expect((await lab.sandbox().ledger()).length).toBe(1);
});
