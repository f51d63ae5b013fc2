import { defineConfig } from '@playwright/test';
import { chromiumLaunch } from './e2e/chromium';

/** End-to-end tests drive the web host in Debian's Chromium (Playwright's own cannot be downloaded here). */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  // Two workers on a two-core machine: the tests mostly wait (processes, sockets, the page),
  // and e2e/station.ts keeps a stopped process's port taken so tests never reach each other.
  workers: 2,
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: chromiumLaunch,
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
