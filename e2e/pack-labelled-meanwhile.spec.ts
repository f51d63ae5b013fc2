import { expect, test } from '@playwright/test';
import { printedLabels, stationPerTest } from './station';
import { join } from 'node:path';

/**
 * One station open in two tabs (or a second window left open): an order rated in the first is
 * bought in the second. The first tab's buy key is refused, and from there the packer gets the
 * label the order has, not a dead end.
 */
const station = stationPerTest();

test('an order labelled in another tab meanwhile: the refused buy shows its label, Alt+R reprints it', async ({
  page,
  context,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');

  // The same station in a second tab buys the order.
  const other = await context.newPage();
  await other.goto(new URL('/', station().url).toString());
  await expect(other.getByTestId('connectivity')).toContainText('online');
  await other.keyboard.type('LUM-10421');
  await other.keyboard.press('Enter');
  await expect(other.getByTestId('rate-reason')).toContainText('cheapest');
  await other.keyboard.press('Control+Enter');
  const bought = other.getByTestId('tracking-number');
  await expect(bought).toHaveText(/\w{10,}/, { timeout: 20_000 });
  const tracking = (await bought.textContent())!.trim();
  const dir = join(station().dataDir, 'virtual-printer');
  await expect.poll(() => printedLabels(dir).length, { timeout: 15_000 }).toBe(1);
  await other.close();

  // Back in the first tab, its rates still on screen: the buy is refused (nothing bought twice),
  // and the label the order now has is on screen with its keys.
  await page.bringToFront();
  await page.keyboard.press('Control+Enter');
  const result = page.getByTestId('result');
  await expect(result).toContainText(`already has a label (${tracking})`);
  await expect(result).toContainText('Ctrl+Shift+A');
  await expect(page.getByRole('button', { name: /Buy .*& print/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: `Reprint ${tracking} Alt+R` })).toBeVisible();
  await page.screenshot({ path: info.outputPath('labelled-in-another-tab.png') });

  // Alt+R reprints it (until 2026-11-29 Alt+R did nothing here and Buy & print stayed lit).
  await page.keyboard.press('Alt+R');
  await expect(page.getByRole('textbox', { name: 'Reprint reason' })).toBeFocused();
  await page.keyboard.type('second copy for the box');
  await page.keyboard.press('Enter');
  await expect.poll(() => printedLabels(dir).length, { timeout: 15_000 }).toBe(2);
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
});
