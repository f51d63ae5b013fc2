import ThermalPrinterNetwork from 'node-thermal-printer/lib/interfaces/network.js';
import {
  describePrinter,
  PrinterError,
  type Printer,
  type PrinterConfig,
  type PrinterStatus,
  type SendOptions,
} from '../types.js';
import {
  framesLength,
  HQES,
  HS,
  HS_HQES,
  LineError,
  parsedStatus,
  TcpLine,
  untilAborted,
  whyNoLine,
  XZ,
} from './tcp-line.js';
import { stationPrinterAnswers, type PrinterAnswers } from './printer-answers.js';
import type { NetworkPrinterOptions } from './network-options.js';

export type { NetworkPrinterOptions } from './network-options.js';

/** A connection opened ahead of a job, with what the printer said on it. */
interface PreparedLine {
  line: TcpLine;
  status: PrinterStatus | null;
  at: number;
  timer: NodeJS.Timeout;
  /** Read by prepare(), ahead of a job on its way (not left by the last job's check). */
  ahead?: boolean;
}

/**
 * Raw TCP (port 9100) printer.
 *
 * Labels (role 'label') go over our own net.Socket, not node-thermal-printer's network
 * interface: that one opens a socket, writes and destroys it (or resolves on the first data
 * chunk), so it cannot do what makes the spool exactly-once. We send the label minus its final
 * `^XZ` followed by `~HS`, wait for the answer, then send `^XZ~HS` and wait again. A printer
 * prints a format only when its `^XZ` arrives, and answers `~` commands in the order received,
 * so:
 *   - no first answer (refused, dropped, timed out): the `^XZ` never left, the label did not
 *     print, sending it again is safe;
 *   - first answer but no second: the label may have printed; a person must decide
 *     (`PrinterError.mayHavePrinted`).
 * Receipt printers (role 'receipt') speak ESC/POS and answer no Zebra status: for those
 * node-thermal-printer's network interface fits and is used as is.
 */
export class NetworkPrinter implements Printer {
  private readonly answers: PrinterAnswers;
  private readonly connectTimeoutMs: number;
  private readonly answerTimeoutMs: number;
  private readonly hqesTimeoutMs: number;
  private readonly preparedFreshMs: number;
  private readonly preparedHoldMs: number;
  private readonly idleHoldMs: number;
  private prepared: PreparedLine | null = null;
  private preparing: Promise<unknown> | null = null;

  constructor(
    readonly config: PrinterConfig,
    options: NetworkPrinterOptions = {},
  ) {
    if (config.kind !== 'network' || !config.host)
      throw new PrinterError(
        'printer-config-invalid',
        `Printer ${config.name} needs a network address (host) to print over the network`,
      );
    this.connectTimeoutMs = options.connectTimeoutMs ?? 3000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 10_000;
    this.hqesTimeoutMs = options.hqesTimeoutMs ?? 1500;
    this.answers = options.answers ?? stationPrinterAnswers;
    this.preparedFreshMs = options.preparedFreshMs ?? 2000;
    this.preparedHoldMs = options.preparedHoldMs ?? 5000;
    this.idleHoldMs = options.idleHoldMs ?? 1000;
  }

  private get address() {
    return `${this.config.host!}:${this.port}`;
  }

  private get who() {
    return `Printer ${describePrinter(this.config)}`;
  }
  private get port() {
    return this.config.port ?? 9100;
  }

  private async open(signal?: AbortSignal): Promise<TcpLine> {
    try {
      return await TcpLine.open(this.config.host!, this.port, this.connectTimeoutMs, signal);
    } catch (cause) {
      if (cause instanceof LineError && cause.reason === 'aborted')
        throw new PrinterError('aborted', 'Printing was cancelled', { cause });
      throw new PrinterError(
        'printer-offline',
        `${this.who} ${whyNoLine(this.config.host!, this.port, cause)}`,
        {
          cause,
        },
      );
    }
  }

  async send(data: Buffer, options: SendOptions = {}): Promise<void> {
    if (this.config.role === 'receipt') return this.sendEscPos(data);
    // A line kept open (prepare, the check before this job) is used as it is; one the printer
    // has closed is not alive and a new one is opened. A drop while sending is the spool's to
    // handle, as on a new line.
    const kept = this.takePrepared();
    if (kept) {
      kept.watch(options.signal);
      return this.sendOn(kept, data);
    }
    return this.sendOn(await this.open(options.signal), data);
  }

