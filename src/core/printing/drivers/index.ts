import type { UsbBus } from '../../devices/usb-bus.js';
import type { Printer, PrinterConfig } from '../types.js';
import { NetworkPrinter, type NetworkPrinterOptions } from './network.js';
import { OsQueuePrinter, type OsQueuePrinterOptions } from './os-queue.js';
import { UsbPrinter, type UsbPrinterOptions } from './usb.js';

export interface DriverOptions {
  network?: NetworkPrinterOptions;
  usb?: UsbPrinterOptions & { bus?: UsbBus | (() => Promise<UsbBus>) };
  os?: OsQueuePrinterOptions;
}

/** The driver for a configured printer: what PrintSpool's `createDriver` wants. */
export function createPrinterDriver(config: PrinterConfig, options: DriverOptions = {}): Printer {
  switch (config.kind) {
    case 'network':
      return new NetworkPrinter(config, options.network);
    case 'usb':
      return new UsbPrinter(config, options.usb);
    case 'os':
      return new OsQueuePrinter(config, options.os);
    default: {
      const never: never = config.kind;
      throw new Error(`unknown printer kind ${String(never)}`);
    }
  }
}

export { NetworkPrinter, OsQueuePrinter, UsbPrinter };
