import { EventEmitter } from 'node:events';
import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  hostQueryErrorsAnswer,
  hostStatusAnswer,
  type VirtualFault,
  type VirtualPrinterState,
} from './responses.js';

/**
 * A Zebra-like raw TCP printer for demos and tests. It keeps what a real one does where the
 * station depends on it: labels print only when their `^XZ` arrives, a format cut short by a
 * dropped connection is thrown away, `~` commands are answered at once (even mid-format), and
 * while it is out of paper / open / paused it keeps received labels in its buffer and prints
 * them when the fault is cleared.
 */

export interface VirtualPrinterOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** When set, each printed label is also written there as label-0001.zpl, label-0002.zpl… */
  outDir?: string;
  dpi?: number;
}

export interface ReceivedLabel {
  /** 1-based, in print order. */
  seq: number;
  /** From `^XA` to `^XZ` inclusive. */
  zpl: string;
  file?: string;
}

export interface VirtualPrinter {
  readonly port: number;
  readonly url: string;
  /** Labels printed so far, in order. */
  readonly labels: readonly ReceivedLabel[];
  /** Labels received whole but held in the buffer (a fault is set). */
  readonly heldLabels: number;
  readonly fault: VirtualFault | null;
  setFault(fault: VirtualFault | null): void;
  /**
   * A printer that peels labels: each label stays in its buffer, with no fault, until it is
   * taken (takeLabel). Turned off, the labels it holds come out.
   */
  setPeel(on: boolean): void;
  /** The label a peeling printer holds is taken: it counts as printed, the next comes out. */
  takeLabel(): void;
  /** Every answer and every label takes this long (0 = immediate). */
  setSlow(ms: number): void;
  /**
   * The next connection that sends label data (the next `jobs` of them) is dropped halfway
   * through that data: a printer that answers its status and drops each label as it comes in.
   */
  dropNextJobMidway(jobs?: number): void;
  /**
   * The next label received whole is printed, then the connection is dropped without answering
   * what followed it: the "did it print?" case.
   */
  dropAfterNextLabel(): void;
  /** Open client connections (tests wait for 0 before asserting nothing more arrives). */
  readonly connections: number;
  on(event: 'label', listener: (label: ReceivedLabel) => void): this;
  off(event: 'label', listener: (label: ReceivedLabel) => void): this;
  close(): Promise<void>;
}

class Printer extends EventEmitter implements VirtualPrinter {
  port = 0;
  labels: ReceivedLabel[] = [];
  fault: VirtualFault | null = null;
  private slowMs = 0;
  private dropMidway = 0;
  private dropAfterLabel = false;
  private peel = false;
  private held: string[] = [];
  private printing = Promise.resolve();
  private inFlight = 0;
  private sockets = new Set<Socket>();
  private server = createServer((socket) => this.accept(socket));

  /** Files already in outDir from an earlier run: numbering goes on after them, never over them. */
  private readonly filesBefore: number = 0;

  constructor(private readonly options: VirtualPrinterOptions) {
    super();
    if (options.outDir) {
      mkdirSync(options.outDir, { recursive: true, mode: 0o700 });
      for (const name of readdirSync(options.outDir)) {
        const m = /^label-(\d+)\.zpl$/.exec(name);
        if (m) this.filesBefore = Math.max(this.filesBefore, Number(m[1]));
      }
    }
  }

