import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { stationPerTest } from './station';

const station = stationPerTest();

test('Export diagnostics in Settings writes a folder with the log, versions and database figures', async ({
  page,
}, info) => {
  await page.goto(station().url);
  await expect(page.getByTestId('connectivity')).toContainText('online');
  await page.keyboard.press('Alt+7');
  const button = page.getByRole('button', { name: 'Export diagnostics' });
  await button.scrollIntoViewIfNeeded();
  await button.click();
  const written = page.getByTestId('diagnostics-folder');
  await expect(written).toContainText(join(station().dataDir, 'diagnostics'));
  await page.screenshot({ path: info.outputPath('diagnostics.png') });

  const folder = (await written.locator('code').textContent())!;
  for (const f of ['about.json', 'profiles.json', 'database.json', join('logs', 'station.log')])
    expect(existsSync(join(folder, f))).toBe(true);
  // The web host's own lines reached the log file (and so the export).
  expect(readFileSync(join(folder, 'logs', 'station.log'), 'utf8')).toContain('data directory:');
  const about = JSON.parse(readFileSync(join(folder, 'about.json'), 'utf8'));
  expect(about.app.host).toBe('web');
});
