import { afterEach } from 'vitest';
import {
  startVirtualPrinter,
  type ReceivedLabel,
  type VirtualPrinter,
  type VirtualPrinterOptions,
} from '../../src/core/printing/virtual-printer/server.js';
import type { PrinterConfig } from '../../src/core/printing/types.js';

export type { VirtualPrinter, ReceivedLabel };

/** A virtual TCP printer on 127.0.0.1 and a free port, closed after the current test. */
export async function useVirtualPrinter(
  options: VirtualPrinterOptions = {},
): Promise<VirtualPrinter> {
  const printer = await startVirtualPrinter({ port: 0, ...options });
  afterEach(() => printer.close());
  return printer;
}

/** A network PrinterConfig that points at the virtual printer. */
export function virtualPrinterConfig(
  printer: VirtualPrinter,
  overrides: Partial<PrinterConfig> = {},
): PrinterConfig {
  return {
    id: 'virtual',
    name: 'Virtual ZD421',
    kind: 'network',
    host: '127.0.0.1',
    port: printer.port,
    dpi: 203,
    ...overrides,
  };
}

/** Resolves once the printer has printed at least `count` labels (no timing assumed). */
export function waitForLabels(printer: VirtualPrinter, count: number): Promise<ReceivedLabel[]> {
  return new Promise((resolve) => {
    const check = () => {
      if (printer.labels.length >= count) {
        printer.off('label', check);
        resolve([...printer.labels]);
      }
    };
    printer.on('label', check);
    check();
  });
}

/** Polls `condition` until it holds; the test's own timeout is the only limit. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, stepMs = 10) {
  while (!(await condition())) await new Promise((r) => setTimeout(r, stepMs));
}

/** A minimal 4x6 label at 203 dpi. */
export function sampleLabel(text: string, { pw = 812, ll = 1218 } = {}): string {
  return `^XA^PW${pw}^LL${ll}^FO50,50^A0N,40,40^FD${text}^FS^XZ`;
}
