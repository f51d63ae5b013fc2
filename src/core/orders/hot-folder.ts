import type { SavedColumnMapping } from './store-formats.js';
import { watch, type FSWatcher } from 'chokidar';
import { mkdir, readFile, readdir, rename, writeFile } from 'node:fs/promises';
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

export interface HotFolderOptions {
  folder: string;
  orders: OrderRepository;
  scope: StationScope;
  tenants: TenantPolicy;
  /** The profile's saved column mappings (orderColumnMappings), for CSVs in no known format. */
  mappings?: readonly SavedColumnMapping[];
  /** Called after each file, with where it was moved. */
  onFile?: (result: HotFolderFileResult) => void;
  /** How long a file must stop growing before it is read (a copy in progress). */
  stableMs?: number;
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

  constructor(private readonly options: HotFolderOptions) {}

  async start(): Promise<void> {
    if (this.watcher) return;
    const { folder } = this.options;
    await mkdir(join(folder, 'processed'), { recursive: true });
    await mkdir(join(folder, 'failed'), { recursive: true });
    const watcher = watch(folder, {
      depth: 0,
      ignoreInitial: false,
      awaitWriteFinish: { stabilityThreshold: this.options.stableMs ?? 300, pollInterval: 50 },
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
    await watcher?.close();
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

  /** Resolves once every file seen so far has been handled. */
  idle(): Promise<void> {
    return this.chain;
  }

  private enqueue(path: string): void {
    if (formatOf(path) === undefined) return;
    this.chain = this.chain.then(async () => {
      try {
        await this.processFile(path);
      } catch (error) {
        (this.options.log ?? console.error)(
          `hot folder: could not process ${path}: ${(error as Error).message}`,
        );
      }
    });
  }

  private async processFile(path: string): Promise<HotFolderFileResult | undefined> {
    if (this.inFlight.has(path)) return undefined;
    this.inFlight.add(path);
    try {
      const format = formatOf(path);
      if (!format) return undefined;
      let text: string;
      try {
        text = decodeOrderFile(await readFile(path));
      } catch {
        return undefined; // Already moved by a sweep or removed by someone else.
      }
      const name = basename(path);
      if (this.options.claimFile && (await this.options.claimFile(text, name))) return undefined;
      const report = await importOrdersInSlices(
        this.options.orders,
        this.options.scope,
        this.options.tenants,
        { text, format, source: `hot-folder:${name}` },
        { mappings: this.options.mappings ?? [] },
      ).catch(async (error: unknown) => {
        await this.options.releaseFile?.(text);
        throw error;
      });
      if (importedNone(report)) await this.options.releaseFile?.(text);
      const outcome = report.problems.length === 0 ? 'processed' : 'failed';
      const stamp = new Date().toISOString().replaceAll(':', '-');
      const movedTo = join(this.options.folder, outcome, `${stamp}-${name}`);
      await writeFile(
        `${movedTo}.report.json`,
        JSON.stringify(reportFile(report, format), null, 2),
      );
      await rename(path, movedTo);
      const result: HotFolderFileResult = { file: path, movedTo, outcome, report, format };
      this.options.onFile?.(result);
      return result;
    } finally {
      this.inFlight.delete(path);
    }
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
  };
}
