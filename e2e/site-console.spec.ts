import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { siteDatabase, STATION_PASSWORD } from '../test/core/site/support.js';
import { siteWorld } from './site';
import { cliArgs, importOrders, scanAndBuy } from './station';

// Issue 14 in Chromium: the shift-lead console (npm run web -- --console) on one site store with
// a packing station; sign-in and a shift lead's approval at a packing station.

const world = siteWorld();
const { packingStation } = world;

test("the console shows a second station's purchase within a second", async ({ browser }, info) => {
  const site = await siteDatabase(world.cluster());
  // Box presets set once for the site (npm run site -- setting boxPresets '[…]').
  await site.owner.setSetting(
    'boxPresets',
    JSON.stringify([
      { id: 'site-10', name: 'Site 10×8×4', code: 'S10', lengthIn: 10, widthIn: 8, heightIn: 4 },
    ]),
  );
  // The console: a screen with no printer or scanner, on the same site store.
  const consoleStation = await world.start({
    printer: { port: 9 },
    profile: { id: 'lumen-site', name: 'Lumen Chicago', printers: [] },
    file: { siteStore: { url: site.stationUrl, stationId: 'chi-lead', stationName: 'Lead desk' } },
    env: { STATION_SECRET_SITE_STORE: STATION_PASSWORD },
    args: ['--console'],
  });
  const b = await packingStation(site.stationUrl, 'chi-02', 'Station B');

  const lead = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await lead.goto(consoleStation.url);
  const consoleView = lead.getByTestId('site-console');
  await expect(consoleView).toBeVisible();
  // Console mode: no packing tabs.
  await expect(lead.getByRole('navigation', { name: 'Views' })).toHaveCount(0);
  const rowB = lead.getByTestId('console-stations').getByRole('row', { name: /Station B/ });
  await expect(rowB).toContainText('0.1.0 · site schema 9', { timeout: 30_000 });
  await expect(rowB).toContainText('ZD421 Station B: ready', { timeout: 30_000 });
  // Whether it can reach the platform, as its own header says (site migration 5).
  await expect(rowB.getByTestId('console-platform')).toHaveText('online', { timeout: 30_000 });
  // The console's own station is in the list, marked as such.
  const own = lead.getByTestId('console-stations').getByRole('row', { name: /Lead desk/ });
  await expect(own).toContainText('(this station)');
  await expect(rowB).not.toContainText('(this station)');

  const pageB = await browser.newPage();
  await pageB.goto(b.station.url);
  await expect(pageB.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await importOrders(pageB);
  await pageB.keyboard.press('Alt+1');
  await expect(lead.getByTestId('console-by-station')).not.toContainText('Station B');

  await scanAndBuy(pageB, 'LUM-10421');
  // The moment the platform has sold the label, the station commits it: from there, one second.
  let soldAt = 0;
  await expect
    .poll(
      async () => {
        const sold = (await world.sandbox().ledger()).length;
        if (sold && !soldAt) soldAt = Date.now();
        return sold;
      },
      { timeout: 30_000, intervals: [20] },
    )
    .toBe(1);
  // The console is told (NOTIFY → site-changed) and reads the site again: no polling.
  const byStation = lead.getByTestId('console-by-station').getByRole('row', { name: /Station B/ });
  await expect(byStation).toContainText('1', {
    timeout: Math.max(1, 1000 - (Date.now() - soldAt)),
  });
  expect(Date.now() - soldAt).toBeLessThan(1000);
  await expect(lead.getByTestId('console-cost')).toContainText('Lumen');
  await expect(lead.getByTestId('console-by-packer')).toContainText('packer');
  await expect(lead.getByTestId('hour-chart')).toContainText('1');
  await lead.screenshot({ path: info.outputPath('console.png'), fullPage: true });

  // A lead at Station B marks that label voided at the carrier (History): the console leaves it
  // out of the day's labels and cost and says it apart; Site History marks it, with no reprint.
  await pageB.keyboard.press('Alt+4');
  // History opens on the whole site; the mark is made on this station's own list.
  await pageB.getByLabel('History scope').selectOption('station');
  await pageB.getByTestId('history-row').filter({ hasText: 'LUM-10421' }).click();
  await pageB.getByRole('button', { name: 'Voided at the carrier…' }).click();
  await pageB.getByLabel('Why the label was voided').fill('Relabelled, wrong box');
  await pageB.keyboard.press('Enter');
  await expect(pageB.getByTestId('voided-note')).toBeVisible();
  await expect(lead.getByTestId('console-voided')).toHaveText(
    /^Voided at the carrier today, not counted above: 1 label, \d+\.\d\d USD\.$/,
    { timeout: 10_000 },
  );
  await expect(lead.getByTestId('console-by-station')).not.toContainText('Station B');
  await expect(lead.getByTestId('console-cost')).toContainText('0.00 USD');
  await lead.screenshot({ path: info.outputPath('console-voided.png'), fullPage: true });
  await pageB.getByRole('button', { name: 'Whole site' }).click();
  const siteRow = pageB.getByTestId('site-history-table').getByRole('row', { name: /LUM-10421/ });
  await expect(siteRow).toContainText('(voided)', { timeout: 10_000 });
  await siteRow.click();
  await expect(pageB.getByTestId('site-label-detail').getByTestId('voided-note')).toContainText(
    'Voided at the carrier (marked at Station B) by packer',
  );
  await expect(
    pageB.getByTestId('site-label-detail').getByRole('button', { name: 'Reprint here' }),
  ).toHaveCount(0);
  await pageB.screenshot({ path: info.outputPath('site-history-voided.png') });
  await pageB.keyboard.press('Alt+1');

  // Station B runs on with nothing to tell (its check-ins change nothing, so no NOTIFY): past
  // the 10 s after which a silent station shows offline, it is still online.
  await lead.waitForTimeout(12_000);
  await expect(rowB).not.toContainText('offline');
  await expect(rowB).toContainText(/\d s ago/);

  // Station B uses the site's box presets; it may keep its own, shown with a marker.
  await pageB.keyboard.press('Alt+7');
  const boxes = pageB.getByTestId('site-setting-boxPresets');
  await expect(boxes).toContainText('from the site');
  // The box presets editor shows the site's, read-only, and says who changes them.
  await expect(pageB.getByTestId('boxes-from-site')).toContainText(
    "These are the site's box presets",
  );
  await expect(pageB.getByLabel('Box 1 name')).toHaveValue('Site 10×8×4');
  await expect(pageB.getByLabel('Box 1 name')).toBeDisabled();
  await boxes.getByRole('button', { name: /Keep this station/ }).click();
  await expect(boxes).toContainText("this station's own (overrides the site)");
  // Its own again: editable, the site's note gone.
  await expect(pageB.getByTestId('boxes-from-site')).toHaveCount(0);
  await expect(pageB.getByLabel('Box 1 name')).toBeEnabled();
  await expect(pageB.getByLabel('Box 1 name')).not.toHaveValue('Site 10×8×4');
  await boxes.scrollIntoViewIfNeeded();
  await pageB.screenshot({ path: info.outputPath('site-settings-override.png') });

  // Station B stops: it sends nothing more, and the console ages its last heartbeat to offline.
  await pageB.close();
  await b.station.stop();
  await expect(rowB).toContainText('offline', { timeout: 30_000 });
  await site.owner.close();
});

test("sign-in by badge, and a packer's buy-another waits for a lead's badge", async ({
  browser,
}, info) => {
  // Three runs of the site CLI (a process each) and a look of the station's after
  // each: on a loaded machine well over the default minute (CI, 2026-11-29).
  test.setTimeout(150_000);
  const b = await packingStation(null, 'chi-02', 'Station B');
  // Site IT adds a packer and a lead to this station alone (badge and PIN on standard input).
  const cli = (args: string[], input: string) =>
    execFileSync(
      process.execPath,
      [
        ...cliArgs('site', 'src/core/site/cli.ts'),
        'users',
        ...args,
        '--station-dir',
        b.station.dataDir,
      ],
      { input },
    );
  // The station is open on the page, packing without sign-in, when site IT adds the users.
  const page = await browser.newPage();
  await page.goto(b.station.url);
  await expect(page.getByTestId('connectivity')).toContainText('online', { timeout: 30_000 });
  await expect(page.getByTestId('sign-in')).toHaveCount(0);
  cli(
    ['add', 'ana', '--name', 'Ana Ruiz', '--role', 'packer', '--badge', '--pin'],
    'BADGE-0017\n4821\n',
  );
  cli(['add', 'bo', '--name', 'Bo Lindqvist', '--role', 'lead', '--badge'], 'BADGE-0042\n');
  // The page turns to sign-in by itself (the station's next look, within its 10 s probe).
  await expect(page.getByTestId('sign-in')).toBeVisible({ timeout: 20_000 });
  // The screen says which station the packer signs in at.
  await expect(page.getByTestId('sign-in-station')).toContainText('Lumen Chicago');
  await page.screenshot({ path: info.outputPath('sign-in.png') });
  await page.getByTestId('badge-input').fill('BADGE-9999');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('credentials-error')).toContainText('That badge is not known');
  await page.keyboard.type('BADGE-0017');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sign-in')).toHaveCount(0);
  await expect(page.getByTestId('packing-user')).toContainText('Packing: Ana Ruiz');

  await importOrders(page);
  await page.keyboard.press('Alt+1');
  await scanAndBuy(page, 'LUM-10421');
  await expect.poll(() => b.printer.labels.length, { timeout: 30_000 }).toBe(1);
  const reprint = page.getByRole('button', { name: /^Reprint / });
  const first = /Reprint (\S+)/.exec((await reprint.textContent()) ?? '')![1]!;

  // The same order again: buying another needs a lead.
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  // The packer reads "already has a label … Ctrl+Shift+A to buy another", then presses it.
  await expect(page.getByText('Order LUM-10421 already has a label')).toBeVisible();
  await page.keyboard.press('Control+Shift+A');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('lead-prompt')).toContainText(
    'A shift lead must approve buying another label for order LUM-10421',
  );
  await page.screenshot({ path: info.outputPath('lead-approval.png') });
  expect(await world.sandbox().ledger()).toHaveLength(1);
  // The packer's own badge is not a lead's: said once, under the form; the question stays.
  await page.keyboard.type('BADGE-0017');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('credentials-error')).toHaveText(
    'Ana Ruiz is not a shift lead; a shift lead must scan their badge.',
  );
  await expect(page.getByTestId('lead-prompt')).toContainText(
    'A shift lead must approve buying another label for order LUM-10421',
  );
  await expect(page.getByText(/is not a shift lead/)).toHaveCount(1);
  expect(await world.sandbox().ledger()).toHaveLength(1);
  // Behind the question the rates say what is waited for: a lead, not the platform.
  await expect(page.getByTestId('waiting')).toContainText("Waiting for a shift lead's approval");
  // Esc: not now. The question closes, the order and its rates stay, the buy stays refused.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('lead-prompt')).toHaveCount(0);
  await expect(page.getByTestId('order-number')).toHaveText('LUM-10421');
  await expect(page.getByTestId('failure-message')).toContainText('shift lead');
  expect(await world.sandbox().ledger()).toHaveLength(1);
  // Asked again, with a lead at hand this time.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('lead-prompt')).toContainText(
    'A shift lead must approve buying another label for order LUM-10421',
  );
  // The lead's badge approves, and the label asked for is bought at once: no second Ctrl+Enter.
  await page.keyboard.type('BADGE-0042');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lead-prompt')).toHaveCount(0);
  await expect(page.getByTestId('toast')).toContainText('Approved by Bo Lindqvist.');
  await expect.poll(() => b.printer.labels.length, { timeout: 30_000 }).toBe(2);
  expect(await world.sandbox().ledger()).toHaveLength(2);
  // Alt+R now reprints the label just bought, the one the panel shows, not the order's first.
  await expect(page.getByTestId('result')).toContainText('LABEL');
  await expect(reprint).not.toContainText(first);
  await expect(reprint).toContainText(/Reprint \d+/);
  await page.screenshot({ path: info.outputPath('approved.png') });

  // Site IT disables Ana while she is signed in: the station signs her out and says why.
  cli(['disable', 'ana'], '');
  // Her next scan is refused and the page turns to sign-in. (The page also turns by itself at
  // the station's next look, within about 10 s; in CI with two workers it did not within 40 s,
  // three runs out of three, unexplained: docs/known-limits.md.)
  await page.keyboard.type('LUM-10422');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('sign-in')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('signed-out')).toHaveText(
    'Ana Ruiz was disabled by site IT and is signed out here.',
  );
  await page.screenshot({ path: info.outputPath('signed-out-disabled.png') });
});
