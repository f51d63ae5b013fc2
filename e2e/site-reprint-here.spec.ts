import { expect, test, type Browser, type Page } from '@playwright/test';
import { siteWorld } from './site';
import { importOrders, scanAndBuy } from './station';

// "Reprint it here?": an order labelled at station A, scanned at station B. The scan says so
// (B keeps the site's labels), and the Pack view offers A's label for a reprint on B's printer
// (Alt+R or the button), with the reason recorded as History's site-wide reprint records it.
// A buy at B before it heard of A's label is refused by the order claim (test/core/station).

const world = siteWorld();

/** Stations A and B of one site, each open on Pack and synced, the sample orders imported at A. */
async function bothOnPack(browser: Browser) {
  const { site, a, b } = await world.twoStations();
  const [pageA, pageB] = [await browser.newPage(), await browser.newPage()];
  for (const [page, s] of [
    [pageA, a],
    [pageB, b],
  ] as const) {
    await page.goto(s.station.url);
    await expect(page.getByTestId('site-status')).toContainText('Site: synced', {
      timeout: 30_000,
    });
    if (page === pageA) await importOrders(pageA);
    await page.keyboard.press('Alt+1');
  }
  return { site, a, b, pageA, pageB };
}

/**
 * Scans `order` at `page` again (Esc first) until the result says `words`: a station hears of
 * another's label within seconds of it.
 */
async function scanUntilSaid(page: Page, order: string, words: string) {
  const result = page.getByTestId('result');
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await expect
    .poll(
      async () => {
        await page.keyboard.press('Escape');
        await scan.fill(order);
        await scan.press('Enter');
        await expect(page.getByTestId('order-number')).toHaveText(order);
        return (await result.textContent()) ?? '';
      },
      { timeout: 30_000, intervals: [1000] },
    )
    .toContain(words);
  return { result, scan };
}

test('an order labelled at station A and scanned at B: Alt+R reprints its label on B, with a reason', async ({
  browser,
}, info) => {
  const { site, a, b, pageA, pageB } = await bothOnPack(browser);
  await scanAndBuy(pageA, 'LUM-10421');
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(1);
  const tracking = (await pageA.getByTestId('tracking-number').textContent())!.trim();
  await expect(pageA.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });

  // Station B scans the same order (it comes from the site store) once it has heard of A's
  // label (the check-in after A's commit is notified): the scan itself says so, no rates asked.
  const { result, scan } = await scanUntilSaid(pageB, 'LUM-10421', 'was labelled at Station A');
  await expect(result).toContainText(
    new RegExp(
      `Order LUM-10421 was labelled at Station A at \\d\\d:\\d\\d( by .+)? \\(${tracking}\\): nothing to buy here\\. Alt\\+R reprints its label here; Ctrl\\+Shift\\+A buys another\\.`,
    ),
  );
  const offer = result.getByRole('button', { name: `Reprint ${tracking} here Alt+R` });
  await expect(offer).toBeVisible();
  // Nothing to buy: no rates, and Ctrl+Enter says what the keys do instead of asking the
  // platform (and the site store).
  const rates = pageB.getByTestId('rates');
  await expect(rates.getByRole('listbox', { name: 'Rates' })).toHaveCount(0);
  await expect(rates).toContainText(
    'Labelled at Station A: nothing to buy. Reprint it here (Alt+R), or Ctrl+Shift+A to buy another label.',
  );
  await expect(rates.getByRole('button', { name: /Buy/ })).toBeDisabled();
  await pageB.screenshot({ path: info.outputPath('station-b-labelled-elsewhere.png') });
  await pageB.keyboard.press('Control+Enter');
  await expect(pageB.getByTestId('toast')).toHaveText(
    `This order was labelled at Station A (${tracking}). Alt+R reprints its label here; Ctrl+Shift+A buys another.`,
  );
  await expect(offer).toBeVisible();
  await expect(rates.getByRole('listbox', { name: 'Rates' })).toHaveCount(0);

  // Alt+R asks for the reason; Enter reprints it on B's printer.
  await pageB.keyboard.press('Alt+r');
  await expect(pageB.getByLabel('Reprint reason')).toBeFocused();
  await pageB.keyboard.type('label torn at the dock');
  await pageB.screenshot({ path: info.outputPath('station-b-reprint-reason.png') });
  await pageB.keyboard.press('Enter');
  await expect.poll(() => b.printer.labels.length, { timeout: 30_000 }).toBe(1);
  expect(b.printer.labels[0]!.zpl).toBe(a.printer.labels[0]!.zpl);
  await expect(result).toContainText(
    `Label of order LUM-10421 from Station A (${tracking}). Reprint sent to ZD421 Station B.`,
  );
  await expect(pageB.getByLabel('Scan')).toBeFocused();
  await pageB.screenshot({ path: info.outputPath('station-b-reprinted-here.png') });
  expect(await world.sandbox().ledger()).toHaveLength(1);
  await expect
    .poll(
      async () =>
        (
          await site.owner.pool.query(
            `SELECT station_id, label_station_id, reason FROM site_reprints`,
          )
        ).rows,
      { timeout: 15_000 },
    )
    .toEqual([
      { station_id: 'chi-02', label_station_id: 'chi-01', reason: 'label torn at the dock' },
    ]);
  await site.owner.close();

  // The site store away: the same scan says where the label can be reprinted (a reprint here
  // goes through the store), instead of offering Alt+R.
  world.cluster().stop();
  try {
    await expect(pageB.getByTestId('site-status')).toContainText('not reachable', {
      timeout: 30_000,
    });
    await pageB.keyboard.press('Escape');
    await scan.fill('LUM-10421');
    await scan.press('Enter');
    await expect(result).toContainText(`Order LUM-10421 was labelled at Station A at `);
    await expect(result).toContainText(
      `(${tracking}): nothing to buy here. The site store is not answering: reprint its label at Station A, or here (Alt+R) once the store answers; Ctrl+Shift+A buys another.`,
    );
    await expect(rates).toContainText(
      'Labelled at Station A: nothing to buy. Reprint it there (the site store is not answering), or Ctrl+Shift+A to buy another label.',
    );
  } finally {
    world.cluster().start();
  }
});

