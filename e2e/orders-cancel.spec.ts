import { expect, test } from '@playwright/test';
import { stationPerTest } from './station';

// An order the store cancelled: a shift lead cancels it in Orders (Alt+8), with a reason; Pack
// refuses it, saying who and why, and a batch of every order skips it. Reopened, it ships.

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

  // Reopened from Orders: it rates again.
  await page.keyboard.press('Alt+8');
  await page.getByTestId('count-cancelled').click();
  await expect(page.getByTestId('orders-pager')).toContainText('1 order');
  await page.getByTestId('cancel-orders').getByRole('button', { name: 'Reopen LUM-10423' }).click();
  await expect(page.getByTestId('cancel-outcome')).toHaveText('Reopened LUM-10423.');
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10423');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
});
