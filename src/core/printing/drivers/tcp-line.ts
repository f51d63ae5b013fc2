import { connect, type Socket } from 'node:net';
import {
  parseHostQueryErrors,
  parseHostStatus,
  StatusParseError,
  toPrinterStatus,
} from '../zebra-status.js';
import type { PrinterStatus } from '../types.js';

export class LineError extends Error {
  constructor(
    readonly reason: 'refused' | 'timeout' | 'closed' | 'aborted' | 'garbled',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LineError';
  }
}

/**
 * Why no connection to a printer's address could be made, in site IT's terms (after "Printer
 * X at host:port"): a name that does not resolve is a typo in the address, not a printer
 * switched off; a refused connection names the port.
 */
export function whyNoLine(host: string, port: number, cause: unknown): string {
  let code: string | undefined;
  for (let e = cause as { code?: unknown; cause?: unknown } | undefined, n = 0; e && n < 4; n++) {
    if (typeof e.code === 'string') code = e.code;
    e = e.cause as typeof e;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return `cannot be found: no computer on the network is called ${host} (check the printer's address for a typo, or use its IP address)`;
  if (code === 'ECONNREFUSED')
    return `is not answering on port ${port} (connection refused: check that it is switched on; if it is, check the port, 9100 for Zebra and most label printers)`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `cannot be reached: the network has no way to ${host} (check the address and that this computer is on the printers' network)`;
  return 'is not answering (check that it is switched on and connected)';
}

/**
 * One raw TCP connection to a printer, with awaited writes and reads of the answer. A thin
 * layer over net.Socket so the network driver can ask for status on the same socket it sent
 * the label on.
 */
export class TcpLine {
  private received = '';
  private waiter: (() => void) | null = null;
  private failure: LineError | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
      this.waiter?.();
    });
    socket.on('error', (cause) => this.fail(new LineError('closed', cause.message, { cause })));
    socket.on('close', () =>
      this.fail(new LineError('closed', 'the printer closed the connection')),
    );
  }

  static open(
    host: string,
    port: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<TcpLine> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new LineError('aborted', 'cancelled'));
      const socket = connect({ host, port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new LineError('timeout', `no connection within ${timeoutMs} ms`));
      }, timeoutMs);
      const onAbort = () => {
        clearTimeout(timer);
        socket.destroy();
        reject(new LineError('aborted', 'cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('error', (cause) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(new LineError('refused', cause.message, { cause }));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.removeAllListeners('error');
        const line = new TcpLine(socket);
        if (signal) {
          const abort = () => line.fail(new LineError('aborted', 'cancelled'));
          signal.addEventListener('abort', abort, { once: true });
          socket.once('close', () => signal.removeEventListener('abort', abort));
        }
        resolve(line);
      });
    });
  }

  /** False once the connection failed, closed or was closed by the station. */
  get alive(): boolean {
    return this.failure === null && !this.socket.destroyed;
  }

  /**
   * Cancels what is waiting on this line when `signal` aborts (a line kept open between calls:
   * the latest caller's signal; one listener at a time, however often the line is reused).
   */
  watch(signal: AbortSignal | undefined): void {
    if (!signal || this.watched?.signal === signal) return;
    if (signal.aborted) return this.fail(new LineError('aborted', 'cancelled'));
    this.unwatch();
    const abort = () => this.fail(new LineError('aborted', 'cancelled'));
    signal.addEventListener('abort', abort, { once: true });
    if (!this.closeHooked) this.socket.once('close', () => this.unwatch());
    this.closeHooked = true;
    this.watched = { signal, abort };
  }

  private watched: { signal: AbortSignal; abort: () => void } | null = null;
  private closeHooked = false;

  private unwatch(): void {
    this.watched?.signal.removeEventListener('abort', this.watched.abort);
    this.watched = null;
  }

  private fail(error: LineError) {
    if (!this.failure) this.failure = error;
    this.socket.destroy();
    this.waiter?.();
  }

  /** Resolves once the bytes are handed to the OS (not a proof the printer read them). */
  write(data: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.socket.write(data, (error) => {
        if (error) reject(this.failure ?? new LineError('closed', error.message, { cause: error }));
        else resolve();
      });
    });
  }

  /**
   * Waits until `complete(text received so far)` returns the length of one whole answer.
   * `quiet`: when the printer has sent something and then nothing for `ms`, `verdict` may say
   * what was received cannot become the answer (its error rejects the read at once rather
   * than at the timeout).
   */
  read(
    complete: (text: string) => number | null,
    timeoutMs: number,
    quiet?: { ms: number; verdict: (text: string) => LineError | null },
  ): Promise<string> {
    return new Promise((resolve, reject) => {
      let hush: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        clearTimeout(hush);
        this.waiter = null;
      };
      const timer = setTimeout(() => {
        done();
        reject(new LineError('timeout', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        let length: number | null;
        try {
          length = complete(this.received);
        } catch (error) {
          // The answer can already be told wrong (not what was asked): said now, not at the timeout.
          done();
          reject(error);
          return;
        }
        if (length === null && quiet && this.received !== '' && !this.failure) {
          clearTimeout(hush);
          hush = setTimeout(() => {
            const wrong = quiet.verdict(this.received);
            if (!wrong) return;
            done();
            reject(wrong);
          }, quiet.ms);
        }
        if (length !== null) {
          done();
          const answer = this.received.slice(0, length);
          this.received = this.received.slice(length);
          resolve(answer);
        } else if (this.failure) {
          done();
          reject(this.failure);
        }
      };
      this.waiter = check;
      check();
    });
  }

  /**
   * `count` Zebra status frames (~HS). Text instead of a frame is refused at its line end, or
   * once it has stopped coming for GARBLED_QUIET_MS (a real answer comes in one piece), rather
   * than at the timeout: ten seconds in which a label would be said sent.
   */
  readStatus(count: number, timeoutMs: number): Promise<string> {
    return this.read((t) => statusFramesLength(t, count), timeoutMs, {
      ms: GARBLED_QUIET_MS,
      verdict: stalledStatus,
    });
  }

  /** Ends politely: everything written is flushed before the connection closes. */
  close(): void {
    if (!this.failure) this.failure = new LineError('closed', 'closed by the station');
    this.socket.end();
  }
}

/** How long a status answer that began with text may pause before it is judged (readStatus). */
const GARBLED_QUIET_MS = 250;

/**
 * As framesLength, for an answer that must be Zebra status frames (~HS): a line of text that
 * comes before any frame ("Odd HS", a printer of another language, a device that is not a
 * printer) is not one, and is refused at once (`garbled`) rather than waited on until the
 * timeout, ten seconds in which a label would be said sent.
 */
export function statusFramesLength(text: string, count: number): number | null {
  const stx = text.indexOf('\x02');
  const end = text.search(/[\r\n]/);
  if (end >= 0 && (stx < 0 || end < stx)) {
    const wrong = notStatus(text.slice(0, end));
    if (wrong) throw wrong;
  }
  return framesLength(text, count);
}

/**
 * For a status answer that has stopped coming (the read's quiet time) with no line end: text
 * before any frame ("Odd HS" with nothing after it) is not a Zebra status either, nor is a whole
 * first frame that is not ~HS's first line (twelve numbers: "030,0,0,1245,000,…"), which no
 * later frame can mend. A frame begun and not finished, or a right first frame whose others are
 * late, is left to the timeout: a slow printer may still finish them.
 */
export function stalledStatus(text: string): LineError | null {
  const stx = text.indexOf('\x02');
  const before = notStatus(stx < 0 ? text : text.slice(0, stx));
  if (before || stx < 0) return before;
  const etx = text.indexOf('\x03', stx + 1);
  if (etx < 0) return null;
  const fields = text.slice(stx + 1, etx).split(',');
  return fields.length >= 12 && fields.every((f) => /^\s*\d+\s*$/.test(f))
    ? null
    : notStatus(text.slice(stx + 1, etx) || '(an empty frame)');
}

function notStatus(before: string): LineError | null {
  const line = before.trim();
  if (line === '') return null;
  // eslint-disable-next-line no-control-regex -- shown to a person: no control characters
  const shown = line.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 40);
  return new LineError('garbled', `answered "${shown}", which is not a Zebra status`);
}

