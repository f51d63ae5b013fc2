// postinstall: give Electron its own better-sqlite3 build without touching Node's.
//
// node_modules/better-sqlite3 stays built for Node (vitest, the web host, tsx). A second copy
// of the module is rebuilt against Electron's headers into native/electron/better_sqlite3.node,
// which the Electron host passes to better-sqlite3 as `nativeBinding`. Both runtimes work after
// one `npm install`, in either order, with no manual rebuild.
//
// Where the Electron binary or its headers cannot be had (ELECTRON_SKIP_BINARY_DOWNLOAD, no
// internet), this says so and exits 0: `npm ci` must never fail because of it.
import { electronBinary } from './electron-binary.mjs';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
// `--require` (used by `npm run dist`): a package without the Electron build would not open its
// database, so there a skip is an error.
let required;
try {
  required = parseArgs({ options: { require: { type: 'boolean' } } }).values.require ?? false;
} catch (error) {
  console.error(`native-deps: ${error.message}\n\nusage: node scripts/native-deps.mjs [--require]`);
  process.exit(2);
}
const skip = (why) => {
  if (required) {
    console.error(
      `native-deps: cannot build better-sqlite3 for Electron (${why}); the app cannot be packaged without it.`,
    );
    process.exit(1);
  }
  console.log(`native-deps: skipped the Electron build of better-sqlite3 (${why}).`);
  console.log(
    '  The Node build is unaffected; run `node scripts/native-deps.mjs` once Electron is installed.',
  );
  process.exit(0);
};

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD && !required)
  skip('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
let electronVersion;
if (!electronBinary()) skip('the Electron binary is not installed');
electronVersion = require('electron/package.json').version;
let rebuild;
try {
  ({ rebuild } = await import('@electron/rebuild'));
} catch {
  skip('@electron/rebuild is not available');
}
const work = mkdtempSync(join(tmpdir(), 'station-native-'));
try {
  const mod = join(work, 'node_modules', 'better-sqlite3');
  cpSync(join('node_modules', 'better-sqlite3'), mod, { recursive: true });
  await rebuild({ buildPath: work, electronVersion, onlyModules: ['better-sqlite3'], force: true });
  mkdirSync(join('native', 'electron'), { recursive: true });
  const built = join(mod, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(built)) skip('the rebuild produced no binary');
  copyFileSync(built, join('native', 'electron', 'better_sqlite3.node'));
  console.log(
    `native-deps: better-sqlite3 built for Electron ${electronVersion} → native/electron/`,
  );
} catch (error) {
  skip(`rebuild failed: ${error.message} (Electron headers need internet)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
