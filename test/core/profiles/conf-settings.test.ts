import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfSettingsStore,
  openSettingsStore,
  SettingsError,
} from '../../../src/core/profiles/settings-store.js';
import { tempDir } from '../../support/tmp.js';

/** What a station wrote before this store: profiles, bindings, station settings, the vault. */
const existing = {
  profiles: [{ id: 'p1', name: 'Dock 3', baseUrl: 'https://api.example.test', clientId: 'c1' }],
  activeProfileId: 'p1',
  station: { userName: 'ana', sounds: false, scale: { enabled: true, device: '0922:8003' } },
  secrets: { 'profile:p1': 'djEwAAAAencrypted' },
  secretStorageAcceptedBasicText: true,
};

describe('settings through conf, one store for both hosts', () => {
  it('reads a settings.json the earlier JSON-file store wrote (2 spaces) and keeps every value', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), `${JSON.stringify(existing, null, 2)}\n`);
    const store = openSettingsStore(dir);
    expect(store.all()).toEqual(existing);
    store.set('station', { ...existing.station, sounds: true });
    const after = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    expect(after).toEqual({ ...existing, station: { ...existing.station, sounds: true } });
  });

  it('reads a settings.json electron-store wrote (tabs, its default) in the Electron app', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(existing, undefined, '\t'));
    expect(openSettingsStore(dir).all()).toEqual(existing);
    expect(openSettingsStore(dir).get('secrets')).toEqual(existing.secrets);
  });

  it('starts empty without a file, writes it private (0600), and takes keys literally', () => {
    const dir = tempDir();
    const store = openSettingsStore(dir);
    expect(store.get('profiles')).toBeUndefined();
    store.set('site.store', { url: 'postgres://site' });
    expect(store.get('site.store')).toEqual({ url: 'postgres://site' });
    expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({
      'site.store': { url: 'postgres://site' },
    });
    // (Windows has no mode bits: the profile directory's ACL protects it.)
    expect(process.platform === 'win32' || (statSync(store.file).mode & 0o777) === 0o600).toBe(
      true,
    );
  });

  it('undefined is the key gone, and delete removes it', () => {
    const store = openSettingsStore(tempDir());
    store.set('a', 1);
    store.set('b', 2);
    store.set('a', undefined);
    expect(store.all()).toEqual({ b: 2 });
    store.delete('b');
    expect(store.all()).toEqual({});
  });

  it('the other host sees a change at once (both open the same file)', () => {
    const dir = tempDir();
    const electron = openSettingsStore(dir);
    const web = new ConfSettingsStore(join(dir, 'settings.json'));
    electron.set('activeProfileId', 'p2');
    expect(web.get('activeProfileId')).toBe('p2');
  });

  it('a broken file is reported with its name and never written over', () => {
    const dir = tempDir();
    const file = join(dir, 'settings.json');
    writeFileSync(file, '{"profiles": [ {"clientSecret": "sk_live_abc"');
    expect(() => openSettingsStore(dir)).toThrow(SettingsError);
    expect(() => openSettingsStore(dir)).toThrow(/settings\.json is not valid JSON/);
    expect(() => openSettingsStore(dir)).not.toThrow(/sk_live_abc/);
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": [ {"clientSecret": "sk_live_abc"');

    writeFileSync(file, '[1, 2]');
    expect(() => openSettingsStore(dir)).toThrow(/must hold a JSON object/);
    expect(readFileSync(file, 'utf8')).toBe('[1, 2]');
  });

  it('a file broken while running is reported on the next read, not silently replaced', () => {
    const dir = tempDir();
    const store = openSettingsStore(dir);
    store.set('a', 1);
    writeFileSync(store.file, 'not json');
    expect(() => store.get('a')).toThrow(/is not valid JSON/);
    expect(() => store.set('a', 2)).toThrow(/is not valid JSON/);
    expect(readFileSync(store.file, 'utf8')).toBe('not json');
  });
});
