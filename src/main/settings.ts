import Store from 'electron-store';
import type { SettingsStore } from '../core/profiles/settings-store.js';

/** electron-store behind the core's SettingsStore. A bad file is reported, never wiped. */
export function electronSettings(cwd: string): SettingsStore {
  const store = new Store<Record<string, unknown>>({
    cwd,
    name: 'settings',
    clearInvalidConfig: false,
    // Private to the user running the station (conf's default is 0666 minus the umask).
    configFileMode: 0o600,
  });
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
  };
}
