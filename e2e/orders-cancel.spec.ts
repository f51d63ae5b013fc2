import { expect, test } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stationPerTest } from './station';

// An order the store cancelled: a shift lead cancels it in Orders (Alt+8), with a reason; Pack
// refuses it, saying who and why, a batch of every order skips it, and the store's file changing
// it leaves it cancelled (said). Reopened, with a reason, it ships.

const station = stationPerTest();

test('a shift lead cancels an order in Orders: Pack refuses it, a batch skips it; reopened, it rates', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+8');
  await expect(page.getByTestId('orders-pager')).toContainText('of 6 orders');
  await page.getByLabel('Search orders').fill('LUM-10423');
  await expect(page.getByTestId('orders-pager')).toContainText('1 order');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  const panel = page.getByTestId('cancel-orders');
  await panel.getByRole('button', { name: 'Cancel 1 picked order…' }).click();
  // Asked why; a reason too short is refused, nothing cancelled.
  const why = page.getByLabel('Why the orders are cancelled');
  await expect(why).toBeFocused();
  await page.keyboard.type('no');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cancel-outcome')).toContainText('Say why');
  await why.fill('Customer cancelled in Shopify');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cancel-outcome')).toHaveText('Cancelled LUM-10423.');
  const row = page.getByTestId('order-row').filter({ hasText: 'LUM-10423' });
  await expect(row).toContainText('cancelled');
  await expect(row.getByTestId('order-reason')).toHaveText(
    'Cancelled by packer: Customer cancelled in Shopify',
  );
  // The form is gone and the focus with it: the list's keys take it back to the row in hand.
  await page.keyboard.press('ArrowDown');
  await expect(row).toBeFocused();
  await page.screenshot({ path: info.outputPath('orders-cancelled.png') });

  // The batch of every order: five to buy, the cancelled one said as skipped.
  await page.getByLabel('Search orders').fill('');
  await expect(page.getByTestId('orders-pager')).toContainText('of 6 orders');
  await expect(page.getByTestId('count-cancelled')).toContainText('1');
  await page.keyboard.press('Alt+b');
  const ask = page.getByRole('alertdialog', { name: 'Confirm the batch' });
  await expect(ask).toContainText(
    /^Buy and print labels for the 5 orders without one \((LUM-\d+, ){4}LUM-\d+\)\? Each label is charged; the 1 that was cancelled is skipped\./,
  );
  await expect(ask).not.toContainText('LUM-10423');
  await page.keyboard.press('Escape');

  // Pack: the scan says who cancelled it and why; nothing is rated or bought.
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10423');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('failure-message')).toHaveText(
    'Order LUM-10423 was cancelled by packer (Customer cancelled in Shopify): nothing is bought for it. If it ships after all, a shift lead reopens it in Orders (Alt+8).',
  );
  await expect(page.getByTestId('result')).toContainText('ORDER CANCELLED — DO NOT SHIP');
  await expect(page.getByTestId('rates')).toContainText('Cancelled: nothing to rate or buy.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveCount(0);

  // The store's file again, the order changed in it: updated, and said to stay cancelled.
  await page.keyboard.press('Alt+8');
  const file = join(mkdtempSync(join(tmpdir(), 'station-orders-')), 'changed.csv');
  writeFileSync(
    file,
    'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs\n' +
      'LUM-10423,Priya Natarajan,9 New Street,Boston,MA,02110,US,2\n',
  );
  await page.getByLabel('Import orders file here').setInputFiles(file);
  await expect(page.getByTestId('import-still-cancelled')).toContainText(
    'LUM-10423): updated from the file, and still cancelled here',
  );

  // Reopened from Orders, with a reason (asked as a cancel is): it rates again.
  await page.getByTestId('count-cancelled').click();
  await expect(page.getByTestId('orders-pager')).toContainText('1 order');
  await page.keyboard.press('ArrowDown');
  await panel.getByRole('button', { name: 'Reopen LUM-10423…' }).click();
  const whyReopen = page.getByLabel('Why the orders are reopened');
  await expect(whyReopen).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cancel-outcome')).toContainText('Say why it ships after all');
  await whyReopen.fill('Customer reinstated the order');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cancel-outcome')).toHaveText('Reopened LUM-10423.');
  // The import report above no longer says it is still cancelled.
  await expect(page.getByTestId('import-report')).toBeVisible();
  await expect(page.getByTestId('import-still-cancelled')).toHaveCount(0);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10423');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
});
