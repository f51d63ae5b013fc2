import { expect, test } from '@playwright/test';
import { importOrders, provisionedPerTest } from './station';

const lab = provisionedPerTest({ id: 'lumen-failed-rating', name: 'Lumen failed rating' });

const setUps = (url: string, authorizationStatus: string) =>
  fetch(`${url}/sandbox/connections/conn_lumen_ups/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationStatus }),
  });

test('a failed rating under Needs attention opens on Pack by keyboard and is rated again there (not only Dismiss)', async ({
  page,
}, info) => {
  const sandbox = lab.sandbox();
  // LUM-10423 may only ship by UPS, and the UPS connection has lapsed: its rating fails.
  expect((await setUps(sandbox.url, 'EXPIRED')).status).toBe(200);
  const station = await lab.lumen();
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen failed rating');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10423');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result')).toContainText('No rates', { timeout: 20_000 });

  // The owner re-authorizes UPS; the shift lead finds the order under Needs attention.
  expect((await setUps(sandbox.url, 'AUTHORIZED')).status).toBe(200);
  await page.keyboard.press('Alt+2');
  const item = page.getByTestId('attention-item').filter({ hasText: 'LUM-10423' });
  await expect(item).toContainText('no label');
  const open = item.getByRole('button', { name: 'Open on Pack and rate again' });
  await expect(open).toBeVisible();
  await expect(item.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  await page.screenshot({ path: info.outputPath('attention-failed-rating.png') });

  // Keyboard only: from the item's note, Tab reaches it first, Enter opens the order on Pack.
  await item.getByRole('textbox', { name: /^Note for / }).focus();
  await page.keyboard.press('Tab');
  await expect(open).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10423');
  await expect(page.getByTestId('rate-reason')).toContainText('UPS', { timeout: 20_000 });
  expect(await sandbox.ledger()).toHaveLength(0);
  await page.screenshot({ path: info.outputPath('attention-failed-rating-pack.png') });
});