  private async sendOn(line: TcpLine, data: Buffer): Promise<void> {
    const cut = data.lastIndexOf(XZ);
    const head = cut >= 0 ? data.subarray(0, cut) : data;
    const tail = cut >= 0 ? data.subarray(cut) : Buffer.alloc(0);
    // With more than one format in the job, earlier ones may print before the hold-back point.
    const headMayPrint = cut < 0 || head.includes(XZ);
    let sent = false;
    try {
      try {
        await line.write(Buffer.concat([head, HS]));
        await line.read((t) => framesLength(t, 3), this.answerTimeoutMs);
      } catch (cause) {
        throw this.lineError(cause, headMayPrint);
      }
      if (tail.length > 0) {
        try {
          await line.write(Buffer.concat([tail, HS]));
          await line.read((t) => framesLength(t, 3), this.answerTimeoutMs);
        } catch (cause) {
          throw this.lineError(cause, true);
        }
      }
      // The spool asks for status next (is it printed?): on this line, without a new connection.
      this.keepLine(line, this.idleHoldMs);
      sent = true;
    } finally {
      if (!sent) line.close();
    }
  }

  private lineError(cause: unknown, mayHavePrinted: boolean): PrinterError {
    if (cause instanceof LineError && cause.reason === 'aborted')
      return new PrinterError('aborted', 'Printing was cancelled', { cause, mayHavePrinted });
    const what = mayHavePrinted
      ? 'the label may or may not have printed'
      : 'the label did not print';
    const code =
      cause instanceof LineError && cause.reason === 'timeout'
        ? 'printer-timeout'
        : 'printer-disconnected';
    const how = code === 'printer-timeout' ? 'stopped answering' : 'dropped the connection';
    return new PrinterError(code, `${this.who} ${how} while receiving a label; ${what}`, {
      cause,
      mayHavePrinted,
    });
  }

  private async sendEscPos(data: Buffer): Promise<void> {
    const iface = new ThermalPrinterNetwork(this.config.host!, this.port, {
      timeout: this.connectTimeoutMs,
    });
    try {
      await iface.execute(data);
    } catch (cause) {
      throw new PrinterError(
        'printer-offline',
        `${this.who} ${whyNoLine(this.config.host!, this.port, cause)}`,
        {
          cause,
          // the interface cannot tell a refused connection from a write cut short
          mayHavePrinted: !/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|timeout/i.test(
            String((cause as Error).message),
          ),
        },
      );
    }
  }

  /**
   * Opens the connection ahead of a job (while its label is being bought) and asks the
   * printer's status on it; the job's check and send then cost no connection set-up and, while
   * that status is fresh (preparedFreshMs), no round trip (the spool may then store the job as
   * being sent and send it at once: statusAtHand). The connection is closed unused after
   * preparedHoldMs. Errors are left for the job's own check to find.
   */
  prepare(): Promise<void> {
    // A slow printer's recent ready answer stands for the job's check: nothing to ask ahead.
    if (this.config.role === 'receipt' || this.answers.recentlyReady(this.address))
      return Promise.resolve();
    if (this.preparing) return this.preparing.then(() => undefined);
    const ready = this.prepared;
    if (ready?.line.alive && Date.now() - ready.at <= this.preparedFreshMs) {
      // The last job's check answered moments ago (preparedFreshMs): that answer stands for
      // this job, as it would for its check before sending. Asking again on a line the printer
      // answers in two writes can cost a delayed ACK (40 ms) for nothing.
      ready.ahead = true;
      return Promise.resolve();
    }
    const preparing = this.probe(undefined, this.preparedHoldMs)
      .then(() => {
        if (this.prepared) this.prepared.ahead = true;
      })
      .catch(() => undefined)
      .finally(() => (this.preparing = null));
    this.preparing = preparing;
    return preparing;
  }

  statusAtHand(): PrinterStatus | null | undefined {
    if (this.config.role === 'receipt' || this.preparing) return undefined;
    const ready = this.prepared;
    // Only a status read ahead of this job (prepare); what the last job's check left is asked again.
    if (!ready?.ahead || !ready.line.alive || Date.now() - ready.at > this.preparedFreshMs)
      return undefined;
    // As in status({ beforeSend }): it answers one check.
    ready.at = Number.NEGATIVE_INFINITY;
    return ready.status;
  }

  async status(options: SendOptions = {}): Promise<PrinterStatus | null> {
    if (this.config.role === 'receipt') return null;
    if (!options.beforeSend)
      return this.probe(options.signal, options.keepOpen ? this.idleHoldMs : 0);
    // A slow printer (a weak Wi-Fi bridge): its recent ready answer, not seconds more per label.
    const recent = this.answers.recentlyReady(this.address);
    if (recent) return recent;
    if (this.preparing) await untilAborted(this.preparing, options.signal);
    const ready = this.prepared;
    if (ready?.line.alive && Date.now() - ready.at <= this.preparedFreshMs) {
      // It answers one check: a job held back by a fault asks the printer again next time.
      ready.at = Number.NEGATIVE_INFINITY;
      return ready.status;
    }
    // An open line whose status is too old is asked again; no line: a new one, kept for send().
    return this.probe(options.signal, this.preparedHoldMs);
  }

