import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StationSecretVault, StationSettingsStore } from '../core/station/index.js';

function readJson(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
    throw new Error('not a JSON object');
  } catch (error) {
    // Never wipe a bad settings file silently: say what is wrong and leave it for a person.
    throw new Error(
      `${file} is not valid settings JSON (${(error as Error).message}); fix or move it, it was left untouched.`,
    );
  }
}

function writeJson(file: string, value: unknown, mode?: number): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', mode === undefined ? {} : { mode });
  renameSync(tmp, file);
  if (mode !== undefined) chmodSync(file, mode);
}

/** Settings in `settings.json` of the data directory (electron-store's role in the app). */
export function jsonSettingsStore(dataDir: string): StationSettingsStore {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'settings.json');
  let data = readJson(file);
  return {
    get: (key) => data[key],
    set(key, value) {
      data = { ...data, [key]: value };
      writeJson(file, data);
    },
  };
}

/**
 * The web host runs in plain Node, where there is no OS keychain to ask. Rather than a
 * home-made cipher with a key lying next to it (which only looks safe), secrets go to
 * `secrets.json`, readable by this OS user only (mode 0600), and docs/ui.md says so. On a
 * shared machine, use the Electron app, which keeps them in the OS keychain.
 */
export function fileSecretVault(dataDir: string): StationSecretVault {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secrets.json');
  const read = () => readJson(file) as Record<string, string>;
  return {
    availability: () => ({ available: true, reason: null }),
    get: async (name) => read()[name] ?? null,
    async set(name, value) {
      writeJson(file, { ...read(), [name]: value }, 0o600);
    },
    async delete(name) {
      const { [name]: _gone, ...rest } = read();
      writeJson(file, rest, 0o600);
    },
  };
}
