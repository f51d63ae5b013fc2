import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { scanAndBuy, startSandboxProcess, stationPerTest, type SandboxProcess } from './station';

const station = stationPerTest();
let sandbox: SandboxProcess;
test.beforeEach(async () => {
  sandbox = await startSandboxProcess(
    join(import.meta.dirname, '..', 'resources/fixtures/demo-world.json'),
  );
});
test.afterEach(async () => {
  await sandbox.stop();
});

test('the New profile form finds the API key’s tenant by itself, and says plainly when the URL does not answer', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('environment-badge')).toBeVisible();
  // A label bought on the demo profile, on Pack and in History's detail pane.
  await scanAndBuy(page, 'LUM-10421');
  await expect(page.getByTestId('tracking-number')).toHaveText(/\w{10,}/, { timeout: 20_000 });
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('history-pager')).toContainText('1–1 of 1 label');
  await page.keyboard.press('Alt+7');
  // Opened by keyboard, the form takes the focus into its first field (trial J: it stayed on the
  // Close button, two Tabs away).
  await page.getByRole('button', { name: 'New profile…' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByTestId('new-profile');
  await expect(form.getByLabel('Profile name')).toBeFocused();
  await form.getByLabel('Profile name').fill('Harbor dock 5');
  // Nothing listens on port 9: the platform cannot be reached.
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9');
  await form.getByLabel('Client ID').fill('demo-harbor-full');
  await form.getByLabel('Client secret').fill('demo-harbor-full-secret');
  await form.getByRole('button', { name: 'Connect and load tenants' }).click();
  const alert = form.getByRole('alert');
  await expect(alert).toContainText('127.0.0.1:9');
  await expect(alert).not.toContainText(/internal|TypeError|fetch failed$/);

  // The tenant id stays empty: the key's own tenant and its brands fill the picker.
  await form.getByLabel('Base URL').fill(sandbox.url);
  await expect(form.getByLabel("API key's tenant ID")).toHaveValue('');
  await form.getByRole('button', { name: 'Connect and load tenants' }).click();
  const tenant = form.getByLabel('Tenant', { exact: true });
  await expect(tenant).toContainText('Harbor Fulfillment');
  await expect(form.getByLabel('Shipping site')).toContainText('Harbor Edison DC');
  // A brand of the 3PL has no site of its own: said, with what to pick instead.
  await tenant.selectOption('tnt_driftwood');
  await expect(form.getByTestId('no-sites')).toContainText(
    "Driftwood Coffee Co. has no shipping site of its own: its orders ship from Harbor Fulfillment's. Pick Harbor Fulfillment as the tenant",
  );
  await expect(form.getByRole('button', { name: 'Create profile' })).toBeDisabled();
  await tenant.selectOption('tnt_harbor');
  await expect(form.getByLabel('Shipping site')).toContainText('Harbor Edison DC');
  await expect(form.getByTestId('no-sites')).toHaveCount(0);
  // A 3PL with brands and none ticked: said before Create, with what its brands' files would meet.
  await expect(form.getByTestId('no-brands')).toContainText(
    "No brand ticked: this profile ships only Harbor Fulfillment's own orders, and an order file of a brand is refused.",
  );
  await form.getByRole('checkbox', { name: 'Driftwood Coffee Co.' }).check();
  await expect(form.getByTestId('no-brands')).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('new-profile-no-tenant-id.png') });
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByTestId('profile-name')).toHaveText('Harbor dock 5');
  // The form is gone: the keyboard is on the view, not on nothing.
  await expect(page.getByRole('main')).toBeFocused();

  // Nothing of the demo profile's stays on screen in Harbor's: not its order or label on Pack,
  // not its label (nor a Reprint of it) in History.
  await page.keyboard.press('Alt+1');
  await expect(page.getByTestId('result')).toContainText('The result of each label shows here.');
  await expect(page.getByTestId('tracking-number')).toHaveCount(0);
  await expect(page.getByText('LUM-10421')).toHaveCount(0);
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('history-pager')).toContainText('No labels');
  await expect(page.getByRole('button', { name: /^Reprint/ })).toHaveCount(0);
  await expect(page.getByText('LUM-10421')).toHaveCount(0);

  // The profile in use cannot be removed (no button); the demo one, asked in the page, can.
  await page.keyboard.press('Alt+7');
  const profiles = page.getByTestId('profiles');
  await expect(profiles.getByRole('button', { name: 'Remove Harbor dock 5' })).toHaveCount(0);
  await profiles.getByRole('button', { name: /^Remove Demo station/ }).click();
  const ask = page.getByRole('alertdialog', { name: /^Confirm removing Demo station/ });
  await expect(ask).toContainText('Its labels stay in the station');
  await page.keyboard.press('Escape');
  await expect(profiles).toContainText('Demo station');
  await profiles.getByRole('button', { name: /^Remove Demo station/ }).click();
  await page.keyboard.press('Enter');
  await expect(profiles).not.toContainText('Demo station');
  await expect(page.getByTestId('toast')).toContainText('removed from this station');
});

test("a 3PL's brands after it was made: Settings → Brands lists the platform's, and a new one is ticked and saved", async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('environment-badge')).toBeVisible();
  await page.keyboard.press('Alt+7');
  await page.getByRole('button', { name: 'New profile…' }).click();
  const form = page.getByTestId('new-profile');
  await form.getByLabel('Profile name').fill('Harbor dock 6');
  await form.getByLabel('Base URL').fill(sandbox.url);
  await form.getByLabel('Client ID').fill('demo-harbor-full');
  await form.getByLabel('Client secret').fill('demo-harbor-full-secret');
  await form.getByRole('button', { name: 'Connect and load tenants' }).click();
  await expect(form.getByLabel('Shipping site')).toContainText('Harbor Edison DC');
  await form.getByRole('checkbox', { name: 'Driftwood Coffee Co.' }).check();
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByTestId('profile-name')).toHaveText('Harbor dock 6');

  // A merchant the 3PL signed since: ticked here, no export and provisioning file needed.
  await page.getByRole('button', { name: 'Brands of Harbor dock 6' }).click();
  const brands = page.getByRole('group', { name: 'Brands of Harbor dock 6' });
  await expect(brands.getByRole('checkbox', { name: 'Driftwood Coffee Co.' })).toBeChecked();
  const pinecrest = brands.getByRole('checkbox', { name: /Pinecrest/ });
  await expect(pinecrest).not.toBeChecked();
  await pinecrest.check();
  await page.screenshot({ path: info.outputPath('profile-brands.png') });
  await page.getByRole('button', { name: 'Save brands' }).click();
  await expect(page.getByTestId('toast').last()).toContainText(
    /^Harbor dock 6 ships for Driftwood Coffee Co\., Pinecrest/,
  );
  await expect(brands).toHaveCount(0);
});
