import { expect, test } from '@playwright/test';
import { siteWorld } from './site';

// Settings → Site store at a provisioned station of a site (its password from
// STATION_SECRET_SITE_STORE): the form at 1366 px, what a typed password does, and a refusal that
// keeps what was typed.

const world = siteWorld();

test('Change site store at 1366 px: one field a line, the provisioned password said, a refused save keeps the typed password', async ({
  browser,
}, info) => {
  const { a } = await world.twoStations();
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(a.station.url);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced', { timeout: 30_000 });
  await page.keyboard.press('Alt+7');
  const panel = page.getByTestId('site-store-panel');
  await expect(page.getByTestId('site-password-from')).toHaveText('from STATION_SECRET_SITE_STORE');
  await panel.getByRole('button', { name: 'Change site store…' }).click();
  // Each field is as wide as the panel: the whole address is read.
  const address = panel.getByLabel('Database address');
  const panelBox = (await panel.boundingBox())!;
  for (const name of ['Database address', 'Station id', 'Station name'])
    expect((await panel.getByLabel(name).boundingBox())!.width).toBeGreaterThan(
      panelBox.width * 0.8,
    );
  await expect(page.getByTestId('site-password-env')).toHaveText(
    /^This station's password now comes from STATION_SECRET_SITE_STORE\. One typed here is used until the station restarts, when the variable is read again: change the variable too \(site IT\)\.$/,
  );
  // A station id that cannot be one: refused, and the typed password stays for the next Save.
  const password = panel.getByLabel(/^Password/);
  await password.fill('new-password-123');
  await panel.getByLabel('Station id').fill('chi 01!');
  await panel.getByRole('button', { name: 'Save site store' }).click();
  await expect(page.getByText(/station id/i).last()).toBeVisible();
  await expect(password).toHaveValue('new-password-123');
  await expect(address).toHaveValue(/^postgres:\/\/shipping_station@/);
  await expect(page.getByTestId('site-status')).toContainText('Site: synced');
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('site-store-form-1366.png') });
  // Cancel forgets it.
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await panel.getByRole('button', { name: 'Change site store…' }).click();
  await expect(panel.getByLabel(/^Password/)).toHaveValue('');
});