test("an order station A is buying right now, bought at B: amber 'being labelled at Station A', nothing bought at B", async ({
  browser,
}, info) => {
  const { site, a, b, pageA, pageB } = await bothOnPack(browser);

  // The platform takes 6 s to sell A's label: A holds the order's claim meanwhile.
  await world.sandbox().addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'delay',
    delayMs: 6_000,
    times: 1,
  });
  await scanAndBuy(pageA, 'LUM-10422');
  await expect
    .poll(
      async () =>
        (
          await site.owner.pool.query(
            `SELECT station_id, state FROM site_order_claims WHERE order_number = 'LUM-10422'`,
          )
        ).rows,
      { timeout: 5_000, intervals: [50] },
    )
    .toEqual([{ station_id: 'chi-01', state: 'in-flight' }]);
  await scanAndBuy(pageB, 'LUM-10422');
  const result = pageB.getByTestId('result');
  await expect(result).toContainText('BEING LABELLED AT STATION A', { timeout: 5_000 });
  await expect(result).toHaveClass(/waiting/);
  await expect(pageB.getByTestId('failure-message')).toContainText(
    /^Order LUM-10422 is being labelled at Station A right now \(since \d\d:\d\d( by .+)?\)\. Nothing was bought here/,
  );
  await pageB.screenshot({ path: info.outputPath('station-b-being-labelled-there.png') });
  // A's label is sold and printed; only one label exists for the order.
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(1);
  expect(await world.sandbox().ledger()).toHaveLength(1);
  expect(b.printer.labels).toHaveLength(0);
  await site.owner.close();
});

