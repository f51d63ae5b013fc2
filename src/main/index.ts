import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  safeStorage,
  session,
  shell,
  type MenuItemConstructorOptions,
} from 'electron';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStation, defaultDataDir, type Station } from '../core/station/index.js';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../shared/bridge.js';
import { startSandbox } from '../sandbox/index.js';
import { openSettingsStore } from '../core/profiles/settings-store.js';
import { SafeStorageVault } from './vault.js';
import { makePrivateDir } from '../core/storage/private-files.js';
import { openStationLog, rememberingVault } from '../core/logging/index.js';
import { contentSecurityPolicy } from '../shared/csp.js';
import {
  appMenuTemplate,
  forbiddenSwitch,
  isStationSender,
  permissionAllowed,
  stationWebPreferences,
} from './policy.js';

// --data-dir DIR, then STATION_DATA_DIR, then Electron's own userData: the same directory the
// web host uses by default, so both hosts open the same station.
const argValue = (flag: string): string | undefined => {
  const i = process.argv.indexOf(flag);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const dataDir = resolve(argValue('--data-dir') ?? defaultDataDir());
// Created 0700 before Electron or the station writes anything into it.
makePrivateDir(dataDir);
/** Site IT's provisioning file: the only way to name STATION_SECRET_* variables. */
const provisionFile = argValue('--provision');
/** <dataDir>/logs/station.log for site IT, redacted; also on stderr when not packaged. */
const stationLog = openStationLog({
  dataDir,
  host: 'electron',
  ...(app.isPackaged ? {} : { mirror: (line: string) => console.error(line) }),
});
app.setPath('userData', dataDir);

const CSP = contentSecurityPolicy();

/** The one page allowed to call the contract: the built renderer, or the dev server's origin. */
const rendererPage = join(__dirname, '../renderer/index.html');
const stationPageUrl = () =>
  !app.isPackaged && process.env['ELECTRON_RENDERER_URL']
    ? process.env['ELECTRON_RENDERER_URL']
    : pathToFileURL(rendererPage).href;

/** The person at the station accepts storing secrets without a keychain here, or nowhere. */
async function confirmBasicTextSecrets(): Promise<boolean> {
  const options = {
    type: 'warning' as const,
    buttons: ['Do not store', 'Store without a keychain'],
    defaultId: 0,
    cancelId: 0,
    title: 'No keychain for the API secret',
    message: 'This computer has no keychain running (gnome-keyring or KWallet).',
    detail:
      "Without one, the API client secret is stored with a fixed key that anyone who can read this user's files could undo. Only accept this on a station nobody else uses. Better: start a keychain and try again.",
  };
  const { response } = win
    ? await dialog.showMessageBox(win, options)
    : await dialog.showMessageBox(options);
  return response === 1;
}

/** Electron's better-sqlite3 build, prepared by scripts/native-deps.mjs (see docs/station-ui.md). */
function electronSqliteBinding(): string | undefined {
  const candidates = [
    join(
      process.resourcesPath ?? '',
      'app.asar.unpacked',
      'native',
      'electron',
      'better_sqlite3.node',
    ),
    join(app.getAppPath(), 'native', 'electron', 'better_sqlite3.node'),
  ];
  return candidates.find((c) => existsSync(c));
}

let station: Station | null = null;
let win: BrowserWindow | null = null;

function openExternal(url: string): void {
  // Only https links leave the app (oauth_url and documentation); nothing else is opened.
  try {
    if (new URL(url).protocol === 'https:') void shell.openExternal(url);
  } catch {
    // not a URL: ignore
  }
}

function createWindow(): void {
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Shipping Station',
    backgroundColor: '#0f1419',
    webPreferences: stationWebPreferences({
      packaged: app.isPackaged,
      preload: join(__dirname, '../preload/index.cjs'),
    }),
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternal(url);
  });
  // The same address the IPC check accepts, decided in one place.
  void win.loadURL(stationPageUrl());
}

async function startStation(): Promise<void> {
  // The same conf-backed store and file as the web host (src/core/profiles/settings-store.ts).
  const settings = openSettingsStore(dataDir);
  const nativeBinding = electronSqliteBinding();
  station = createStation({
    dataDir,
    host: 'electron',
    settings,
    vault: rememberingVault(
      new SafeStorageVault(settings, safeStorage, confirmBasicTextSecrets),
      stationLog.redactor,
    ),
    ...(nativeBinding ? { nativeBinding } : {}),
    startSandbox: async () => {
      const s = await startSandbox({
        fixtures: join(app.getAppPath(), 'resources', 'fixtures', 'demo-world.json'),
      });
      const client =
        s.fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full') ??
        s.fixtures.apiClients[0]!;
      return {
        baseUrl: s.url,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        tenantId: client.tenantId,
        close: () => s.close(),
      };
    },
    resourcesDir: join(app.getAppPath(), 'resources'),
    ...(provisionFile ? { provisionFile: resolve(provisionFile) } : {}),
    // The only way the app sets a hot folder: a native dialog, never a typed path.
    chooseFolder: async () => {
      const options = {
        title: 'Choose the hot folder for order files',
        properties: ['openDirectory' as const, 'createDirectory' as const],
      };
      const r = win
        ? await dialog.showOpenDialog(win, options)
        : await dialog.showOpenDialog(options);
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
    version: app.getVersion(),
    stationLog,
  });
  // One channel for every call; the contract validates the name and the input.
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, input: unknown) => {
    // The exact page of our own window, never a frame that is gone, another file or an origin
    // that merely starts like ours.
    if (
      !win ||
      event.sender !== win.webContents ||
      !isStationSender(event.senderFrame, { pageUrl: stationPageUrl() })
    )
      return {
        ok: false,
        error: { code: 'validation', message: 'Calls are accepted from the station window only.' },
      };
    return station!.dispatch(name, input);
  });
  station.onEvent((name, payload) => win?.webContents.send(EVENT_CHANNEL, name, payload));
  await station.start();
}

// A packaged station never runs with a debugger attached (see forbiddenSwitch).
const refusedSwitch = forbiddenSwitch(app.isPackaged, (s) => app.commandLine.hasSwitch(s));
if (refusedSwitch) {
  stationLog.error(`Shipping Station does not start with --${refusedSwitch}.`);
  console.error(`Shipping Station does not start with --${refusedSwitch}.`);
  app.exit(1);
}

void app.whenReady().then(async () => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(permissionAllowed(permission)),
  );
  // Checks (navigator.permissions, device access probes) are denied as requests are.
  session.defaultSession.setPermissionCheckHandler((_wc, permission) =>
    permissionAllowed(permission),
  );
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(appMenuTemplate(process.platform) as MenuItemConstructorOptions[]),
  );
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  try {
    await startStation();
  } catch (error) {
    const message = (error as Error).message;
    // The database module built for Node instead of Electron: say how to build Electron's copy.
    const hint = /NODE_MODULE_VERSION|better_sqlite3\.node/.test(message)
      ? "\n\nThe database module has no build for Electron yet. In the app folder run:\n  node scripts/native-deps.mjs\n(it needs internet once to fetch Electron's headers), then start again."
      : '';
    stationLog.error('Shipping Station cannot start', { err: error });
    dialog.showErrorBox('Shipping Station cannot start', message + hint);
    app.exit(1);
    return;
  }
  createWindow();
});

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !station) return;
  // Services stop with the app: the spool and poller finish what they are doing first.
  event.preventDefault();
  quitting = true;
  void station
    .stop()
    .then(() => stationLog.close())
    .finally(() => app.quit());
});
app.on('window-all-closed', () => app.quit());
