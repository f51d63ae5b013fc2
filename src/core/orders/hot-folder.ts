import type { SavedColumnMapping } from './store-formats.js';
import type { CancelAtStation } from './closed-orders.js';
import { watch, type FSWatcher } from 'chokidar';
import { lstat, mkdir, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  decodeOrderFile,
  formatOf,
  importedNone,
  importOrdersInSlices,
  type OrderFileFormat,
  type TenantPolicy,
} from './order-import.js';
import type { OrderRepository } from './order-repository.js';
import type { StationScope } from '../storage/scope.js';
import type { ImportProblem, ImportReport } from './types.js';
import { importError } from './import-error.js';
import { unfinishedLastRow } from './csv.js';
import { unfinishedJson } from './json-items.js';
import { notPlainWords, readPlainFile } from './plain-file.js';

export interface HotFolderOptions {
  folder: string;
  orders: OrderRepository;
  scope: StationScope;
  tenants: TenantPolicy;
  /** The profile's saved column mappings (orderColumnMappings), for CSVs in no known format. */
  mappings?: readonly SavedColumnMapping[];
  /** Cancels an open order a file says the store cancelled or shipped (closed-orders.ts). */
  cancelClosed?: CancelAtStation;
  /** Called after each file, with where it was moved. */
  onFile?: (result: HotFolderFileResult) => void;
  /**
   * How long a file must stay unchanged (size and time) before it is read: a WMS that writes a
   * file in bursts pauses between them. SETTLE_MS by default.
   */
  stableMs?: number;
  /**
   * How long a CSV whose last row stops in the middle (no line ending, fields short), or a JSON
   * file not closed, is waited for: past it, the complete rows are imported and the cut row is
   * reported (a JSON file is refused whole). UNFINISHED_MS by default.
   */
  unfinishedMs?: number;
  /**
   * The site store's file claim (issue 12): a reason when another station of the site imports
   * this file, which is then left where it is for that station to move; null to import it.
   */
  claimFile?: (text: string, name: string) => Promise<string | null>;
  /** Gives that claim up: the file brought in no order (the site may import it again). */
  releaseFile?: (text: string) => Promise<void>;
  /** The station's log (the rotating file); stderr when omitted. */
  log?: (line: string) => void;
}

export interface HotFolderFileResult {
  file: string;
  movedTo: string;
  outcome: 'processed' | 'failed';
  report: ImportReport;
  format: OrderFileFormat;
}

/** A file unchanged this long is taken as written (ms). */
export const SETTLE_MS = 2000;
/** A file that stops in the middle of a row is waited for this long before it is imported (ms). */
export const UNFINISHED_MS = 60_000;

/** What a file looked like when last seen: it is read once it has stayed so long enough. */
interface Seen {
  size: number;
  mtimeMs: number;
  /** When the station first saw it so (its own clock: a share's clock may differ). */
  since: number;
}

/**
 * Watches a folder where the WMS drops order files. Each .csv/.json file is imported once and
 * moved to processed/ (no problems) or failed/ (any problem; the good orders of the file are
 * still imported), with `<name>.report.json` beside it saying what was wrong and where.
 * Other files are left alone. Files are handled one at a time, in arrival order.
 */
export class OrderHotFolder {
  private watcher: FSWatcher | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly inFlight = new Set<string>();
  private readonly seen = new Map<string, Seen>();
  /** Files to look at again (still being written), by path. */
  private readonly later = new Map<string, ReturnType<typeof setTimeout>>();
  /** Files already logged as stopping mid-row (said once, not at every look). */
  private readonly cutSeen = new Set<string>();
  private stopped = false;

  constructor(private readonly options: HotFolderOptions) {}

