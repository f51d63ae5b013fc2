import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../src/core/printing/virtual-printer/server.js';
import {
  startProvisionedStation,
  startSandboxProcess,
  type RunningStation,
  type SandboxProcess,
} from './station';

// QA trial: a 3PL and one of its brands both have an order DUP-1. The import says so, a scan says
// which brands by name and how to choose, and Orders opens the row picked (by its id) on Pack.

let sandbox: SandboxProcess | null = null;
let printer: VirtualPrinter | null = null;
let station: RunningStation | null = null;

test.afterEach(async () => {
  await station?.stop();
  await printer?.close();
  await sandbox?.stop();
  station = printer = sandbox = null;
});

test('one order number under a 3PL and its brand: said at import and at the scan; Orders opens the row picked', async ({
  page,
}, info) => {
  sandbox = await startSandboxProcess();
  printer = await startVirtualPrinter({ port: 0 });
  station = await startProvisionedStation({
    baseUrl: sandbox.url,
    printer: { port: printer.port },
    profile: {
      id: 'harbor-edison',
      name: 'Harbor Edison',
      clientId: 'demo-harbor-full',
      tenantId: 'tnt_harbor',
      tenantType: 'thirdPartyLogistic',
      brandTenants: [{ tenantId: 'tnt_driftwood', name: 'Driftwood Coffee Co.' }],
      shippingSiteId: 'site_harbor_edison',
    },
    secret: 'demo-harbor-full-secret',
  });
  await page.goto(station.url);
  await expect(page.getByTestId('profile-name')).toHaveText('Harbor Edison');

  mkdirSync(info.outputDir, { recursive: true });
  const file = join(info.outputDir, 'dup.csv');
  writeFileSync(
    file,
    [
      'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
      'DUP-1,,Ana Harbor,1 Main St,Austin,TX,78701,US,2',
      'DUP-1,tnt_driftwood,Dee Drift,2 Main St,Austin,TX,78701,US,1.5',
    ].join('\n'),
  );
  await page.keyboard.press('Alt+8');
  await page.getByLabel('Import orders file here').setInputFiles(file);
  await expect(page.getByTestId('import-report')).toContainText('2 imported');
  await expect(page.getByTestId('import-shared-numbers')).toContainText(
    'row 3 (order DUP-1): DUP-1 is also the number of an order of Harbor Fulfillment (row 2 of this file)',
  );

  // A scan cannot choose: the brands by name, and the way to choose.
  await page.keyboard.press('Alt+1');
  await page.keyboard.type('DUP-1');
  await page.keyboard.press('Enter');
  const failure = page.getByTestId('failure-message');
  await expect(failure).toContainText(
    '2 orders are numbered DUP-1, one each of Harbor Fulfillment and Driftwood Coffee Co.',
  );
  await expect(failure).toContainText('Open it from Orders (Alt+8)');
  await expect(failure).not.toContainText('tnt_');

  // Orders: the brand's row, Enter: that order on Pack, rated.
  await page.keyboard.press('Alt+8');
  await page.getByLabel('Search orders').fill('DUP-1');
  await expect(page.getByTestId('order-row')).toHaveCount(2);
  const rows = page.getByTestId('order-row');
  const driftwood = (await rows.nth(0).textContent())?.includes('Driftwood') ? 0 : 1;
  await page.getByLabel('Search orders').focus();
  await page.keyboard.press('ArrowDown');
  if (driftwood === 1) await page.keyboard.press('ArrowDown');
  await expect(rows.nth(driftwood)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('order-number')).toHaveText('DUP-1');
  const panel = page.getByTestId('order-panel');
  await expect(panel).toContainText('Driftwood Coffee Co.');
  await expect(panel).toContainText('Dee Drift');
  await expect(page.getByTestId('failure-message')).toHaveCount(0);
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: info.outputPath('shared-number-opened.png') });

  // The other row opens the 3PL's own order.
  await page.keyboard.press('Alt+8');
  await page.getByLabel('Search orders').fill('DUP-1');
  await expect(rows).toHaveCount(2);
  await rows.nth(1 - driftwood).dblclick();
  await expect(panel).toContainText('Ana Harbor');
  await expect(panel).toContainText('Harbor Fulfillment');
});
