import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  startProvisionedStation,
  startSandboxProcess,
  startStation,
  type RunningStation,
  type SandboxProcess,
  importOrders,
  scanAndBuy,
} from './station';

/**
 * Issue 13, items 7–22, probed the way a new user meets them: `npm run sandbox -- --port 0`
 * started on its own, a station provisioned against it, and a TCP "printer" that is not the
 * project's virtual printer but a few lines of net.Server written here (it answers `~HS` like
 * a healthy Zebra, never `~HQES`, and can be switched off and on at the same port).
 */

/** A tiny thermal printer on a TCP port: collects labels, answers ~HS, ignores everything else. */
class TinyPrinter {
  readonly labels: string[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  async switchOn(): Promise<void> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      let pending = '';
      socket.on('data', (chunk) => {
        pending += chunk.toString('latin1');
        for (;;) {
          const hs = pending.indexOf('~HS');
          const xz = pending.indexOf('^XZ');
          if (xz >= 0 && (hs < 0 || xz < hs)) {
            const start = pending.lastIndexOf('^XA', xz);
            if (start >= 0) this.labels.push(pending.slice(start, xz + 3));
            pending = pending.slice(xz + 3);
          } else if (hs >= 0) {
            const printed = pending.slice(0, hs);
            pending = printed + pending.slice(hs + 3);
            socket.write(
              '\x02030,0,0,1218,000,0,0,0,000,0,0,0\x03\r\n' +
                '\x02001,0,0,0,0,2,6,0,00000000,1,000\x03\r\n' +
                '\x021234,0\x03\r\n',
            );
          } else break;
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((ok) => server.listen(this.port, '127.0.0.1', ok));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async switchOff(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((ok) => server.close(() => ok()));
  }
}

let sandbox: SandboxProcess | null = null;
let printer: TinyPrinter | null = null;
let station: RunningStation | null = null;

test.afterEach(async () => {
  await station?.stop();
  station = null;
  await printer?.switchOff();
  printer = null;
  await sandbox?.stop();
  sandbox = null;
});

/** A station provisioned for the separately started sandbox, printing to the tiny printer. */
async function provisioned(
  dpi: 203 | 300 = 203,
  profile: Record<string, unknown> = {},
  secret = 'demo-lumen-full-secret',
): Promise<RunningStation> {
  sandbox = await startSandboxProcess();
  printer = new TinyPrinter();
  await printer.switchOn();
  return startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port, dpi },
    profile: { id: 'lumen-dock', name: 'Lumen dock', ...profile },
    secret,
  });
}

const wholeText = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => el.scrollWidth <= el.clientWidth + 1);

for (const size of [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
]) {
  test(`#13.7/#13.9 at ${size.width}×${size.height}: a switched-off printer makes a two-package purchase amber "(not answering)"; switched on, both labels print and it turns green`, async ({
    page,
  }, info) => {
    station = await provisioned();
    await page.setViewportSize(size);
    await page.goto(station.url);
    await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
    await expect(page.getByTestId('printer-status')).toContainText('ZD421 ready', {
      timeout: 20_000,
    });
    await importOrders(page);
    await page.keyboard.press('Alt+1');

    await printer!.switchOff();
    const header = page.getByTestId('printer-status');
    await expect(header).toContainText('ZD421: not answering', { timeout: 20_000 });
    expect(await wholeText(page, 'printer-status')).toBe(true);

    await scanAndBuy(page, 'LUM-10424');
    const result = page.getByTestId('result');
    await expect(result).toHaveAttribute('data-phase', 'waiting', { timeout: 30_000 });
    await expect(result).toContainText('BOUGHT — WAITING FOR PRINTER');
    await expect(page.getByTestId('result-message')).toHaveText(
      'Bought — waiting for ZD421 (not answering); it prints when the printer is back.',
    );
    await expect(result).not.toContainText('Sent to');
    expect(
      await result.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).borderColor),
      'amber, not green',
    ).toBe('rgb(245, 158, 11)');
    // Both packages' tracking numbers, already while it waits.
    await expect(page.getByTestId('package-tracking')).toHaveCount(2);
    const reprint = page.getByRole('button', { name: /^Reprint / });
    const rb = (await reprint.boundingBox())!;
    expect(rb.y + rb.height).toBeLessThanOrEqual(size.height);
    expect(await wholeText(page, 'printer-status')).toBe(true);
    // The whole result (numbers, message, carrier and cost) is readable without scrolling.
    await expect(result).toContainText('USPS');
    expect(
      await result.locator('.result-main').evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
      'nothing of the result is hidden below its panel',
    ).toBe(true);
    await page.screenshot({ path: info.outputPath(`probe-waiting-${size.width}.png`) });
    expect(printer!.labels).toHaveLength(0);

    // The printer comes back on the same port: two labels, one per package, and green.
    await printer!.switchOn();
    await expect(result).toHaveAttribute('data-phase', 'printed', { timeout: 45_000 });
    await expect(result).toContainText('LABEL PRINTED');
    await expect(page.getByTestId('result-message')).toContainText('Printed on ZD421');
    const numbers = await page
      .getByTestId('package-tracking')
      .locator('.tracking')
      .allTextContents();
    await expect.poll(() => printer!.labels.length, { timeout: 15_000 }).toBe(2);
    for (const n of numbers) expect(printer!.labels.some((z) => z.includes(n.trim()))).toBe(true);
    await expect(header).toContainText('ZD421 ready', { timeout: 20_000 });
    await page.screenshot({ path: info.outputPath(`probe-printed-${size.width}.png`) });
  });
}

