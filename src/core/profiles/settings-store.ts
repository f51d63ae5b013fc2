import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseJsonText } from '../storage/json-text.js';
import { makePrivateDir } from '../storage/private-files.js';

/** Key/value settings (JSON values). electron-store in Electron; a JSON file in Node. */
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

/**
 * Settings in one JSON file, written atomically (temp file, fsync, rename) so a crash leaves
 * the old or the new file, never half of one. A file that cannot be read as JSON is reported
 * and left as it is: the store refuses to write over it.
 */
export class JsonFileSettingsStore implements SettingsStore {
  private values: Record<string, unknown>;

  constructor(readonly file: string) {
    this.values = this.read();
  }

  get(key: string): unknown {
    return this.values[key];
  }

  set(key: string, value: unknown): void {
    this.values = { ...this.values, [key]: value };
    this.write();
  }

  delete(key: string): void {
    const { [key]: _gone, ...rest } = this.values;
    this.values = rest;
    this.write();
  }

  private read(): Record<string, unknown> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
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

  private write(): void {
    makePrivateDir(dirname(this.file));
    const temp = `${this.file}.${process.pid}.tmp`;
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(this.values, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
  }
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
