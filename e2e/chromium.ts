/**
 * How the end-to-end tests start Chromium: Debian's (Playwright's own cannot be downloaded
 * here), without a sandbox, a GPU or background traffic. playwright.config.ts uses it, and so
 * does a test that starts a browser of its own (a persistent profile, restarted).
 */
export const chromiumLaunch = {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