test('#13.10/#13.22 a hand-written order file: a bad row is named as a spreadsheet shows it, with its order; an order weighed by hand, bought, and scanned again does not ask for its weight', async ({
  page,
}, info) => {
  station = await startStation();
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station.url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  const file = join(info.outputDir, 'by-hand.csv');
  mkdirSync(info.outputDir, { recursive: true });
  writeFileSync(
    file,
    [
      'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
      'HAND-1,tnt_lumen,Ann Lee,1 Main St,Austin,TX,78701,US,',
      'HAND-2,tnt_lumen,Bob Roe,2 Main St,Austin,TX,78701,US,2',
      'HAND-3,tnt_lumen,Cy Poe,3 Main St,Austin,TX,78701,US,two pounds',
    ].join('\n'),
  );
  await importOrders(page, file);
  const report = page.getByTestId('import-report');
  await expect(report).toContainText('2 imported');
  await expect(report).toContainText('row 4 (order HAND-3)');
  await expect(report).not.toContainText('row 3 ');
  await page.screenshot({ path: info.outputPath('probe-import-report.png') });

  // HAND-1 has no weight in the file: the packer weighs it by hand (keyboard only) and buys.
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('HAND-1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rates')).toContainText('Weigh each package to rate.');
  await page.keyboard.press('Alt+w');
  await page.keyboard.type('2.5');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toHaveAttribute('data-phase', 'printed', {
    timeout: 30_000,
  });

  // Scanned again: a reprint is offered, and nothing asks for a weight that is already there.
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: 'Scan' }).focus();
  await page.keyboard.type('HAND-1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rates')).toContainText('Already labelled');
  await expect(page.getByTestId('rates')).not.toContainText('Weigh each package');
  // Nor does the weight box light up amber as "missing" on an order that is already labelled.
  await expect(page.getByLabel('Package 1 weight in pounds')).not.toHaveClass(/missing/);
  await expect(page.getByRole('button', { name: /^Reprint / })).toBeVisible();
  await page.screenshot({ path: info.outputPath('probe-rescan-hand-weighed.png') });
});

