import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stationPerTest, printedLabels } from './station';

const station = stationPerTest();

test('first run opens the demo profile, and a keyboard-only scan prints a label on the virtual printer', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('environment-badge')).toHaveText(/SANDBOX/);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await expect(page.getByTestId('printer-status')).toContainText('ready');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await expect(scan).toBeFocused();
  await page.screenshot({ path: info.outputPath('pack-empty.png') });

  // Keyboard only: type the order number as a scanner would, Enter, then the buy key.
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10421');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
  await page.screenshot({ path: info.outputPath('pack-rated.png') });
  await page.keyboard.press('Control+Enter');
  const tracking = page.getByTestId('tracking-number');
  await expect(tracking).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect(scan).toBeFocused();
  await expect(page.getByTestId('label-preview').locator('img, svg').first()).toBeVisible({
    timeout: 20_000,
  });
  await page.screenshot({ path: info.outputPath('pack-printed.png') });

  const dir = join(station().dataDir, 'virtual-printer');
  await expect.poll(() => printedLabels(dir).length, { timeout: 15_000 }).toBe(1);
  const zpl = readFileSync(join(dir, printedLabels(dir)[0]!), 'utf8');
  expect(zpl).toContain((await tracking.textContent())!.trim());

  // Scanning the order again offers a reprint, not a second label.
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result')).toContainText('already has a label');
  await page.keyboard.press('Alt+R');
  await expect(page.getByRole('textbox', { name: 'Reprint reason' })).toBeFocused();
  await page.keyboard.type('label jammed in the printer');
  await page.keyboard.press('Enter');
  await expect.poll(() => printedLabels(dir).length, { timeout: 15_000 }).toBe(2);

  // History shows the label and the reprint audit.
  await page.keyboard.press('Alt+4');
  await page.getByTestId('history-table').locator('tbody tr').first().click();
  await expect(page.getByTestId('reprint-audit')).toContainText('label jammed in the printer');
  await expect(
    page.getByTestId('label-detail').getByTestId('label-preview').locator('img, svg').first(),
  ).toBeVisible({
    timeout: 20_000,
  });
  await page.screenshot({ path: info.outputPath('history.png') });
});

test('every view renders, and the carrier accounts show the PENDING authorization link', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  // Each view, once what it shows has arrived.
  for (const [key, name, shown] of [
    ['2', 'attention', page.getByRole('heading', { name: 'Needs attention' })],
    ['3', 'queue', page.getByTestId('print-jobs')],
    ['5', 'tracking', page.getByTestId('tracking-total').filter({ hasText: /\d+ shipments/ })],
    ['6', 'carriers', page.getByTestId('carrier-accounts').locator('tbody tr').first()],
    ['7', 'settings', page.getByRole('heading', { name: 'Profiles' })],
  ] as const) {
    await page.keyboard.press(`Alt+${key}`);
    await expect(shown).toBeVisible();
    await page.screenshot({ path: info.outputPath(`view-${name}.png`) });
  }
  await page.keyboard.press('Alt+6');
  await expect(page.getByTestId('carrier-accounts')).toContainText('PENDING');
  await expect(page.getByRole('link', { name: /authorization page/ })).toHaveAttribute(
    'href',
    /^https?:\/\//,
  );
});

test('the printed address opens the station once: a second browser gets a page saying how to open it, and no socket', async ({
  page,
  browser,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('environment-badge')).toBeVisible();
  // The one-time token was traded for an HttpOnly cookie: it is no longer in the address bar.
  expect(page.url()).not.toContain('token=');
  expect(
    await page.evaluate(
      () => (globalThis as unknown as { document: { cookie: string } }).document.cookie,
    ),
  ).toBe('');
  const port = new URL(station().url).port;

  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    await stranger.goto(station().url);
    await expect(
      stranger.getByRole('heading', { name: 'Open Shipping Station from the address it printed' }),
    ).toBeVisible();
    await expect(stranger.getByText('This address was already used')).toBeVisible();
    await expect(stranger.getByTestId('environment-badge')).toHaveCount(0);
    await stranger.screenshot({ path: info.outputPath('open-how.png') });
    const socket = await stranger.evaluate(
      (p) =>
        new Promise<string>((ok) => {
          const ws = new WebSocket(`ws://127.0.0.1:${p}/ws`);
          ws.onopen = () => ok('open');
          ws.onerror = () => ok('refused');
        }),
      port,
    );
    expect(socket).toBe('refused');
  } finally {
    await other.close();
  }
  const misdirected = await fetch(`http://127.0.0.1:${port}/ws`, {
    headers: { Host: 'evil.example' },
  }).catch(() => null);
  expect(misdirected?.status ?? 421).not.toBe(200);
});
