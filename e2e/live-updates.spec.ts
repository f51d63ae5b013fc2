import { expect, test, type Page } from '@playwright/test';
import { importOrders, provisionedPerTest } from './station';

// Issue 11 point 3: the pages follow the station's events; nothing in the renderer polls.

const platform = provisionedPerTest({ id: 'lumen-live', name: 'Lumen live' });

/** A Lumen station with the sample orders, the platform answering 503, `order` scanned and queued. */
async function queuedWhilePlatformAway(page: Page, order: string): Promise<void> {
  const station = await platform.lumen();
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Lumen live');
  await importOrders(page);
  await platform.sandbox().addFault({ path: '/api/v1', kind: 'status', status: 503 });
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
  await page.keyboard.type(order);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText(order);
  // The scan's rating finds the platform away: said, and nothing bought or queued by it.
  await expect(page.getByTestId('rates-unreachable')).toContainText(
    'Nothing was bought or queued. Ctrl+Enter queues this order',
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('queue-count')).toContainText('0');
  await expect(page.getByRole('button', { name: /Queue for the platform/ })).toBeEnabled();
  // The packer asks to buy: queued, to be labelled by the rule when the platform answers.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result')).toContainText('QUEUED', { timeout: 30_000 });
}

test('the Queue page and the header follow a shipment from queued to printed without a timer in the page', async ({
  page,
}, info) => {
  // Every setInterval the page starts is recorded: the app must start none.
  await page.addInitScript(`
    window.intervals = [];
    const original = window.setInterval.bind(window);
    window.setInterval = (handler, ms, ...args) => {
      window.intervals.push(String(ms ?? 0) + ' ms: ' + String(handler).slice(0, 80));
      return original(handler, ms, ...args);
    };
  `);
  // The platform goes away: the shipment is queued.
  await queuedWhilePlatformAway(page, 'LUM-10422');
  await expect(page.getByTestId('queue-count')).toContainText('1');

  // On the Queue page the person does nothing; the platform comes back and the station drains
  // its queue on its own. The page and the header show it from the station's events alone.
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('queued-shipments')).toContainText('LUM-10422');
  await page.screenshot({ path: info.outputPath('queue-waiting.png') });
  await platform.sandbox().clearFaults();
  await expect(page.getByTestId('queued-shipments')).not.toContainText('LUM-10422', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('queue-count')).toContainText('0');
  await expect.poll(() => platform.printer().labels.length, { timeout: 30_000 }).toBe(1);
  await expect(page.getByRole('heading', { name: 'Print jobs (0)' })).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: info.outputPath('queue-drained.png') });
  // Back on Pack, the order that said QUEUED shows the label the queue bought, with its Reprint.
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('result')).toContainText('Bought by the offline queue');
  await expect(page.getByTestId('result')).not.toContainText('QUEUED');
  await expect(page.getByRole('button', { name: /^Reprint \d+/ })).toBeVisible();
  await page.screenshot({ path: info.outputPath('pack-after-drain.png') });

  expect(await page.evaluate('window.intervals')).toEqual([]);
});

test('events missed while the socket was down are made up for when it comes back', async ({
  page,
}, info) => {
  // Between the page and the web host: while `missing`, what the station sends is lost.
  let missing = false;
  const sockets: { close(): Promise<void> }[] = [];
  await page.routeWebSocket('**/ws', (ws) => {
    const server = ws.connectToServer();
    server.onMessage((message) => {
      if (!missing) ws.send(message);
    });
    sockets.push(ws);
  });
  await queuedWhilePlatformAway(page, 'LUM-10423');
  await page.keyboard.press('Alt+3');
  await expect(page.getByTestId('queued-shipments')).toContainText('LUM-10423');

  // The station drains its queue while nothing it says reaches the page.
  missing = true;
  await platform.sandbox().clearFaults();
  await expect.poll(() => platform.printer().labels.length, { timeout: 60_000 }).toBe(1);
  await expect(page.getByTestId('queued-shipments')).toContainText('LUM-10423');
  await expect(page.getByTestId('queue-count')).toContainText('1');

  // The socket drops and comes back: the page asks once for what is on screen.
  missing = false;
  await sockets.at(-1)!.close();
  await expect(page.getByTestId('queued-shipments')).not.toContainText('LUM-10423', {
    timeout: 15_000,
  });
  await expect(page.getByTestId('queue-count')).toContainText('0');
  await page.screenshot({ path: info.outputPath('after-reconnect.png') });
});

test('cancelling a queued purchase is asked in the page: Esc keeps it, Enter cancels it and nothing is bought', async ({
  page,
}, info) => {
  await queuedWhilePlatformAway(page, 'LUM-10424');
  await page.keyboard.press('Alt+3');
  const queued = page.getByTestId('queued-shipments');
  await expect(queued).toContainText('LUM-10424');
  await queued.getByRole('button', { name: 'Cancel' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Confirm cancelling order LUM-10424' });
  await expect(ask).toContainText(
    'Cancel the queued purchase for order LUM-10424? Nothing is bought for it when the platform answers',
  );
  await page.screenshot({ path: info.outputPath('queue-cancel-asked.png') });
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(queued).toContainText('LUM-10424');
  await queued.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask.getByRole('button', { name: /Cancel the purchase/ })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(queued).not.toContainText('LUM-10424');
  await expect(page.getByTestId('queue-count')).toContainText('0');
  await platform.sandbox().clearFaults();
  await page.waitForTimeout(3_000);
  expect(await platform.sandbox().ledger()).toHaveLength(0);
});
