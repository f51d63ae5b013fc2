import { join } from 'node:path';
import pino from 'pino';
import { createStream } from 'rotating-file-stream';
import { makePrivateDir } from '../storage/private-files.js';
import { Redactor } from './redact.js';

/** `<dataDir>/logs/station.log`, then station.log.1 (newest) … station.log.N (oldest). */
export const LOG_DIR = 'logs';
export const LOG_FILE = 'station.log';

export interface StationLogOptions {
  dataDir: string;
  /** 'electron' or 'web' (both hosts may run on one data directory, one after the other). */
  host: string;
  /** Rotate when the file reaches this size (rotating-file-stream's notation: 5M, 512K). */
  maxSize?: string;
  /** Rotated files kept besides the current one. */
  keep?: number;
  redactor?: Redactor;
  /** Also shown here, redacted, as plain text (the web host's stderr, Electron's in development). */
  mirror?: (line: string) => void;
}

export type LogFields = Record<string, unknown>;

export interface StationLog {
  readonly dir: string;
  readonly file: string;
  readonly redactor: Redactor;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The station's `log` option: one line of text, at info level. */
  readonly line: (text: string) => void;
  /**
   * Resolves once every line logged so far is in the file (at most `ms`): a copy of the file
   * (Export diagnostics) then has the last lines, the one that says what just went wrong.
   */
  written(ms?: number): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

/**
 * The log file site IT reads: pino (JSON lines: time, level, host, pid, msg) into a
 * size-rotated file in the data directory, through the redactor (see redact.ts) so no secret is
 * ever written. pino writes to the rotating stream in-process (no worker-thread transport), so
 * the same code runs in Electron's main process and in Node.
 */
export function openStationLog(options: StationLogOptions): StationLog {
  const dir = join(options.dataDir, LOG_DIR);
  makePrivateDir(dir);
  const redactor = options.redactor ?? new Redactor();
  const stream = createStream(LOG_FILE, {
    path: dir,
    size: options.maxSize ?? '5M',
    rotate: options.keep ?? 5,
    mode: 0o600,
  });
  stream.on('error', () => undefined); // a full disk must not take the station down
  const logger = pino(
    {
      base: { host: options.host, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // An error under `err` keeps its type, message and stack (redacted like everything else).
      serializers: { err: (error: unknown) => redactor.value(error) },
      formatters: {
        level: (label) => ({ level: label }),
        // Every field, however deep, through the redaction step.
        log: (object) => redactor.value(object) as Record<string, unknown>,
      },
      hooks: {
        // The message and any printf-style arguments.
        logMethod(args, method) {
          const clean = args.map((a: unknown) => (typeof a === 'string' ? redactor.text(a) : a));
          return method.apply(this, clean as Parameters<typeof method>);
        },
      },
    },
    stream,
  );
  const mirror = options.mirror;
  const at =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields?: LogFields): void => {
      if (fields) logger[level](fields, message);
      else logger[level](message);
      mirror?.(redactor.text(message));
    };
  const info = at('info');
  return {
    dir,
    file: join(dir, LOG_FILE),
    redactor,
    info,
    warn: at('warn'),
    error: at('error'),
    line: (text) => info(text.replace(/\n+$/, '')),
    written: async (ms = 1000) => {
      logger.flush();
      const until = Date.now() + ms;
      while (stream.writableLength > 0 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 5));
    },
    close: () =>
      new Promise<void>((done) => {
        logger.flush();
        stream.end(() => done());
      }),
  };
}
