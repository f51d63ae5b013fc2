// `npm run test:e2e`: build the app, check Chromium, run Playwright.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    [
      `End-to-end tests need Chromium at ${chromium} (Playwright's own browsers are not downloaded here).`,
      '  Debian/Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium',
      '  Elsewhere: set CHROMIUM_PATH to a Chromium or Chrome binary.',
    ].join('\n'),
  );
  process.exit(1);
}
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
// Always from the current source: a renderer built before the last change would test old code.
// (E2E_SKIP_BUILD=1 reuses out/ when iterating on the tests themselves.)
if (!process.env.E2E_SKIP_BUILD || !existsSync('out/renderer/index.html'))
  run('npx', ['electron-vite', 'build']);
run('npx', ['playwright', 'test', ...process.argv.slice(2)]);