test("an order whose label was voided at station A, scanned at B: said so, no reprint offered, B's packer buys another", async ({
  browser,
}, info) => {
  const { site, a, b, pageA, pageB } = await bothOnPack(browser);
  await scanAndBuy(pageA, 'LUM-10423');
  await expect.poll(() => a.printer.labels.length, { timeout: 30_000 }).toBe(1);
  const tracking = (await pageA.getByTestId('tracking-number').textContent())!.trim();
  // A's shift lead voids it at the carrier and marks it in A's History.
  await pageA.keyboard.press('Alt+4');
  await pageA.getByLabel('History scope').selectOption('station');
  await pageA.getByTestId('history-row').filter({ hasText: 'LUM-10423' }).click();
  await pageA
    .getByTestId('label-detail')
    .getByRole('button', { name: 'Voided at the carrier…' })
    .click();
  await pageA.getByLabel('Why the label was voided').fill('wrong address');
  await pageA.keyboard.press('Enter');
  await expect(pageA.getByTestId('voided-note')).toContainText('wrong address');
  await expect
    .poll(
      async () =>
        (await site.owner.pool.query(`SELECT voided->>'reason' AS why FROM site_labels`)).rows,
      { timeout: 30_000 },
    )
    .toEqual([{ why: 'wrong address' }]);

  // B scans the order once it has heard of A's label: the void is said, not a reprint.
  const { result, scan } = await scanUntilSaid(pageB, 'LUM-10423', 'was labelled at Station A');
  await expect(result).toContainText(
    new RegExp(
      `Order LUM-10423 was labelled at Station A at \\d\\d:\\d\\d( by .+)?, and that label \\(${tracking}\\) was voided at the carrier there \\(wrong address\\): it is not reprinted\\. Press Ctrl\\+Shift\\+A to buy another\\.`,
    ),
  );
  await expect(result.getByRole('button', { name: /Reprint/ })).toHaveCount(0);
  const rates = pageB.getByTestId('rates');
  await expect(rates).toContainText(
    'Labelled at Station A, and that label was voided at the carrier: nothing to rate. Ctrl+Shift+A to buy another label.',
  );
  await pageB.screenshot({ path: info.outputPath('station-b-voided-elsewhere.png') });
  // Alt+R opens no reprint; Ctrl+Enter says what to do instead.
  await pageB.keyboard.press('Alt+r');
  await expect(pageB.getByLabel('Reprint reason')).toHaveCount(0);
  await pageB.keyboard.press('Control+Enter');
  await expect(pageB.getByTestId('toast')).toHaveText(
    `This order was labelled at Station A (${tracking}). That label was voided at the carrier; Ctrl+Shift+A buys another.`,
  );

  // Orders → Whole site at B says it on the order's row too.
  await pageB.keyboard.press('Alt+8');
  await pageB.getByLabel('Orders scope').selectOption('site');
  await pageB.getByLabel('Search site orders').fill('LUM-10423');
  await expect(pageB.getByTestId('site-order-row')).toHaveText([
    /Labelled at Station A by .+; its label was voided at the carrier \(wrong address\): buy another at Pack/,
  ]);
  await pageB.keyboard.press('Alt+1');
  await pageB.keyboard.press('Escape');
  await scan.fill('LUM-10423');
  await scan.press('Enter');
  await expect(result).toContainText('was voided at the carrier there');

  // Buy another label (the button, as Ctrl+Shift+A): rated, then Ctrl+Enter buys it at B.
  await result.getByRole('button', { name: 'Buy another label Ctrl+Shift+A' }).click();
  await expect(pageB.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await pageB.keyboard.press('Control+Enter');
  await expect.poll(() => b.printer.labels.length, { timeout: 30_000 }).toBe(1);
  await expect(pageB.getByTestId('tracking-number')).not.toHaveText(tracking);
  const again = (await pageB.getByTestId('tracking-number').textContent())!.trim();
  expect(await world.sandbox().ledger()).toHaveLength(2);

  // Back at A, once it has heard of B's label: the order was labelled again there. B's label is
  // offered for a reprint here, not "buy another" (a second live label).
  await pageA.keyboard.press('Alt+1');
  const { result: resultA } = await scanUntilSaid(
    pageA,
    'LUM-10423',
    'labelled again at Station B',
  );
  await expect(resultA).toContainText(
    new RegExp(
      `Order LUM-10423's label here \\(${tracking}\\) was voided at the carrier, and it was labelled again at Station B at \\d\\d:\\d\\d( by .+)? \\(${again}\\): nothing to buy here\\. Alt\\+R reprints its label here; Ctrl\\+Shift\\+A buys another\\.`,
    ),
  );
  await expect(resultA.getByRole('button', { name: `Reprint ${again} here Alt+R` })).toBeVisible();
  await expect(resultA.getByRole('button', { name: /Buy another label/ })).toHaveCount(0);
  await pageA.screenshot({ path: info.outputPath('station-a-relabelled-at-b.png') });
  await site.owner.close();
});
