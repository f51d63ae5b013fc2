// `npm run test:e2e`: build the app and the processes the tests start, check Chromium, run Playwright.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

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
// The web host, the sandbox and the site CLI, each bundled into one file under out/ (the same
// source `npm run web`/`sandbox`/`site` run through tsx): the tests start a few hundred of these
// processes, and a bundle starts in about 0.6 s where tsx takes about 1.5 s. Packages stay
// external (native modules load from node_modules). e2e/station.ts falls back to tsx without them.
if (!process.env.E2E_SKIP_BUILD || !existsSync('out/web-host/cli.js'))
  await build({
    entryPoints: {
      'web-host/cli': 'src/web-host/cli.ts',
      'sandbox/cli': 'src/sandbox/cli.ts',
      'site/cli': 'src/core/site/cli.ts',
    },
    outdir: 'out',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
run('npx', ['playwright', 'test', ...process.argv.slice(2)]);
