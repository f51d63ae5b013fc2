import ThermalPrinterNetwork from 'node-thermal-printer/lib/interfaces/network.js';
import {
  describePrinter,
  PrinterError,
  type Printer,
  type PrinterConfig,
  type PrinterStatus,
  type SendOptions,
} from '../types.js';
import { parseHostQueryErrors, parseHostStatus, toPrinterStatus } from '../zebra-status.js';
import { framesLength, LineError, TcpLine } from './tcp-line.js';

export interface NetworkPrinterOptions {
  connectTimeoutMs?: number;
  /** How long the printer may take to answer ~HS (a slow printer still answers). */
  answerTimeoutMs?: number;
  /** ~HQES is newer firmware only: how long to wait before deciding this one does not answer it. */
  hqesTimeoutMs?: number;
  /** What printers have shown they answer; the station-wide one when omitted. */
  answers?: PrinterAnswers;
}

/**
 * What each network printer (by host:port) has shown it answers, shared by every driver that
 * talks to it: the spool's, the header's status probe, Settings. A printer that let `~HQES` go
 * unanswered once is not asked again (each ask costs the full wait), until its address changes
 * or the station restarts.
 */
export class PrinterAnswers {
  private readonly hqes = new Map<string, boolean>();
  answersHqes(address: string): boolean | undefined {
    return this.hqes.get(address);
  }
  learnedHqes(address: string, answers: boolean): void {
    this.hqes.set(address, answers);
  }
}
export const stationPrinterAnswers = new PrinterAnswers();

const HS = Buffer.from('~HS', 'latin1');
const XZ = Buffer.from('^XZ', 'latin1');

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
        `${this.who} is not answering (check that it is switched on and connected)`,
        { cause },
      );
    }
  }

  async send(data: Buffer, options: SendOptions = {}): Promise<void> {
    if (this.config.role === 'receipt') return this.sendEscPos(data);
    const line = await this.open(options.signal);
    const cut = data.lastIndexOf(XZ);
    const head = cut >= 0 ? data.subarray(0, cut) : data;
    const tail = cut >= 0 ? data.subarray(cut) : Buffer.alloc(0);
    // With more than one format in the job, earlier ones may print before the hold-back point.
    const headMayPrint = cut < 0 || head.includes(XZ);
    try {
      try {
        await line.write(Buffer.concat([head, HS]));
        await line.read((t) => framesLength(t, 3), this.answerTimeoutMs);
      } catch (cause) {
        throw this.lineError(cause, headMayPrint);
      }
      if (tail.length === 0) return;
      try {
        await line.write(Buffer.concat([tail, HS]));
        await line.read((t) => framesLength(t, 3), this.answerTimeoutMs);
      } catch (cause) {
        throw this.lineError(cause, true);
      }
    } finally {
      line.close();
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
        `${this.who} is not answering (check that it is switched on and connected)`,
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

  async status(options: SendOptions = {}): Promise<PrinterStatus | null> {
    if (this.config.role === 'receipt') return null;
    const line = await this.open(options.signal);
    try {
      let hsText: string;
      try {
        await line.write(HS);
        hsText = await line.read((t) => framesLength(t, 3), this.answerTimeoutMs);
      } catch (cause) {
        throw this.statusError(cause);
      }
      let hqesText = '';
      if (this.answers.answersHqes(this.address) !== false) {
        try {
          await line.write(Buffer.from('~HQES', 'latin1'));
          hqesText = await line.read(
            (t) => (t.includes('ERRORS') ? framesLength(t, 1) : null),
            this.hqesTimeoutMs,
          );
          this.answers.learnedHqes(this.address, true);
        } catch (cause) {
          if (cause instanceof LineError && cause.reason === 'timeout')
            this.answers.learnedHqes(this.address, false);
          else throw this.statusError(cause);
        }
      }
      return toPrinterStatus(
        parseHostStatus(hsText),
        hqesText ? parseHostQueryErrors(hqesText) : null,
        hsText + hqesText,
      );
    } finally {
      line.close();
    }
  }

  private statusError(cause: unknown): PrinterError {
    if (cause instanceof LineError && cause.reason === 'aborted')
      return new PrinterError('aborted', 'Cancelled', { cause });
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
    // Connections are per call; nothing stays open.
  }
}