test('#13.18 a connection that expires during the shift raises the EXPIRED banner by itself once the next order is rated, and Carrier accounts says so', async ({
  page,
}, info) => {
  station = await provisioned();
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
  await importOrders(page);
  await page.keyboard.press('Alt+6');
  await expect(page.getByTestId('carrier-accounts')).toContainText('Lumen UPS', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('expired-banner')).toHaveCount(0);

  // The brand's owner lets the UPS connection lapse on the platform, mid-shift.
  const res = await fetch(`${sandbox!.url}/sandbox/connections/conn_lumen_ups/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationStatus: 'EXPIRED' }),
  });
  expect(res.status).toBe(200);

  // The packer goes on packing; nobody presses a refresh anywhere. LUM-10422 may have been
  // pre-rated before the expiry (UPS among its rates, shown at once): the station then reads
  // Lumen's accounts again after the scan, and Pack rates again and says why (seen with a wait
  // here; test/core/station/first-day-shift-lead.test.ts takes that path every time).
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const banner = page.getByTestId('expired-banner');
  await expect(banner).toContainText('Lumen UPS (UPS)', { timeout: 20_000 });
  // Under the banner, at 1366×768, every rate is in view (not scrolled away under an empty result).
  await expect(page.getByTestId('rate-reason')).toContainText('of 3 rates');
  await expect(page.getByRole('option')).toHaveCount(3);
  expect(
    await page
      .getByRole('listbox', { name: 'Rates' })
      .evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
    'every rate is in view',
  ).toBe(true);
  await page.screenshot({ path: info.outputPath('probe-expired-banner.png') });
  // A toast now (Alt+S: this station has no scale) is clear of the banner: below it, over the
  // view tabs (it covered the banner's words, just under the header).
  await page.keyboard.press('Alt+S');
  await expect(page.getByTestId('toast').last()).toBeVisible();
  const bannerBox = (await banner.boundingBox())!;
  const toastArea = (await page.locator('.toast-area').boundingBox())!;
  expect(toastArea.y).toBeGreaterThanOrEqual(bannerBox.y + bannerBox.height);
  await page.keyboard.press('Alt+6');
  await expect(
    page.getByTestId('carrier-accounts').locator('tr', { hasText: 'Lumen UPS' }),
  ).toContainText('EXPIRED');
});

/** LUM-10421 rated (the rule picks USPS), its USPS connection lapses, Ctrl+Enter is refused. */
async function buyRefusedForLapsedConnection(page: Page, info: TestInfo) {
  station = await provisioned();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen dock');
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('USPS', { timeout: 20_000 });

  // The rule picked a USPS rate; the USPS connection lapses before the packer confirms.
  const res = await fetch(`${sandbox!.url}/sandbox/connections/conn_lumen_usps/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationStatus: 'EXPIRED' }),
  });
  expect(res.status).toBe(200);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toContainText('not authorized', { timeout: 20_000 });
  // The dead rate is no longer offered as the rule's choice.
  await expect(page.getByTestId('rate-reason')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('lapsed-connection.png') });
  // The keys say what they do now: nothing is bought before the new rates are seen.
  await expect(page.getByTestId('rates')).toContainText(
    'Press Enter or Ctrl+Enter to rate; nothing is bought until you see the rates.',
  );
}

/** Ctrl+Enter on the rates now shown buys from UPS: the one label of the order. */
async function buyShownUpsRate(page: Page) {
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toContainText('LABEL', { timeout: 20_000 });
  const ledger = (await sandbox!.ledger()) as { serviceLevel?: string }[];
  expect(ledger).toHaveLength(1);
  expect(ledger[0]!.serviceLevel).toMatch(/^UPS_/);
}

test('a carrier connection that lapses between the rates and Ctrl+Enter: its rates go; the next Ctrl+Enter rates again and shows the new choice, and only the one after buys it', async ({
  page,
}, info) => {
  await buyRefusedForLapsedConnection(page, info);
  // The next Ctrl+Enter rates again (the USPS rates are gone) and shows UPS at its price: the
  // rule's choice is now another carrier at another price, and no money is spent unseen.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('UPS', { timeout: 20_000 });
  await expect(
    page.getByText(
      /Rated again: the rule's choice is now UPS UPS_\w+ at [\d.]+ USD\. Check it, then Ctrl\+Enter buys it\./,
    ),
  ).toBeVisible();
  expect(await sandbox!.ledger()).toHaveLength(0);
  await page.screenshot({ path: info.outputPath('lapsed-connection-rated-again.png') });
  await buyShownUpsRate(page);
});

test('after a refused buy, Enter in the empty scan field rates the order on screen (as the Rates panel says), and buys nothing', async ({
  page,
}, info) => {
  await buyRefusedForLapsedConnection(page, info);
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toContainText('UPS', { timeout: 20_000 });
  expect(await sandbox!.ledger()).toHaveLength(0);
  await buyShownUpsRate(page);
});

