import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createStation, defaultDataDir, type Station } from '../core/station/index.js';
import { CALL_CHANNEL, EVENT_CHANNEL } from '../shared/names.js';
import { startSandbox } from '../sandbox/index.js';
import { electronSettings } from './settings.js';
import { SafeStorageVault } from './vault.js';
import { contentSecurityPolicy } from '../shared/csp.js';

// --data-dir DIR, then STATION_DATA_DIR, then Electron's own userData: the same directory the
// web host uses by default, so both hosts open the same station.
const argIndex = process.argv.indexOf('--data-dir');
const dataDir = resolve(
  argIndex > 0 && process.argv[argIndex + 1] ? process.argv[argIndex + 1]! : defaultDataDir(),
);
app.setPath('userData', dataDir);

const CSP = contentSecurityPolicy();

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
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternal(url);
  });
  if (process.env['ELECTRON_RENDERER_URL']) void win.loadURL(process.env['ELECTRON_RENDERER_URL']);
  else void win.loadFile(join(__dirname, '../renderer/index.html'));
}

async function startStation(): Promise<void> {
  const settings = electronSettings(dataDir);
  const nativeBinding = electronSqliteBinding();
  station = createStation({
    dataDir,
    host: 'electron',
    settings,
    vault: new SafeStorageVault(
      settings,
      () =>
        (settings.get('station') as { acceptBasicTextSecrets?: boolean } | undefined)
          ?.acceptBasicTextSecrets === true,
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
    version: app.getVersion(),
    log: (line) => console.error(line),
  });
  // One channel for every call; the contract validates the name and the input.
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, input: unknown) => {
    if (event.senderFrame?.url && !/^(file:|http:\/\/localhost)/.test(event.senderFrame.url))
      return {
        ok: false,
        error: { code: 'validation', message: 'Calls are accepted from the station window only.' },
      };
    return station!.dispatch(name, input);
  });
  station.onEvent((name, payload) => win?.webContents.send(EVENT_CHANNEL, name, payload));
  await station.start();
}

void app.whenReady().then(async () => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) =>
    callback(false),
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
  void station.stop().finally(() => app.quit());
});
app.on('window-all-closed', () => app.quit());
