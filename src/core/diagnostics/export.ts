import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../storage/database.js';
import { makePrivateDir } from '../storage/private-files.js';
import type { Redactor } from '../logging/redact.js';

/** Where exports go: `<dataDir>/diagnostics/station-diagnostics-<UTC time>/`. */
export const DIAGNOSTICS_DIR = 'diagnostics';

export interface DiagnosticsSource {
  dataDir: string;
  /** The log directory (`<dataDir>/logs`); its station.log* files are copied, redacted. */
  logDir: string;
  db: Db;
  redactor: Redactor;
  host: 'electron' | 'web';
  appVersion: string;
  /** The profiles as Settings shows them (no secret in them), each with its API base URL. */
  profiles: unknown[];
  /** Site store link without its password (URL without userinfo password, station name…). */
  siteStore: unknown;
  /** Station settings (user name, boxes, scale…), which hold no secret. */
  stationSettings: unknown;
  now?: () => Date;
}

export interface DiagnosticsExport {
  folder: string;
  files: string[];
}

export interface DatabaseStats {
  file: string;
  bytes: { database: number; wal: number };
  pageSize: number;
  pageCount: number;
  freePages: number;
  schemaVersion: number;
  rows: Record<string, number>;
  /** Changes waiting to reach the site store. */
  siteOutboxDepth: number;
  /** Shipments waiting in the offline queue (state 'waiting'). */
  offlineQueueWaiting: number;
  /** Print jobs not yet printed (queued, sending, unknown). */
  printJobsPending: number;
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

export function databaseStats(db: Db, file: string): DatabaseStats {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  const rows: Record<string, number> = {};
  for (const t of tables)
    rows[t] = db
      .prepare(`SELECT count(*) FROM "${t.replaceAll('"', '""')}"`)
      .pluck()
      .get() as number;
  const count = (sql: string) => {
    try {
      return db.prepare(sql).pluck().get() as number;
    } catch {
      return 0; // the table is not there (an older schema)
    }
  };
  return {
    file,
    bytes: { database: size(file), wal: size(`${file}-wal`) },
    pageSize: db.pragma('page_size', { simple: true }) as number,
    pageCount: db.pragma('page_count', { simple: true }) as number,
    freePages: db.pragma('freelist_count', { simple: true }) as number,
    schemaVersion: db.pragma('user_version', { simple: true }) as number,
    rows,
    siteOutboxDepth: count('SELECT count(*) FROM site_outbox'),
    offlineQueueWaiting: count("SELECT count(*) FROM offline_queue WHERE state = 'waiting'"),
    printJobsPending: count(
      "SELECT count(*) FROM print_jobs WHERE state IN ('queued', 'sending', 'unknown')",
    ),
  };
}

/**
 * "Export diagnostics" for site IT: a folder (not an archive, so it can be looked through
 * before it is sent, and zipped with the OS's own "Compress") holding
 *
 *   about.json      versions (app, Node, Electron, Chromium, OS), host, data directory
 *   profiles.json   the profiles without secrets (API base URL, client id, printers…), the site
 *                   store link without its password, the station settings
 *   database.json   row counts per table, file sizes, pages, outbox and queue depths
 *   logs/           station.log and its rotated files
 *
 * Every file is written through the redactor (the same step as the log file), so no client
 * secret, site store password or token can be in it even if one reached a log line before the
 * redactor knew it.
 */
export function exportDiagnostics(source: DiagnosticsSource): DiagnosticsExport {
  const now = (source.now ?? (() => new Date()))();
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const folder = join(source.dataDir, DIAGNOSTICS_DIR, `station-diagnostics-${stamp}`);
  makePrivateDir(join(folder, 'logs'));
  const files: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(folder, name), source.redactor.text(text), { mode: 0o600 });
    files.push(name);
  };
  const json = (name: string, value: unknown) =>
    write(name, `${JSON.stringify(source.redactor.value(value), null, 2)}\n`);

  json('about.json', {
    exportedAt: now.toISOString(),
    app: { name: 'Shipping Station', version: source.appVersion, host: source.host },
    versions: {
      node: process.versions.node,
      electron: process.versions['electron'] ?? null,
      chrome: process.versions['chrome'] ?? null,
      v8: process.versions.v8,
      sqlite: source.db.prepare('SELECT sqlite_version()').pluck().get(),
    },
    os: { platform: process.platform, arch: process.arch, release: release() },
    dataDir: source.dataDir,
  });
  json('profiles.json', {
    profiles: source.profiles,
    siteStore: source.siteStore,
    stationSettings: source.stationSettings,
  });
  json('database.json', databaseStats(source.db, join(source.dataDir, 'station.db')));
  const logs = existsSync(source.logDir)
    ? readdirSync(source.logDir).filter((f) => /^station\.log(\.\d+)?$/.test(f))
    : [];
  for (const f of logs.sort()) write(join('logs', f), readFileSync(join(source.logDir, f), 'utf8'));
  return { folder, files };
}