  get url() {
    return `tcp://${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }
  get heldLabels() {
    return this.held.length;
  }
  get connections() {
    return this.sockets.size;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => {
        const address = this.server.address();
        this.port = typeof address === 'object' && address ? address.port : 0;
        resolve();
      });
    });
  }

  setFault(fault: VirtualFault | null) {
    this.fault = fault;
    if (fault === null) {
      const held = this.held;
      this.held = [];
      for (const zpl of held) this.print(zpl);
    }
  }
  setPeel(on: boolean) {
    this.peel = on;
    if (!on) this.setFault(this.fault);
  }
  takeLabel() {
    const zpl = this.fault ? undefined : this.held.shift();
    if (zpl !== undefined) this.print(zpl, true);
  }
  setSlow(ms: number) {
    this.slowMs = Math.max(0, ms);
  }
  dropNextJobMidway(jobs = 1) {
    this.dropMidway = jobs;
  }
  dropAfterNextLabel() {
    this.dropAfterLabel = true;
  }

  private state(): VirtualPrinterState {
    return {
      fault: this.fault,
      formatsInBuffer: this.held.length + this.inFlight,
      dpi: this.options.dpi ?? 203,
    };
  }

  private delay(): Promise<void> {
    const ms = this.slowMs;
    return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
  }

  private print(zpl: string, taken = false) {
    if (this.fault || (this.peel && !taken)) {
      this.held.push(zpl);
      return;
    }
    this.inFlight += 1;
    this.printing = this.printing.then(async () => {
      await this.delay();
      this.inFlight -= 1;
      const label: ReceivedLabel = { seq: this.labels.length + 1, zpl };
      if (this.options.outDir) {
        const n = this.filesBefore + label.seq;
        label.file = join(this.options.outDir, `label-${String(n).padStart(4, '0')}.zpl`);
        // The bytes as they came (the text is read as latin1, one char a byte): a UTF-8 name
        // (^CI28) stays UTF-8 in the file, not encoded a second time.
        // Written whole under another name, then renamed: a reader of the folder (a test, a
        // tool watching it) never finds a label file empty or cut short.
        const part = `${label.file}.part`;
        writeFileSync(part, zpl, { encoding: 'latin1', mode: 0o600 });
        renameSync(part, label.file);
      }
      this.labels.push(label);
      this.emit('label', label);
    });
  }

  private accept(socket: Socket) {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = '';
    let format: string | null = null;
    let answers = Promise.resolve();
    let dropped = false;

    const answer = (text: () => string) => {
      answers = answers.then(async () => {
        await this.delay();
        if (!socket.destroyed) socket.write(text(), 'latin1');
      });
    };

    const parse = () => {
      let i = 0;
      while (i < pending.length && !dropped) {
        const rest = pending.length - i;
        const ch = pending[i];
        if (ch === '~') {
          if (rest < 3) break;
          const cmd = pending.slice(i + 1, i + 3).toUpperCase();
          if (cmd === 'HQ') {
            if (rest < 5) break;
            if (pending.slice(i + 3, i + 5).toUpperCase() === 'ES')
              answer(() => hostQueryErrorsAnswer(this.state()));
            i += 5;
          } else {
            if (cmd === 'HS') answer(() => hostStatusAnswer(this.state()));
            i += 3;
          }
          continue;
        }
        if (format === null) {
          if (ch === '!' && pending.startsWith('! U1 getvar', i)) {
            const end = pending.indexOf('\n', i);
            if (end < 0) break;
            const name = /"([^"]+)"/.exec(pending.slice(i, end))?.[1];
            const value = name === 'head.resolution.in_dpi' ? String(this.options.dpi ?? 203) : '?';
            answer(() => `"${value}"`);
            i = end + 1;
            continue;
          }
          if (ch === '^' && rest < 3) break;
          if (pending.startsWith('^XA', i)) {
            format = '';
            i += 3;
          } else i += 1;
          continue;
        }
        if (ch === '^' && rest < 3) break;
        if (pending.startsWith('^XZ', i)) {
          this.print(`^XA${format}^XZ`);
          format = null;
          i += 3;
          if (this.dropAfterLabel) {
            this.dropAfterLabel = false;
            dropped = true;
            socket.destroy();
          }
          continue;
        }
        format += ch;
        i += 1;
      }
      pending = pending.slice(i);
    };

    socket.on('data', (chunk: Buffer) => {
      if (dropped) return;
      let text = chunk.toString('latin1');
      const carriesLabel = format !== null || text.includes('^XA');
      if (this.dropMidway > 0 && carriesLabel) {
        this.dropMidway -= 1;
        text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
        pending += text;
        parse();
        dropped = true;
        socket.destroy();
        return;
      }
      pending += text;
      parse();
    });
  }

  async close() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await this.printing;
  }
}

export async function startVirtualPrinter(
  options: VirtualPrinterOptions = {},
): Promise<VirtualPrinter> {
  const printer = new Printer(options);
  await printer.listen();
  return printer;
}
