import { chromium, expect, test } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { chromiumLaunch } from './chromium';
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

test('every view shows what a person would look for there, and the carrier accounts show the PENDING authorization link', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  // One label first, so the Queue and History have something of their own to show.
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('cheapest');
  await page.keyboard.press('Control+Enter');
  const trackingNumber = page.getByTestId('tracking-number');
  await expect(trackingNumber).toHaveText(/\w{10,}/, { timeout: 20_000 });
  const tracking = (await trackingNumber.textContent())!.trim();
  const shot = (name: string) => page.screenshot({ path: info.outputPath(`view-${name}.png`) });

  // Pack: the scan box has the keyboard, and the order just bought is still on screen.
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10421');
  await shot('pack');

  // Needs attention: nothing, said in words (not an empty page).
  await page.keyboard.press('Alt+2');
  await expect(page.getByRole('heading', { name: 'Needs attention' })).toBeVisible();
  await expect(page.getByText('Nothing needs attention.')).toBeVisible();
  await shot('attention');

  // Queue: nothing waits; the label printed, so its job has left the list (the count says so).
  await page.keyboard.press('Alt+3');
  await expect(
    page.getByRole('heading', { name: 'Shipments waiting for the platform (0)' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Print jobs (0)' })).toBeVisible();
  await expect(page.getByTestId('print-jobs').locator('tbody tr')).toHaveCount(0);
  await shot('queue');

  // History: the one label, by its tracking number, and the count says one.
  await page.keyboard.press('Alt+4');
  const rows = page.getByTestId('history-table').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(tracking);
  await expect(page.getByTestId('history-pager')).toContainText('1–1 of 1 label');
  await shot('history');

  // Tracking: the board has loaded (a count, not "loading…"), and "All" agrees with it.
  await page.keyboard.press('Alt+5');
  await expect(page.getByRole('heading', { name: 'Tracking' })).toBeVisible();
  const total = page.getByTestId('tracking-total');
  await expect(total).toHaveText(/^\d+ shipments$/);
  const n = Number((await total.textContent())!.split(' ')[0]);
  await expect(page.getByRole('button', { name: `All ${n}` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Search trackers' })).toBeVisible();
  await shot('tracking');

  // Carriers: the brand's three accounts, each with its carrier and connection state.
  await page.keyboard.press('Alt+6');
  const accounts = page.getByTestId('carrier-accounts');
  for (const [name, carrier] of [
    ['Lumen UPS', 'UPS'],
    ['Lumen USPS', 'USPS'],
    ['Lumen FedEx', 'FEDEX'],
  ] as const)
    await expect(accounts.locator('tbody tr').filter({ hasText: name })).toContainText(carrier, {
      ignoreCase: true,
    });
  await expect(accounts).toContainText('PENDING');
  await expect(page.getByRole('link', { name: /authorization page/ })).toHaveAttribute(
    'href',
    /^https?:\/\//,
  );
  await shot('carriers');

  // Settings: the demo profile, active, and its printer.
  await page.keyboard.press('Alt+7');
  const profiles = page.getByTestId('profiles').locator('tbody tr');
  await expect(profiles).toHaveCount(1);
  await expect(profiles.first()).toContainText('Demo station (embedded sandbox)');
  await expect(profiles.first()).toContainText('active');
  await expect(profiles.first()).toContainText('embedded-sandbox');
  const printer = page.getByTestId('printers').locator('tbody tr').first();
  await expect(printer).toContainText('Virtual printer');
  await expect(printer).toContainText(/127\.0\.0\.1:\d+ · labels/);
  await shot('settings');
});

test('a browser restarted at the station (a crash, a reboot of the browser) comes back to the running station', async ({
  browserName,
}, info) => {
  void browserName;
  const profileDir = mkdtempSync(join(tmpdir(), 'station-browser-'));
  const launch = () =>
    chromium.launchPersistentContext(profileDir, { headless: true, ...chromiumLaunch });
  const first = await launch();
  try {
    const page = first.pages()[0] ?? (await first.newPage());
    await page.goto(station().url);
    await expect(page.getByTestId('environment-badge')).toBeVisible();
  } finally {
    await first.close();
  }
  // The browser starts again on its profile, at the station's address without the used token.
  const again = await launch();
  try {
    const page = again.pages()[0] ?? (await again.newPage());
    await page.goto(new URL('/', station().url).toString());
    await expect(page.getByTestId('environment-badge')).toBeVisible();
    await expect(page.getByTestId('connectivity')).toContainText('online');
    await page.screenshot({ path: info.outputPath('browser-restarted.png') });
  } finally {
    await again.close();
  }
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
  // Another Host header (DNS rebinding) is answered 421, never with the station. (fetch cannot
  // set Host: it always sends the real one, so node:http does.)
  const misdirected = await new Promise<number | undefined>((ok, ko) =>
    httpGet({ host: '127.0.0.1', port, path: '/', headers: { Host: 'evil.example' } }, (res) => {
      res.resume();
      ok(res.statusCode);
    }).on('error', ko),
  );
  expect(misdirected).toBe(421);
});
