import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  appMenuTemplate,
  forbiddenSwitch,
  isStationSender,
  permissionAllowed,
  stationWebPreferences,
} from '../../src/main/policy.js';

// js-yaml comes with electron-builder; it has no types of its own here.
const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

const file = 'file:///opt/Shipping%20Station/resources/app.asar/out/renderer/index.html';

describe('14. IPC calls are taken from the station page only', () => {
  it('accepts the exact app page (file URL, any hash)', () => {
    expect(isStationSender({ url: file }, { pageUrl: file })).toBe(true);
    expect(isStationSender({ url: `${file}#/pack` }, { pageUrl: file })).toBe(true);
  });

  it('refuses a null frame, another file, another origin and look-alikes', () => {
    expect(isStationSender(null, { pageUrl: file })).toBe(false);
    expect(isStationSender(undefined, { pageUrl: file })).toBe(false);
    expect(isStationSender({ url: '' }, { pageUrl: file })).toBe(false);
    for (const url of [
      'file:///tmp/evil.html',
      'file:///opt/Shipping%20Station/resources/app.asar/out/renderer/index.html.evil.html',
      'http://localhost.evil.example/',
      'http://localhost:5173/',
      'https://example.com/',
      'about:blank',
      'data:text/html,hi',
    ])
      expect(isStationSender({ url }, { pageUrl: file }), url).toBe(false);
  });

  it('in development, only the exact dev-server origin', () => {
    const dev = { pageUrl: 'http://localhost:5173/' };
    expect(isStationSender({ url: 'http://localhost:5173/#/x' }, dev)).toBe(true);
    expect(isStationSender({ url: 'http://localhost:5174/' }, dev)).toBe(false);
    expect(isStationSender({ url: 'http://localhost.evil.example:5173/' }, dev)).toBe(false);
  });

  it('permission checks are denied like permission requests', () => {
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'hid', 'serial'])
      expect(permissionAllowed(p)).toBe(false);
  });
});

describe('13. the packaged app is locked down', () => {
  it('DevTools are off in packaged builds', () => {
    expect(stationWebPreferences({ packaged: true, preload: '/p.cjs' }).devTools).toBe(false);
    expect(stationWebPreferences({ packaged: false, preload: '/p.cjs' }).devTools).toBe(true);
    const prefs = stationWebPreferences({ packaged: true, preload: '/p.cjs' });
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
  });

  it('a packaged app refuses to start with a debugging switch', () => {
    const given = (names: string[]) => (s: string) => names.includes(s);
    expect(forbiddenSwitch(true, given(['remote-debugging-port']))).toBe('remote-debugging-port');
    expect(forbiddenSwitch(true, given(['inspect']))).toBe('inspect');
    expect(forbiddenSwitch(true, given(['data-dir']))).toBeNull();
    expect(forbiddenSwitch(false, given(['remote-debugging-port']))).toBeNull();
  });

  it('the application menu has no developer items', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const text = JSON.stringify(appMenuTemplate(platform));
      for (const role of ['toggleDevTools', 'reload', 'forceReload', 'viewMenu'])
        expect(text, `${platform}: ${role}`).not.toContain(`"${role}"`);
      expect(text).toContain('"quit"');
      expect(text).toContain('"paste"');
    }
  });

  it('electron-builder sets the fuses', () => {
    const config = load(readFileSync('electron-builder.yml', 'utf8')) as {
      electronFuses?: Record<string, boolean>;
    };
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