  async start(): Promise<void> {
    if (this.watcher) return;
    this.stopped = false;
    const { folder } = this.options;
    await mkdir(join(folder, 'processed'), { recursive: true });
    await mkdir(join(folder, 'failed'), { recursive: true });
    const watcher = watch(folder, {
      depth: 0,
      ignoreInitial: false,
      awaitWriteFinish: { stabilityThreshold: this.settleMs, pollInterval: 50 },
      ignored: (path, stats) =>
        stats?.isFile() === true && formatOf(path) === undefined && !path.endsWith('/'),
    });
    watcher.on('add', (path) => this.enqueue(path));
    this.watcher = watcher;
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  async stop(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = undefined;
    this.stopped = true;
    for (const timer of this.later.values()) clearTimeout(timer);
    this.later.clear();
    await watcher?.close();
    await this.chain;
  }

  private get settleMs(): number {
    return this.options.stableMs ?? SETTLE_MS;
  }

  /** Looks at a file again after `ms` (it was still changing, or stops mid-row). */
  private again(path: string, ms: number): undefined {
    if (this.stopped || this.later.has(path)) return undefined;
    const timer = setTimeout(() => {
      this.later.delete(path);
      this.enqueue(path);
    }, ms);
    this.later.set(path, timer);
    return undefined;
  }

  /**
   * The file's size and time when it has stayed so for the settle time; 'wait' while it may
   * still be written ('gone' when it is no longer there). A file first seen already old enough
   * by its own time (present at start-up) is not waited for.
   */
  private async settled(path: string): Promise<Seen | 'wait' | 'gone'> {
    const now = Date.now();
    const found = await stat(path).catch(() => undefined);
    if (!found) return 'gone';
    const before = this.seen.get(path);
    if (before && before.size === found.size && before.mtimeMs === found.mtimeMs)
      return now - before.since >= this.settleMs ? before : 'wait';
    const state = { size: found.size, mtimeMs: found.mtimeMs, since: now };
    this.seen.set(path, state);
    return !before && now - found.mtimeMs >= this.settleMs ? state : 'wait';
  }

  /** Whether the file still has the size and time it had when it was read. */
  private async unchanged(path: string, read: Seen): Promise<boolean> {
    const found = await stat(path).catch(() => undefined);
    return found !== undefined && found.size === read.size && found.mtimeMs === read.mtimeMs;
  }

  /** Resolves once every file seen so far has been handled (files waited for included). */
  async idle(): Promise<void> {
    do {
      await this.chain;
      if (this.later.size > 0) await new Promise((r) => setTimeout(r, 50));
    } while (this.later.size > 0);
    await this.chain;
  }

  /** Imports every order file already in the folder (also used at start-up without a watcher). */
  async sweep(): Promise<HotFolderFileResult[]> {
    const names = (await readdir(this.options.folder, { withFileTypes: true }))
      .filter((e) => e.isFile() && formatOf(e.name) !== undefined)
      .map((e) => e.name)
      .sort();
    const results: HotFolderFileResult[] = [];
    for (const name of names) {
      const result = await this.processFile(join(this.options.folder, name));
      if (result) results.push(result);
    }
    return results;
  }

  private enqueue(path: string): void {
    if (formatOf(path) === undefined) return;
    this.chain = this.chain.then(async () => {
      try {
        await this.processFile(path);
      } catch (error) {
        this.log(`hot folder: could not process ${path}: ${(error as Error).message}`);
      }
    });
  }

  private log(line: string): void {
    (this.options.log ?? console.error)(line);
  }

  private async processFile(path: string): Promise<HotFolderFileResult | undefined> {
    if (this.inFlight.has(path)) return undefined;
    this.inFlight.add(path);
    try {
      const format = formatOf(path);
      if (!format) return undefined;
      // Only a plain file is read: a link (to /etc/passwd, to the station's own files) or a
      // named pipe is moved to failed/ with a report saying why, and the next file goes on.
      const entry = await lstat(path).catch(() => undefined);
      const notPlain = entry ? notPlainWords(entry) : null;
      if (notPlain) return this.refuseNotPlain(path, format, notPlain);
      // A file is read once it has stopped changing, and moved only if it did not change
      // while it was read and imported: a WMS that writes in bursts would otherwise lose
      // whatever it wrote after the read (into the moved file) with a clean report.
      const read = await this.settled(path);
      if (read === 'gone') {
        this.seen.delete(path);
        return undefined; // Already moved by a sweep or removed.
      }
      if (read === 'wait') return this.again(path, this.settleMs);
      let text: string;
      try {
        const read = await readPlainFile(path);
        if ('notPlain' in read) return this.refuseNotPlain(path, format, read.notPlain);
        text = decodeOrderFile(read.bytes);
      } catch {
        return undefined;
      }
      if (!(await this.unchanged(path, read))) return this.again(path, this.settleMs);
      // A last row cut in the middle, or JSON not closed: the writer is not done. Waited for,
      // up to a limit; then a CSV's complete rows come in and the cut one is reported
      // (csv-orders.ts), and a JSON file is refused whole as not valid JSON.
      const unfinishedMs = this.options.unfinishedMs ?? UNFINISHED_MS;
      const waited = Date.now() - read.since;
      const cut = format === 'csv' ? unfinishedLastRow(text) !== null : unfinishedJson(text);
      if (waited < unfinishedMs && cut) {
        if (!this.cutSeen.has(path))
          this.log(
            `hot folder: ${path} stops in the middle of ${format === 'csv' ? 'a row' : 'its JSON'}; waiting for the rest`,
          );
        this.cutSeen.add(path);
        return this.again(path, Math.min(this.settleMs, unfinishedMs - waited));
      }
      const name = basename(path);
      if (this.options.claimFile && (await this.options.claimFile(text, name))) return undefined;
      const report = await importOrdersInSlices(
        this.options.orders,
        this.options.scope,
        this.options.tenants,
        { text, format, source: `hot-folder:${name}` },
        { mappings: this.options.mappings ?? [], cancelClosed: this.options.cancelClosed },
      ).catch(async (error: unknown) => {
        await this.options.releaseFile?.(text);
        throw error;
      });
      if (importedNone(report)) await this.options.releaseFile?.(text);
      if (!(await this.unchanged(path, read))) {
        // Written to while it was imported: not moved, read again whole once it settles (an
        // order imported twice is replaced, not doubled).
        this.log(`hot folder: ${path} changed while it was imported; reading it again`);
        return this.again(path, this.settleMs);
      }
      this.seen.delete(path);
      this.cutSeen.delete(path);
      return await this.move(path, format, report);
    } finally {
      this.inFlight.delete(path);
    }
  }

  /** Into processed/ (no problem) or failed/, with its report beside it. */
  private async move(
    path: string,
    format: OrderFileFormat,
    report: ImportReport,
  ): Promise<HotFolderFileResult> {
    const outcome = report.problems.length === 0 ? 'processed' : 'failed';
    const stamp = new Date().toISOString().replaceAll(':', '-');
    const movedTo = join(this.options.folder, outcome, `${stamp}-${basename(path)}`);
    await writeFile(`${movedTo}.report.json`, JSON.stringify(reportFile(report, format), null, 2));
    await rename(path, movedTo);
    const result: HotFolderFileResult = { file: path, movedTo, outcome, report, format };
    this.options.onFile?.(result);
    return result;
  }

  /** A link, pipe or device named like an order file: not read, moved to failed/ with why. */
  private async refuseNotPlain(
    path: string,
    format: OrderFileFormat,
    what: string,
  ): Promise<HotFolderFileResult> {
    this.seen.delete(path);
    const name = basename(path);
    this.log(`hot folder: ${path} is ${what}, not a plain file; not read, moved to failed/`);
    return this.move(path, format, {
      source: `hot-folder:${name}`,
      imported: [],
      updated: [],
      unchanged: [],
      same: [],
      problems: [
        {
          row: 0,
          field: '(file)',
          reason: `${name} is ${what}, not a plain file: the hot folder reads only files written into it (a link could make it read any file of this computer, a pipe would stop it). Not read; copy the order file itself into the folder`,
        },
      ],
      problemCount: 1,
    });
  }
}

/**
 * The report as the file's writer reads it: each problem's row as a spreadsheet numbers it (the
 * header is row 1), with the words the station shows ("row 6 (order #2003)"), and the file line
 * it starts on; the same numbers as the Orders view and Needs attention give.
 */
function reportFile(report: ImportReport, format: OrderFileFormat) {
  const place = (p: ImportProblem) => ({
    ...importError(p, format),
    ...(p.line ? { line: p.line } : {}),
  });
  return {
    ...report,
    problems: report.problems.map(place),
    ...(report.cleaned ? { cleaned: report.cleaned.map(place) } : {}),
    ...(report.notices ? { notices: report.notices.map(place) } : {}),
    ...(report.sharedNumbers ? { sharedNumbers: report.sharedNumbers.map(place) } : {}),
    ...(report.closed ? { closed: report.closed.map(place) } : {}),
  };
}
