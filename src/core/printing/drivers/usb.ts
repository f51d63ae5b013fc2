import {
  openAndClaim,
  systemUsbBus,
  USB_CLASS_PRINTER,
  ZEBRA_VENDOR_ID,
  type UsbBus,
  type UsbDeviceLike,
  type UsbEndpointLike,
} from '../../devices/usb-bus.js';
import {
  describePrinter,
  PrinterError,
  type Printer,
  type PrinterConfig,
  type PrinterStatus,
  type SendOptions,
} from '../types.js';
import { parseHostStatus, toPrinterStatus } from '../zebra-status.js';
import { framesLength } from './tcp-line.js';

export interface UsbPrinterOptions {
  /** Defaults to the machine's bus (`usb` package). */
  bus?: UsbBus | (() => Promise<UsbBus>);
  /** Per bulk transfer. */
  transferTimeoutMs?: number;
  /** How long a bidirectional printer may take to answer ~HS. */
  answerTimeoutMs?: number;
}

interface Claimed {
  device: UsbDeviceLike;
  interfaceNumber: number;
  out: UsbEndpointLike;
  in: UsbEndpointLike | null;
}

const HS = Buffer.from('~HS', 'latin1');
const XZ = Buffer.from('^XZ', 'latin1');

/** Which interface of a device prints: class 7, or on Zebra any interface with a bulk OUT. */
export function printerInterface(device: UsbDeviceLike) {
  const interfaces =
    device.configuration?.interfaces ?? device.configurations?.[0]?.interfaces ?? [];
  const bulkOut = (i: (typeof interfaces)[number]) =>
    i.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
  return (
    interfaces.find((i) => i.alternate.interfaceClass === USB_CLASS_PRINTER && bulkOut(i)) ??
    (device.vendorId === ZEBRA_VENDOR_ID ? interfaces.find((i) => bulkOut(i)) : undefined)
  );
}

export function isUsbPrinter(device: UsbDeviceLike): boolean {
  return printerInterface(device) !== undefined;
}

/**
 * A USB printer through `usb`'s WebUSB API. Same exactly-once scheme as the network driver:
 * the label's final `^XZ` is held back until the printer has answered `~HS` on bulk IN (for a
 * one-way printer, until the first bulk OUT transfer completed whole). The device is looked up
 * again after an unplug, so a replugged printer is used without restarting the station.
 */
export class UsbPrinter implements Printer {
  private claimed: Claimed | null = null;
  private bus: UsbBus | null = null;
  private readonly transferTimeoutMs: number;
  private readonly answerTimeoutMs: number;
  private readonly onDisconnect = (event: { device: UsbDeviceLike }) => {
    if (this.claimed?.device === event.device) this.claimed = null;
  };

  constructor(
    readonly config: PrinterConfig,
    private readonly options: UsbPrinterOptions = {},
  ) {
    if (config.kind !== 'usb')
      throw new PrinterError(
        'printer-config-invalid',
        `Printer ${config.name} is not a USB printer`,
      );
    this.transferTimeoutMs = options.transferTimeoutMs ?? 30_000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 5000;
  }

  private get who() {
    return `Printer ${describePrinter(this.config)}`;
  }

  private async getBus(): Promise<UsbBus> {
    if (this.bus) return this.bus;
    const source = this.options.bus ?? systemUsbBus;
    this.bus = typeof source === 'function' ? await source() : source;
    this.bus.addEventListener('disconnect', this.onDisconnect);
    return this.bus;
  }

  private matches(device: UsbDeviceLike): boolean {
    const c = this.config;
    if (c.vendorId !== undefined && device.vendorId !== c.vendorId) return false;
    if (c.productId !== undefined && device.productId !== c.productId) return false;
    if (c.serialNumber && device.serialNumber !== c.serialNumber) return false;
    return isUsbPrinter(device);
  }