test("#13.12/#13.14/#13.18 a 3PL at 1366×768: its brands' labels in History with whole columns, a reprint made on Pack counted in History, and the brands' EXPIRED account in the banner", async ({
  page,
}, info) => {
  station = await provisioned(
    203,
    {
      id: 'harbor-edison',
      name: 'Harbor Edison',
      clientId: 'demo-harbor-full',
      tenantId: 'tnt_harbor',
      tenantType: 'thirdPartyLogistic',
      brandTenants: [
        { tenantId: 'tnt_driftwood', name: 'Driftwood Coffee Co.' },
        { tenantId: 'tnt_pinecrest', name: 'Pinecrest Outdoor Supply' },
      ],
      shippingSiteId: 'site_harbor_edison',
    },
    'demo-harbor-full-secret',
  );
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Harbor Edison');
  // The brands' accounts ride on Harbor's UPS connection, which is EXPIRED: the banner names them.
  await expect(page.getByTestId('expired-banner')).toContainText('UPS', { timeout: 20_000 });
  mkdirSync(info.outputDir, { recursive: true });
  const file = join(info.outputDir, 'brands.csv');
  writeFileSync(
    file,
    [
      'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
      'PINE-20001,tnt_pinecrest,Ann Lee,1 Main St,Austin,TX,78701,US,4.2',
      'DRIFT-30001,tnt_driftwood,Bob Roe,2 Main St,Austin,TX,78701,US,1.1',
    ].join('\n'),
  );
  await importOrders(page, file);
  await expect(page.getByTestId('import-report')).toContainText('2 imported');
  await page.keyboard.press('Alt+1');
  for (const order of ['PINE-20001', 'DRIFT-30001']) {
    await scanAndBuy(page, order);
    await expect(page.getByTestId('result')).toHaveAttribute('data-phase', 'printed', {
      timeout: 30_000,
    });
  }
  // A reprint of the last label, from Pack, by keyboard.
  await page.keyboard.press('Alt+r');
  await page.getByLabel('Reprint reason').fill('coffee spilt on it');
  await page.getByLabel('Reprint reason').press('Enter');
  await expect.poll(() => printer!.labels.length, { timeout: 15_000 }).toBe(3);

  await page.keyboard.press('Alt+4');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(2);
  const drift = rows.filter({ hasText: 'DRIFT-30001' });
  const pine = rows.filter({ hasText: 'PINE-20001' });
  await expect(pine).toContainText('Pinecrest Outdoor Supply');
  await expect(drift).toContainText('Driftwood Coffee Co.');
  await expect(drift.getByTestId('reprint-count')).toHaveText('1');
  await expect(pine.getByTestId('reprint-count')).toHaveText('0');
  for (const row of await rows.all())
    for (const col of [0, 1, 2, 3, 5, 6, 7])
      expect(
        await row
          .locator('td')
          .nth(col)
          .evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
        `column ${col} of "${await row.textContent()}" is whole`,
      ).toBe(true);
  await page.screenshot({ path: info.outputPath('probe-history-3pl-1366.png') });
});

test('#13.19/#13.8 at 1366×768: a two-package purchase to a 300-dpi printer says the DPI warning, and the whole result still fits', async ({
  page,
}, info) => {
  station = await provisioned(300);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(station.url);
  await expect(page.getByTestId('printer-status')).toContainText('ZD421 ready', {
    timeout: 20_000,
  });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await scanAndBuy(page, 'LUM-10424');
  const result = page.getByTestId('result');
  await expect(result).toHaveAttribute('data-phase', 'printed', { timeout: 30_000 });
  await expect(result.getByTestId('print-warnings')).toContainText('203-dpi');
  await expect(result.getByTestId('print-warnings')).toContainText('300 dpi');
  await expect(page.getByTestId('package-tracking')).toHaveCount(2);
  expect(
    await result.locator('.result-main').evaluate((el) => el.scrollHeight <= el.clientHeight + 1),
    'nothing of the result is hidden below its panel',
  ).toBe(true);
  const reprint = (await page.getByRole('button', { name: /^Reprint / }).boundingBox())!;
  expect(reprint.y + reprint.height).toBeLessThanOrEqual(768);
  await page.screenshot({ path: info.outputPath('probe-dpi-two-packages-1366.png') });
});

test('#13.7 a printer switched off the moment before Buy (before the header noticed) still ends amber, never green "Sent to"', async ({
  page,
}, info) => {
  station = await provisioned();
  await page.goto(station.url);
  await expect(page.getByTestId('printer-status')).toContainText('ZD421 ready', {
    timeout: 20_000,
  });
  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await printer!.switchOff();
  await page.keyboard.press('Control+Enter');
  const result = page.getByTestId('result');
  await expect(result).toHaveAttribute('data-phase', 'waiting', { timeout: 30_000 });
  await expect(page.getByTestId('result-message')).toContainText(
    /^Bought — waiting for ZD421 \(not answering\); it prints when the printer is back\.$/,
  );
  await expect(result).not.toContainText('Sent to');
  await page.screenshot({ path: info.outputPath('probe-waiting-late.png') });
  await printer!.switchOn();
  await expect(result).toHaveAttribute('data-phase', 'printed', { timeout: 45_000 });
  await expect.poll(() => printer!.labels.length, { timeout: 15_000 }).toBe(1);
});
