import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importOrders, printedLabels, stationPerTest } from './station';

/** Issue 15 points 3–6: store exports, options, hazmat, international, return labels. */
const station = stationPerTest();
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (name: string) => join(root, 'test/fixtures/orders', name);
const printed = () => {
  const dir = join(station().dataDir, 'virtual-printer');
  return printedLabels(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
};

async function open(page: Page) {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
}

async function toPack(page: Page) {
  await page.keyboard.press('Alt+1');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
}

test('a Shopify export imports as it is; its multi-line order is one order, weighed and bought by keyboard', async ({
  page,
}, info) => {
  await open(page);
  await importOrders(page, fixture('shopify-orders-export.csv'));
  await expect(page.getByTestId('import-report')).toContainText(
    '3 imported, 0 skipped, 0 problems',
  );
  await expect(page.getByTestId('import-format')).toHaveText('Read as: Shopify orders export');
  // Its order to Canada has no customs data: imported, and said now rather than first at Pack.
  await expect(page.getByTestId('import-notices')).toContainText(
    '(order #1003): imported, but it goes to CA and its customs declaration lacks',
  );
  await page.screenshot({ path: info.outputPath('import-shopify.png') });
  // The same export again (a second click): nothing new, said so; its orders are left as they are.
  await page
    .getByLabel('Import orders file')
    .setInputFiles(fixture('shopify-orders-export.csv'), { noWaitAfter: true });
  await expect(page.getByTestId('import-report')).toContainText(
    '0 imported, 3 already here unchanged, 0 skipped, 0 problems',
  );
  await expect(
    page.getByText(
      'Nothing new in shopify-orders-export.csv: its 3 orders are already here, unchanged.',
    ),
  ).toBeVisible();

  await toPack(page);
  await page.keyboard.type('#1001');
  await page.keyboard.press('Enter');
  const orderPanel = page.getByTestId('order-panel');
  await expect(orderPanel).toContainText('Ava Lindqvist');
  await expect(orderPanel).toContainText('04101');
  await expect(orderPanel).toContainText('LUM-CEDAR-8');
  await expect(orderPanel).toContainText('LUM-TRIM-1');
  // The gift card of the export is not an item to pack.
  await expect(orderPanel).not.toContainText('Gift Card');
  // The export has no weights: the packer weighs, Enter rates, Ctrl+Enter buys.
  await page.keyboard.press('Alt+W');
  await page.keyboard.type('2.4');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(1);
  expect(printed()[0]).toContain('Ava Lindqvist');

  // The store changes #1001's street after its label was bought; the export is imported again:
  // the labelled order is left as it was, and the report says what differs.
  const edited = join(station().dataDir, 'shopify-edited.csv');
  writeFileSync(
    edited,
    readFileSync(fixture('shopify-orders-export.csv'), 'utf8').replaceAll(
      '42 Orchard Ln',
      '44 Orchard Ln',
    ),
  );
  await importOrders(page, edited);
  await expect(page.getByTestId('import-labelled-changed')).toContainText(
    /\(order #1001\): already has a label, bought for the order as it was; the file now gives the ship-to street "44 Orchard Ln( Apt 3)?" \(was "42 Orchard Ln( Apt 3)?"\)/,
  );
});

test('Amazon, ShipStation, WooCommerce and BigCommerce exports each import as they are', async ({
  page,
}) => {
  await open(page);
  for (const [file, format, count] of [
    ['amazon-unshipped-orders.txt', 'Amazon unshipped orders report', 2],
    ['shipstation-orders-export.csv', 'ShipStation orders export', 3],
    ['woocommerce-order-export.csv', 'WooCommerce order export', 2],
    ['bigcommerce-orders-export.csv', 'BigCommerce orders export', 2],
  ] as const) {
    await importOrders(page, fixture(file));
    await expect(page.getByTestId('import-report')).toContainText(
      `${count} imported, 0 skipped, 0 problems`,
    );
    await expect(page.getByTestId('import-format')).toHaveText(`Read as: ${format}`);
  }
});

test('a file in no known format: its columns are mapped once, saved, and the next file imports without asking', async ({
  page,
}, info) => {
  await open(page);
  await importOrders(page, fixture('unknown-erp.csv'));
  const mapping = page.getByTestId('column-mapping');
  await expect(mapping).toBeVisible();
  await expect(page.getByTestId('import-report')).toContainText(
    'its header has the columns "Ref", "Customer"',
  );
  // The obvious columns are guessed; the person checks and fixes what is left by keyboard.
  await expect(page.getByRole('textbox', { name: 'Mapping name' })).toBeFocused();
  await expect(mapping.getByRole('combobox', { name: 'Order number' })).toHaveValue('Ref');
  await expect(mapping.getByRole('combobox', { name: 'Postal code' })).toHaveValue('Post code');
  await expect(mapping.getByRole('combobox', { name: 'SKU' })).toHaveValue('Article');
  await expect(mapping.getByRole('combobox', { name: 'Quantity' })).toHaveValue('Pieces');
  await page.screenshot({ path: info.outputPath('column-mapping.png') });
  // Enter saves from the column picker last used too, as the button's key hint says (trial J:
  // it did nothing there, only in the name field).
  await mapping.getByRole('combobox', { name: 'Quantity' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-report')).toContainText(
    '2 imported, 0 skipped, 0 problems',
  );
  await expect(page.getByTestId('import-format')).toHaveText(
    'Read as: saved mapping "unknown-erp"',
  );
  await expect(mapping).toBeHidden();

  // The same columns again: no question this time.
  await importOrders(page, fixture('unknown-erp.csv'));
  await expect(page.getByTestId('import-format')).toHaveText(
    'Read as: saved mapping "unknown-erp"',
  );
  await expect(page.getByTestId('column-mapping')).toBeHidden();
});

test('a Shopify export with its order-number column missing: the mapping starts from what Shopify exports, the person picks the one column left', async ({
  page,
}, info) => {
  await open(page);
  await importOrders(page, fixture('shopify-export-without-name.csv'));
  const mapping = page.getByTestId('column-mapping');
  await expect(mapping).toBeVisible();
  await expect(page.getByTestId('import-report')).toContainText(
    'this looks like a Shopify orders export, but its column "Name" (the order number) is missing',
  );
  // Shopify's own columns, not guesses from the words: "Shipping Name" is the recipient (the
  // hints alone would have taken "Billing Name" or nothing).
  await expect(mapping.getByRole('combobox', { name: 'Name', exact: true })).toHaveValue(
    'Shipping Name',
  );
  await expect(mapping.getByRole('combobox', { name: 'Street address' })).toHaveValue(
    'Shipping Address1',
  );
  await expect(mapping.getByRole('combobox', { name: 'Postal code' })).toHaveValue('Shipping Zip');
  await expect(mapping.getByRole('combobox', { name: 'SKU' })).toHaveValue('Lineitem sku');
  await expect(mapping.getByRole('combobox', { name: 'Quantity' })).toHaveValue(
    'Lineitem quantity',
  );
  await expect(mapping).toContainText('Still needed: Order number');
  await page.screenshot({ path: info.outputPath('column-mapping-shopify-without-name.png') });
  await mapping.getByRole('combobox', { name: 'Order number' }).selectOption('Id');
  await expect(mapping).not.toContainText('Still needed');
  await mapping.getByRole('button', { name: /Save mapping and import/ }).click();
  await expect(page.getByTestId('import-format')).toHaveText(
    'Read as: saved mapping "shopify-export-without-name"',
  );
  await expect(page.getByTestId('import-report')).toContainText(/^[1-9]\d* imported/);
});

test('options from the order and from the packer go into the rates and onto the label', async ({
  page,
}, info) => {
  await open(page);
  await importOrders(page, fixture('lumen-options.csv'));
  await expect(page.getByTestId('import-report')).toContainText(
    '4 imported, 0 skipped, 0 problems',
  );
  await toPack(page);
  await page.keyboard.type('LUM-20001');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  const options = page.getByTestId('ship-options');
  await expect(options.getByRole('radio', { name: 'Adult signature' })).toBeChecked();
  await expect(options.getByRole('textbox', { name: 'Label message 1' })).toHaveValue(
    'Gift: do not open',
  );
  const firstPrice = await page.locator('.rate-table tr.chosen').textContent();

  // The packer adds Saturday delivery: Alt+O, Tab to it, Space; Enter goes back to Scan.
  await page.keyboard.press('Alt+O');
  await expect(options.getByRole('radio', { name: 'Adult signature' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(options.getByRole('checkbox', { name: 'Saturday delivery' })).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
  // The rates of the old options are gone; Ctrl+Enter rates with the new ones and buys.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await page.screenshot({ path: info.outputPath('pack-options-bought.png') });
  expect(await page.getByTestId('result').textContent()).not.toContain('Ground');
  expect(firstPrice).toBeTruthy();
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(1);
  const zpl = printed()[0]!;
  expect(zpl).toContain('ADULT SIGNATURE / SATURDAY DELIVERY');
  expect(zpl).toContain('Gift: do not open');
});

test('international: refused without an incoterm (saying so); once the packer picks one, its price is shown before it is bought', async ({
  page,
}, info) => {
  await open(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await importOrders(page, fixture('lumen-options.csv'));
  await toPack(page);
  await page.keyboard.type('LUM-20002');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('international')).toHaveText('To CA: customs');
  await expect(page.getByTestId('customs-line')).toContainText('HS 3406.00 · made in US');
  const result = page.getByTestId('result');
  await expect(result).toContainText('Order LUM-20002 goes to CA, and customs need: no incoterm', {
    timeout: 20_000,
  });
  await page.screenshot({ path: info.outputPath('pack-international-refused.png') });
  // Large text (Alt+L), readable from a metre: the page still does not scroll at 1366×768.
  await page.keyboard.press('Alt+L');
  await expect(page.locator('html')).toHaveClass(/large-text/);
  await page.screenshot({ path: info.outputPath('pack-international-large.png') });
  expect(await page.locator('html').evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(
    true,
  );
  await page.keyboard.press('Alt+L');

  // Alt+O goes straight to what the refusal asked for: the incoterm.
  await page.keyboard.press('Alt+O');
  const incoterm = page.getByRole('combobox', { name: 'Incoterm' });
  await expect(incoterm).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(incoterm).toHaveValue('DAP');
  await expect(page.getByTestId('result')).not.toContainText('FAILED');
  await page.screenshot({ path: info.outputPath('pack-international-options.png') });
  // Enter goes back to Scan from the incoterm's picker too.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
  // The order was refused once: Ctrl+Enter rates and shows the international price first.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/^Rated again: the rule's choice is now /)).toBeVisible();
  await expect(page.getByTestId('tracking-number')).toHaveCount(0);
  expect(printed()).toHaveLength(0);
  // Seen: the next Ctrl+Enter buys it.
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(1);
  expect(printed()[0]).toContain('INCOTERM DAP');
});

test('hazmat: an item without its packing group and name is refused naming them; a complete one is bought', async ({
  page,
}, info) => {
  await open(page);
  await importOrders(page, fixture('lumen-options.csv'));
  await toPack(page);
  await page.keyboard.type('LUM-20003');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('hazmat-line')).toHaveText(
    'HAZMAT — missing packing group, shipping name',
  );
  await expect(page.getByTestId('result')).toContainText(
    'Lamp oil 16 oz (LUM-LAMP-OIL) has no packing group, proper shipping name',
    { timeout: 20_000 },
  );
  await page.screenshot({ path: info.outputPath('pack-hazmat-refused.png') });

  await page.keyboard.press('Escape');
  await page.keyboard.type('LUM-20004');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('hazmat-line')).toHaveText(
    'HAZMAT UN1223 · class 3 · PG III · Kerosene',
  );
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(1);
  expect(printed()[0]).toContain('HAZMAT');
});

test('History: T buys a return label for the selected shipment; it prints and both rows show the link', async ({
  page,
}, info) => {
  await open(page);
  const scan = page.getByRole('textbox', { name: 'Scan' });
  await expect(scan).toBeFocused();
  await page.keyboard.type('LUM-10421');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
  const tracking = (await page.getByTestId('tracking-number').textContent({ timeout: 20_000 }))!;
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(1);

  await page.keyboard.press('Alt+4');
  const rows = page.getByTestId('history-row');
  await expect(rows).toHaveCount(1);
  await page.keyboard.press('ArrowDown');
  // ↓ searches what is in the box first, then the first match takes the focus.
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('t');
  const form = page.getByTestId('return-form');
  await expect(form).toContainText('Buy a return label for order LUM-10421');
  await expect(form.getByRole('button', { name: /Buy return label/ })).toBeFocused();
  await page.screenshot({ path: info.outputPath('history-return-confirm.png') });
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  await expect(rows.first()).toContainText('↩ LUM-10421');
  await expect(rows.nth(1)).toContainText('LUM-10421 ↩');
  await expect.poll(() => printed().length, { timeout: 15_000 }).toBe(2);
  const returned = printed().find((z) => z.includes('RETURN (LABEL)'));
  expect(returned).toBeTruthy();
  // From the customer back to the site: the customer's address is now the sender.
  expect(returned!.indexOf('Maya Okafor')).toBeLessThan(returned!.indexOf('SHIP TO'));
  expect(tracking.length).toBeGreaterThan(9);

  await rows.nth(1).click();
  await expect(page.getByTestId('return-note')).toContainText('Return label:');
  await page.screenshot({ path: info.outputPath('history-return-linked.png') });
  // A second one only on purpose: the form says there is one already.
  await page.keyboard.press('t');
  await expect(page.getByTestId('return-form')).toContainText('already has a return label');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('return-form')).toBeHidden();
  // T on the return label itself: said at once, no question about money.
  await rows.first().click();
  await page.keyboard.press('t');
  await expect(page.getByTestId('return-form')).toBeHidden();
  await expect(
    page.getByText(/is a return label of order LUM-10421: a return label is bought/),
  ).toBeVisible();
});

test('a file in no known format imported from Orders (Alt+8): its columns are mapped there, and it imports', async ({
  page,
}) => {
  await open(page);
  await page.keyboard.press('Alt+8');
  await page.getByLabel('Import orders file here').setInputFiles(fixture('unknown-erp.csv'));
  // The person is in Orders already: the report points to the form under it (until 2026-11-29
  // it said "Import the file from Orders (Alt+8) …").
  await expect(page.getByTestId('import-report')).toContainText(
    'Map its columns once in the form below this report',
  );
  await expect(page.getByTestId('import-report')).not.toContainText('from Orders (Alt+8)');
  const mapping = page.getByTestId('column-mapping');
  await expect(mapping).toBeVisible();
  await expect(mapping.getByRole('combobox', { name: 'Order number' })).toHaveValue('Ref');
  await page.getByRole('textbox', { name: 'Mapping name' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('import-report')).toContainText(
    '2 imported, 0 skipped, 0 problems',
  );
  await expect(mapping).toBeHidden();
  await expect(page.getByTestId('orders-pager')).not.toContainText('No orders');
});