  private async claim(): Promise<Claimed> {
    if (this.claimed) return this.claimed;
    let devices: UsbDeviceLike[];
    try {
      devices = await (await this.getBus()).getDevices();
    } catch (cause) {
      throw new PrinterError(
        'printer-offline',
        `${this.who} cannot be reached: USB is not available on this computer`,
        { cause },
      );
    }
    const device = devices.find((d) => this.matches(d));
    if (!device)
      throw new PrinterError(
        'printer-offline',
        `${this.who} is not plugged in (or is switched off)`,
      );
    const iface = printerInterface(device)!;
    try {
      await openAndClaim(device, iface.interfaceNumber);
    } catch (cause) {
      throw new PrinterError(
        'printer-offline',
        `${this.who} is plugged in but this computer may not use it (on Linux, see the udev rule in docs/printing-and-devices.md)`,
        { cause },
      );
    }
    const endpoints = iface.alternate.endpoints;
    this.claimed = {
      device,
      interfaceNumber: iface.interfaceNumber,
      out: endpoints.find((e) => e.direction === 'out' && e.type === 'bulk')!,
      in: endpoints.find((e) => e.direction === 'in' && e.type === 'bulk') ?? null,
    };
    return this.claimed;
  }

  private async write(c: Claimed, data: Buffer) {
    const result = await c.device.transferOut(
      c.out.endpointNumber,
      new Uint8Array(data),
      this.transferTimeoutMs,
    );
    if (result.status !== 'ok' || result.bytesWritten !== data.length)
      throw new Error(`transfer ${result.status}, ${result.bytesWritten} of ${data.length} bytes`);
  }

  /** Reads bulk IN until a whole ~HS answer (three frames) has arrived. */
  private async readHostStatus(c: Claimed): Promise<string> {
    const inEp = c.in!;
    const deadline = Date.now() + this.answerTimeoutMs;
    let text = '';
    while (framesLength(text, 3) === null) {
      if (Date.now() > deadline) throw new Error('no status answer');
      const result = await c.device.transferIn(
        inEp.endpointNumber,
        Math.max(64, inEp.packetSize),
        this.answerTimeoutMs,
      );
      if (result.status !== 'ok') throw new Error(`status read ${result.status}`);
      if (result.data)
        text += Buffer.from(
          result.data.buffer,
          result.data.byteOffset,
          result.data.byteLength,
        ).toString('latin1');
    }
    return text;
  }

  private lost(cause: unknown, mayHavePrinted: boolean): PrinterError {
    this.claimed = null;
    const what = mayHavePrinted
      ? 'the label may or may not have printed'
      : 'the label did not print';
    return new PrinterError(
      'printer-disconnected',
      `${this.who} was unplugged or stopped responding while receiving a label; ${what}`,
      {
        cause,
        mayHavePrinted,
      },
    );
  }

  async send(data: Buffer, options: SendOptions = {}): Promise<void> {
    if (options.signal?.aborted) throw new PrinterError('aborted', 'Printing was cancelled');
    const c = await this.claim();
    const cut = this.config.role === 'receipt' ? -1 : data.lastIndexOf(XZ);
    const head = cut >= 0 ? data.subarray(0, cut) : data;
    const tail = cut >= 0 ? data.subarray(cut) : Buffer.alloc(0);
    const headMayPrint = cut < 0 || head.includes(XZ);
    const ack = c.in !== null && this.config.role !== 'receipt';
    try {
      await this.write(c, ack ? Buffer.concat([head, HS]) : head);
      if (ack) await this.readHostStatus(c);
    } catch (cause) {
      throw this.lost(cause, headMayPrint);
    }
    if (tail.length === 0) return;
    try {
      await this.write(c, ack ? Buffer.concat([tail, HS]) : tail);
      if (ack) await this.readHostStatus(c);
    } catch (cause) {
      throw this.lost(cause, true);
    }
  }

  async status(): Promise<PrinterStatus | null> {
    if (this.config.role === 'receipt') return null;
    const c = await this.claim();
    if (!c.in) return null; // one-way printer: it cannot say
    try {
      await this.write(c, HS);
      const text = await this.readHostStatus(c);
      return toPrinterStatus(parseHostStatus(text), null, text);
    } catch (cause) {
      this.claimed = null;
      throw new PrinterError('printer-offline', `${this.who} does not answer (was it unplugged?)`, {
        cause,
      });
    }
  }

  async close(): Promise<void> {
    this.bus?.removeEventListener('disconnect', this.onDisconnect);
    const c = this.claimed;
    this.claimed = null;
    if (!c) return;
    await c.device.releaseInterface(c.interfaceNumber).catch(() => undefined);
    await c.device.close().catch(() => undefined);
  }
}