  /**
   * ~HS (and ~HQES where the printer answers it) on the line kept open, if any, or a new one.
   * `holdMs` > 0 keeps the line open that long for what follows (0: closed at once). A kept line
   * the printer closed meanwhile is replaced by a new one, once.
   */
  private async probe(
    signal: AbortSignal | undefined,
    holdMs: number,
  ): Promise<PrinterStatus | null> {
    const reuse = this.takePrepared();
    if (reuse) {
      reuse.watch(signal);
      try {
        return await this.probeOn(reuse, holdMs);
      } catch (error) {
        const lost = error instanceof PrinterError && error.cause instanceof LineError;
        if (!lost || (error.cause as LineError).reason !== 'closed' || signal?.aborted) throw error;
      }
    }
    return this.probeOn(await this.open(signal), holdMs);
  }

  private async probeOn(line: TcpLine, holdMs: number): Promise<PrinterStatus | null> {
    let kept = false;
    try {
      const askHqes = this.answers.answersHqes(this.address);
      let hsText: string;
      const asked = Date.now();
      try {
        // A printer known to answer ~HQES gets both questions in one write: one round trip.
        await line.write(askHqes === true ? HS_HQES : HS);
        hsText = await line.readStatus(3, this.answerTimeoutMs);
      } catch (cause) {
        throw this.statusError(cause);
      }
      // A slow printer is as slow to answer ~HQES: it is given that much longer.
      const tookMs = Date.now() - asked;
      let hqesText = '';
      let keep = holdMs > 0;
      if (askHqes !== false) {
        try {
          if (askHqes !== true) await line.write(HQES);
          hqesText = await line.read(
            (t) => (t.includes('ERRORS') ? framesLength(t, 1) : null),
            this.hqesTimeoutMs + tookMs,
          );
          this.answers.learnedHqes(this.address, true);
        } catch (cause) {
          if (cause instanceof LineError && cause.reason === 'timeout') {
            this.answers.learnedHqes(this.address, false);
            // An answer that comes after all would be read as the next question's: not this line.
            keep = false;
          } else throw this.statusError(cause);
        }
      }
      let status: PrinterStatus;
      try {
        status = parsedStatus(hsText, hqesText);
      } catch (cause) {
        throw this.statusError(cause);
      }
      this.answers.heard(this.address, status, tookMs);
      if (keep) {
        this.keepLine(line, holdMs, status);
        kept = true;
      }
      return status;
    } finally {
      if (!kept) line.close();
    }
  }

  /** Keeps `line` open for `holdMs`; `status` (read on it just now) may answer the next check. */
  private keepLine(line: TcpLine, holdMs: number, status?: PrinterStatus | null): void {
    this.dropPrepared();
    const timer = setTimeout(() => this.dropPrepared(), holdMs);
    timer.unref();
    this.prepared = {
      line,
      status: status ?? null,
      at: status === undefined ? Number.NEGATIVE_INFINITY : Date.now(),
      timer,
    };
  }

  /** The open kept line, now the caller's (null when there is none or it broke). */
  private takePrepared(): TcpLine | null {
    const ready = this.prepared;
    if (!ready) return null;
    clearTimeout(ready.timer);
    this.prepared = null;
    if (ready.line.alive) return ready.line;
    ready.line.close();
    return null;
  }

  private dropPrepared(): void {
    this.takePrepared()?.close();
  }

  private statusError(cause: unknown): PrinterError {
    if (cause instanceof LineError && cause.reason === 'aborted')
      return new PrinterError('aborted', 'Cancelled', { cause });
    if (cause instanceof LineError && cause.reason === 'garbled')
      return new PrinterError(
        'printer-offline',
        `${this.who} ${cause.message}: check that it is a ZPL label printer and that the port is its raw printing port (9100 on a Zebra)`,
        { cause },
      );
    return new PrinterError('printer-offline', `${this.who} does not answer status requests`, {
      cause,
    });
  }

  /** Print head resolution as the printer reports it (SGD), or null when it does not say. */
  async readDpi(options: SendOptions = {}): Promise<number | null> {
    if (this.config.role === 'receipt') return null;
    const line = await this.open(options.signal);
    try {
      await line.write(Buffer.from('! U1 getvar "head.resolution.in_dpi"\r\n', 'latin1'));
      const text = await line.read(
        (t) => (/"[^"]*"/.exec(t) ? t.length : null),
        this.hqesTimeoutMs,
      );
      const dpi = Number(/"(\d+)"/.exec(text)?.[1]);
      return dpi === 203 || dpi === 300 || dpi === 600 ? dpi : null;
    } catch {
      return null;
    } finally {
      line.close();
    }
  }

  async close(): Promise<void> {
    // Connections are per job; only one opened ahead of a job may still be open.
    this.dropPrepared();
  }
}
