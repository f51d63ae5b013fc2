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
