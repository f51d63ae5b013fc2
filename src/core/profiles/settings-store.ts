import Conf from 'conf';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseJsonText } from '../storage/json-text.js';
import { makePrivateDir } from '../storage/private-files.js';

/** Key/value settings (JSON values): ConfSettingsStore in both hosts, memory in some tests. */
export interface SettingsStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export class SettingsError extends Error {
  readonly code = 'settings-invalid';
  constructor(
    message: string,
    readonly details: { file?: string; issues: { path: string; message: string }[] },
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** The settings file in a station's data directory, the same for both hosts. */
export const SETTINGS_FILE = 'settings.json';

/**
 * Settings through `conf` (the store electron-store is built on), shared by the Electron and the
 * web host: one JSON object in `<dataDir>/settings.json`, written atomically (conf writes a temp
 * file and renames it) with mode 0600. Keys are taken literally (no dot paths), so the file
 * reads exactly as the earlier electron-store and JSON-file stores wrote it: an upgrade keeps
 * every value. A file that cannot be read as a JSON object is reported and left as it is: the
 * store refuses to write over it.
 */
export class ConfSettingsStore implements SettingsStore {
  readonly file: string;
  private readonly conf: Conf<Record<string, unknown>>;

  /** `file`: the settings file (normally `<dataDir>/settings.json`). */
  constructor(file: string) {
    this.file = resolve(file);
    const dir = dirname(this.file);
    makePrivateDir(dir);
    const name = basename(this.file);
    const extension = extname(name);
    this.conf = this.guard(
      () =>
        new Conf<Record<string, unknown>>({
          cwd: dir,
          configName: extension ? name.slice(0, -extension.length) : name,
          fileExtension: extension.replace(/^\./, ''),
          accessPropertiesByDotNotation: false,
          clearInvalidConfig: false,
          // Private to the user running the station (conf's default is 0666 minus the umask).
          configFileMode: 0o600,
          serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
          deserialize: (text) => this.parse(text),
        }),
    );
  }

  /** Every key and value (for migration checks and diagnostics; callers redact what they show). */
  all(): Record<string, unknown> {
    return this.guard(() => ({ ...this.conf.store }));
  }

  get(key: string): unknown {
    return this.guard(() => this.conf.get(key));
  }

  set(key: string, value: unknown): void {
    // conf refuses undefined; a JSON file never held it either: it is the key's absence.
    if (value === undefined) return this.delete(key);
    this.guard(() => this.conf.set(key, value));
  }

  delete(key: string): void {
    this.guard(() => this.conf.delete(key));
  }

  private parse(text: string): Record<string, unknown> {
    const parsed = parseJsonText(text);
    if (!parsed.ok)
      throw new SettingsError(
        `The settings file ${this.file} is not valid JSON (${parsed.message}). It was left untouched; fix or move it and start again.`,
        { file: this.file, issues: [{ path: '(file)', message: parsed.message }] },
      );
    const data = parsed.value;
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new SettingsError(
        `The settings file ${this.file} must hold a JSON object. It was left untouched.`,
        { file: this.file, issues: [{ path: '(file)', message: 'expected a JSON object' }] },
      );
    return data as Record<string, unknown>;
  }

  /** conf's own failures (a file it cannot read or write) as the store's error, with the file. */
  private guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof SettingsError) throw error;
      const message = (error as Error).message;
      throw new SettingsError(`The settings file ${this.file} cannot be used: ${message}`, {
        file: this.file,
        issues: [{ path: '(file)', message }],
      });
    }
  }
}

/** The station's settings in its data directory. */
export function openSettingsStore(dataDir: string): ConfSettingsStore {
  return new ConfSettingsStore(join(dataDir, SETTINGS_FILE));
}

/** For tests and for hosts that keep settings elsewhere. */
export class MemorySettingsStore implements SettingsStore {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return structuredClone(this.values.get(key));
  }
  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
  }
  delete(key: string): void {
    this.values.delete(key);
  }
}
