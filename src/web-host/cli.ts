/**
 * `npm run web -- [--port N] [--data-dir DIR] [--provision FILE] [--console]`: the station in any browser.
 * The first line on stdout is exactly `station ui at http://127.0.0.1:PORT/?token=TOKEN`;
 * everything else goes to stderr, so scripts and tests can read that line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStation, defaultDataDir } from '../core/station/index.js';
import { parseArgs, usage } from './args.js';
import { embeddedSandbox } from './embedded-sandbox.js';
import { startWebHost } from './server.js';
import { openSettingsStore } from '../core/profiles/settings-store.js';
import { MemorySecretVault, type SecretVault } from '../core/profiles/secret-vault.js';
import { detectOsKeychain } from '../core/profiles/os-keychain-vault.js';
import { openStationLog, rememberingVault } from '../core/logging/index.js';
import { makePrivateDir } from '../core/storage/private-files.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** stderr until the data directory (and so the log file) is known. */
const stderrLine = (line: string): void =>
  void process.stderr.write(line.endsWith('\n') ? line : line + '\n');
let log = stderrLine;

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    log((error as Error).message);
    process.exit(2);
  }
  if (args.help) {
    console.log(usage);
    return;
  }

  const rendererDir = join(root, 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html'))) {
    log(
      'The renderer is not built yet (out/renderer is missing): running `npx electron-vite build` first…',
    );
    const r = spawnSync('npx', ['electron-vite', 'build'], {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr],
      shell: process.platform === 'win32',
    });
    if (r.status !== 0 || !existsSync(join(rendererDir, 'index.html'))) {
      log('Building the renderer failed; run `npm run build` and try again.');
      process.exit(1);
    }
  }

  const dataDir = resolve(args.dataDir ?? defaultDataDir());
  makePrivateDir(dataDir);
  // From here on every line goes, redacted, to <dataDir>/logs/station.log and to stderr.
  const stationLog = openStationLog({ dataDir, host: 'web', mirror: stderrLine });
  log = stationLog.line;
  const version = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  ).version;
  // Secrets typed in Settings go to the OS keychain where there is one (macOS keychain, Windows
  // Credential Manager, Secret Service; @napi-rs/keyring). Elsewhere they live in memory for this run only, or come from the environment
  // variable a provisioned profile names: never written to disk in plaintext.
  const keychain = await detectOsKeychain();
  let vault: SecretVault;
  if (keychain.vault) {
    vault = keychain.vault;
    log(`client secrets: ${keychain.vault.description}`);
  } else {
    vault = new MemorySecretVault();
    log(
      `client secrets: held in memory for this run only (${keychain.reason}); profiles provisioned with --provision can name a STATION_SECRET_* environment variable (clientSecretEnv)`,
    );
  }
  const station = createStation({
    dataDir,
    host: 'web',
    settings: openSettingsStore(dataDir),
    // Every secret the station stores or reads is known to the log's redaction step.
    vault: rememberingVault(vault, stationLog.redactor),
    startSandbox: embeddedSandbox(root),
    resourcesDir: join(root, 'resources'),
    ...(args.provision ? { provisionFile: resolve(args.provision) } : {}),
    hotFolderRoots: args.hotFolderRoots.map((r) => resolve(r)),
    ...(args.console ? { consoleOnly: true } : {}),
    version,
    log,
    stationLog,
  });
  await station.start();
  const host = await startWebHost({
    station,
    rendererDir,
    port: args.port,
    fallbackToFreePort: !args.portGiven,
    log,
  });
  process.stdout.write(`station ui at ${host.url}\n`);
  log(`data directory: ${dataDir}`);
  if (args.console && !station.context.site)
    log(
      "--console shows a site store's stations, and this data directory has none: give it one with --provision FILE (a file with a siteStore, see docs/site.md), then start it again. Until then the page says the same.",
    );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await host.close();
    await station.stop();
    await stationLog.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  const e = error as Error & { code?: string };
  log(
    `station web host failed to start: ${e?.code === 'conflict' || e?.code === 'settings-invalid' ? e.message : (e?.stack ?? String(error))}`,
  );
  process.exit(1);
});
