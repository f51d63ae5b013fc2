import { expect, test } from '@playwright/test';
import { stationPerTest } from './station';

const station = stationPerTest();

test('History: a label voided at the carrier is marked with why, offers no reprint, and End of day leaves it out', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  // Nothing bought yet: Manifest (Alt+M) says there is nothing to close out, and asks nothing.
  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('eod-total')).toContainText('0 labels');
  await page.keyboard.press('Alt+m');
  await expect(page.getByTestId('eod-line')).toHaveText(
    'No outbound label on these days: nothing to close out.',
  );
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.keyboard.press('Alt+1');
  for (const order of ['LUM-10421', 'LUM-10424']) {
    await page.getByRole('textbox', { name: 'Scan' }).fill(order);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('result')).toContainText(order, { timeout: 20_000 });
    await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/);
  }
  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('eod-total')).toContainText('2 labels');

  await page.keyboard.press('Alt+4');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(2);
  await rows.filter({ hasText: 'LUM-10421' }).click();
  const detail = page.getByTestId('label-detail');
  await detail.getByRole('button', { name: 'Voided at the carrier…' }).click();
  const why = page.getByLabel('Why the label was voided');
  await expect(why).toBeFocused();
  // A reason is asked for; Enter without one says so and marks nothing.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('void-said')).toContainText('Say why');
  await why.fill('Wrong address, relabelled');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('voided-note')).toContainText(
    'Wrong address, relabelled. Left out of End of day and the manifest; not reprinted.',
  );
  await expect(detail.getByRole('button', { name: /Reprint…/ })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'LUM-10421' })).toContainText('voided');
  await page.screenshot({ path: info.outputPath('history-voided.png') });
  // R on the row says why rather than asking for a reprint reason.
  await rows.filter({ hasText: 'LUM-10421' }).press('r');
  await expect(page.getByTestId('toast')).toContainText('voided at the carrier: not reprinted');

  // Scanned again at Pack: the order's label is said voided, and the way to buy another.
  await page.keyboard.press('Alt+1');
  await page.getByRole('textbox', { name: 'Scan' }).fill('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result')).toContainText(
    'was voided at the carrier (Wrong address, relabelled): it is not reprinted. Press Ctrl+Shift+A to buy another.',
  );
  await expect(page.getByTestId('rates')).toContainText('Its label was voided at the carrier');
  await expect(page.getByRole('button', { name: /^Reprint / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Buy another label/ })).toBeVisible();
  // Ctrl+Shift+A: the label bought now replaces the voided one, said so (it used to read "it
  // already has label … Ctrl+Enter buys and charges a second one"). Esc buys nothing.
  await page.keyboard.press('Control+Shift+A');
  await expect(page.getByTestId('buy-another')).toHaveText(
    /^A new label for LUM-10421: its label \d+ was voided at the carrier\. Ctrl\+Enter buys and charges a new one; Esc cancels\.$/,
  );
  await page.keyboard.press('Escape');

  await page.keyboard.press('Alt+9');
  await expect(page.getByTestId('eod-total')).toContainText('1 label');
  await expect(page.getByTestId('eod-voided')).toContainText('1 voided at the carrier');
  await page.screenshot({ path: info.outputPath('end-of-day-voided.png') });
});