/**
 * The printer's status from its `~HS` (and `~HQES`) answers. Answers in Zebra's frames whose
 * contents are not a Zebra status (too few fields, a field that is not a number: a device that
 * only looks like one) are `garbled`, said as a line of text before any frame is ("answered
 * "xyz,,, ???", which is not a Zebra status"), never as the parser's words with the raw bytes.
 */
export function parsedStatus(hsText: string, hqesText: string): PrinterStatus {
  try {
    return toPrinterStatus(
      parseHostStatus(hsText),
      hqesText ? parseHostQueryErrors(hqesText) : null,
      hsText + hqesText,
    );
  } catch (cause) {
    if (!(cause instanceof StatusParseError)) throw cause;
    // eslint-disable-next-line no-control-regex -- shown to a person: no control characters
    const shown = (hsText + hqesText).replace(/[\x00-\x1f\x7f]+/g, ' ');
    throw new LineError(
      'garbled',
      `answered "${shown.trim().slice(0, 40)}", which is not a Zebra status`,
      { cause },
    );
  }
}

/** Length of the first `count` STX…ETX frames in `text` (plus their CR LF), or null. */
export function framesLength(text: string, count: number): number | null {
  let at = 0;
  for (let n = 0; n < count; n++) {
    const start = text.indexOf('\x02', at);
    if (start < 0) return null;
    const end = text.indexOf('\x03', start + 1);
    if (end < 0) return null;
    at = end + 1;
  }
  while (text[at] === '\r' || text[at] === '\n') at++;
  return at;
}

/** `work`, or as soon as `signal` aborts (the work goes on by itself). */
export function untilAborted(
  work: Promise<unknown>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  if (!signal) return work;
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    signal.addEventListener('abort', resolve, { once: true });
    void work.finally(() => {
      signal.removeEventListener('abort', resolve);
      resolve(undefined);
    });
  });
}

export const HS = Buffer.from('~HS', 'latin1');
export const HQES = Buffer.from('~HQES', 'latin1');
export const HS_HQES = Buffer.from('~HS~HQES', 'latin1');
export const XZ = Buffer.from('^XZ', 'latin1');
