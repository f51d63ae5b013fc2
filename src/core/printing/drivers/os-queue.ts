import { spawn } from 'node:child_process';
import {
  describePrinter,
  PrinterError,
  type Printer,
  type PrinterConfig,
  type PrinterFault,
  type PrinterStatus,
  type SendOptions,
} from '../types.js';

export interface OsQueuePrinterOptions {
  /** The `lp` command (CUPS). A path for tests or unusual installs. */
  lpCommand?: string;
  /** The `lpstat` command (CUPS), asked for the queue's state and alerts. */
  lpstatCommand?: string;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with an argument array (never a shell), feeding `input` on stdin. */
export function run(
  command: string,
  args: readonly string[],
  input: Buffer | null,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
      signal,
      // CUPS words its answers in the user's language; the station reads the C locale's.
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined); // a command that exits early closes its stdin
    child.stdin.end(input ?? undefined);
  });
}

/**
 * A printer behind the operating system's queue: CUPS on Linux and macOS, where `lp -o raw`
 * passes the ZPL through untouched (the queue must be a raw queue, see docs/printing-and-devices.md).
 * CUPS accepting the job is what "printed" means; status() reads the queue's state and the
 * alerts CUPS keeps for it (`lpstat -l -p QUEUE`: disabled, media-empty, door-open, offline…).
 *
 * Windows has no `lp`; raw printing there needs the spooler's RAW datatype (a Zebra driver
 * with pass-through, or a shared printer written to with `copy /b`), which the station does not
 * do itself: use the network or USB kind on Windows.
 */
export class OsQueuePrinter implements Printer {
  private readonly lp: string;
  private readonly lpstat: string;
  private readonly platform: NodeJS.Platform;
  private readonly timeoutMs: number;

  constructor(
    readonly config: PrinterConfig,
    options: OsQueuePrinterOptions = {},
  ) {
    if (config.kind !== 'os' || !config.queue)
      throw new PrinterError(
        'printer-config-invalid',
        `Printer ${config.name} needs the name of its print queue`,
      );
    if (!/^[A-Za-z0-9_.@:/-]+$/.test(config.queue))
      throw new PrinterError(
        'printer-config-invalid',
        `"${config.queue}" is not a print queue name (letters, digits, - _ . @ / : only)`,
      );
    this.lp = options.lpCommand ?? 'lp';
    this.lpstat = options.lpstatCommand ?? 'lpstat';
    this.platform = options.platform ?? process.platform;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private get who() {
    return `Printer ${describePrinter(this.config)}`;
  }

  async send(data: Buffer, options: SendOptions = {}): Promise<void> {
    if (this.platform === 'win32')
      throw new PrinterError(
        'printer-config-invalid',
        `${this.who}: printing through a Windows print queue is not supported; set the printer up as a network or USB printer`,
      );
    let result: RunResult;
    try {
      result = await run(
        this.lp,
        ['-d', this.config.queue!, '-o', 'raw', '-t', `Shipping Station ${this.config.id}`],
        data,
        this.timeoutMs,
        options.signal,
      );
    } catch (cause) {
      const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
      throw new PrinterError(
        missing ? 'printer-config-invalid' : 'printer-offline',
        missing
          ? `${this.who}: the print system (CUPS "lp") is not installed on this computer`
          : `${this.who}: the print system did not take the label (${(cause as Error).message})`,
        { cause },
      );
    }
    if (result.code !== 0) {
      // lp exits non-zero before queueing anything: nothing will print.
      const why = result.stderr.trim().replace(/^lp:\s*/, '') || `lp exited with ${result.code}`;
      throw new PrinterError(
        'printer-offline',
        `${this.who}: the print system refused the label (${why})`,
      );
    }
  }

  /** The queue's state as CUPS reports it; null where there is no CUPS to ask (Windows). */
  async status(options: SendOptions = {}): Promise<PrinterStatus | null> {
    if (this.platform === 'win32') return null;
    let result: RunResult;
    try {
      result = await run(
        this.lpstat,
        ['-l', '-p', this.config.queue!],
        null,
        Math.min(this.timeoutMs, 5000),
        options.signal,
      );
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new PrinterError(
        'printer-offline',
        `${this.who}: the print system did not answer (${(cause as Error).message})`,
        { cause },
      );
    }
    if (result.code !== 0 || !/^printer\s/m.test(result.stdout))
      throw new PrinterError(
        'printer-not-found',
        `${this.who}: there is no print queue "${this.config.queue}" on this computer (site IT: check the queue name with lpstat -p)`,
      );
    return parseLpstat(result.stdout);
  }

  async close(): Promise<void> {}
}

/** CUPS queues on this computer (`lpstat -e`); empty when CUPS is not there. */
export async function listOsQueues(lpstatCommand = 'lpstat'): Promise<string[]> {
  try {
    const result = await run(lpstatCommand, ['-e'], null, 5000);
    if (result.code !== 0) return [];
    return result.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * `lpstat -l -p QUEUE` (C locale) onto a PrinterStatus. The first line says whether the queue is
 * enabled ("is idle", "now printing") or "disabled"; the "Alerts:" line lists the queue's
 * printer-state-reasons. Reasons ending in -warning or -report do not stop printing.
 */
export function parseLpstat(text: string): PrinterStatus {
  const faults = new Set<PrinterFault>();
  const first = /^printer\s+\S+\s+(.*)$/m.exec(text)?.[1] ?? '';
  if (/\bdisabled\b/i.test(first)) faults.add('paused');
  const alerts = (/^\s*Alerts:\s*(.*)$/m.exec(text)?.[1] ?? '')
    .split(/[\s,]+/)
    .filter((r) => r && r !== 'none');
  for (const reason of alerts) {
    if (/-(warning|report)$/.test(reason)) continue;
    const r = reason.replace(/-error$/, '');
    if (/^media-(empty|needed)$/.test(r)) faults.add('paper-out');
    else if (/^(door|cover|interlock)-open$/.test(r)) faults.add('head-open');
    else if (/^(marker-supply-empty|toner-empty|ribbon-empty)$/.test(r)) faults.add('ribbon-out');
    else if (r === 'paused' || r === 'moving-to-paused') faults.add('paused');
    else if (/^(offline|shutdown|timed-out|connecting-to-device)$/.test(r)) faults.add('offline');
    else faults.add('other');
  }
  return { ready: faults.size === 0, faults: [...faults], raw: text.trim() };
}
