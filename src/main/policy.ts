/**
 * The Electron host's security decisions as plain functions (no electron import), so they are
 * tested directly: who may call the contract, which permissions a page gets, the window's web
 * preferences and the application menu.
 */

/**
 * Whether an IPC message comes from the station's own page: the exact file URL of the built
 * renderer (any #route), or in development the exact origin of electron-vite's dev server.
 * A missing frame (navigated away, destroyed) is refused, never assumed to be ours.
 */
export function isStationSender(
  frame: { url: string } | null | undefined,
  app: { pageUrl: string },
): boolean {
  if (!frame?.url) return false;
  let url: URL;
  let expected: URL;
  try {
    url = new URL(frame.url);
    expected = new URL(app.pageUrl);
  } catch {
    return false;
  }
  if (expected.protocol === 'file:')
    return (
      url.protocol === 'file:' &&
      url.host === expected.host &&
      url.pathname === expected.pathname &&
      url.search === ''
    );
  return url.origin === expected.origin;
}

/**
 * Command-line switches that would open the packaged app to a debugger or inject code. The
 * fuses already disable Node's --inspect; Chromium's remote debugging is refused here.
 */
const debugSwitches = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'inspect',
  'inspect-brk',
  'js-flags',
];

export function forbiddenSwitch(
  packaged: boolean,
  hasSwitch: (name: string) => boolean,
): string | null {
  if (!packaged) return null;
  return debugSwitches.find((s) => hasSwitch(s)) ?? null;
}

/** The renderer needs no permission at all: checks and requests are both denied. */
export function permissionAllowed(_permission: string): boolean {
  return false;
}

export function stationWebPreferences(options: { packaged: boolean; preload: string }) {
  return {
    preload: options.preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    spellcheck: false,
    // A packaged station has no DevTools: nobody at the station opens a console next to the
    // API credentials. Development builds keep them.
    devTools: !options.packaged,
  } as const;
}

type MenuItem = { role?: string; label?: string; submenu?: MenuItem[]; type?: 'separator' };

/**
 * The application menu: quitting, the edit commands the forms need (copy, paste, undo) and
 * window handling. No View menu: no reload (which would drop a packer's scan mid-purchase), no
 * DevTools, no zoom reset surprises.
 */
export function appMenuTemplate(platform: NodeJS.Platform): MenuItem[] {
  const edit: MenuItem = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  const window: MenuItem = { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] };
  if (platform === 'darwin')
    return [
      {
        label: 'Shipping Station',
        submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'quit' }],
      },
      edit,
      window,
    ];
  return [{ label: 'File', submenu: [{ role: 'quit' }] }, edit, window];
}
