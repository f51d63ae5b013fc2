import { parseScaleReport, NO_READING, type ScaleReading } from './scale-report.js';
import {
  hex4,
  openAndClaim,
  systemUsbBus,
  USB_CLASS_HID,
  type UsbBus,
  type UsbDeviceLike,
  type UsbEndpointLike,
} from './usb-bus.js';

const UNPLUGGED = 'No scale is plugged in; type the weight';

export interface KnownScale {
  vendorId: number;
  productId: number;
  model: string;
}

/** Scales we have report samples for; any HID scale sending the standard report also works. */
export const KNOWN_SCALES: readonly KnownScale[] = [
  { vendorId: 0x0922, productId: 0x8003, model: 'Dymo M10' },
  { vendorId: 0x0922, productId: 0x8004, model: 'Dymo M25' },
  { vendorId: 0x1446, productId: 0x6a73, model: 'Stamps.com Model 510' },
  { vendorId: 0x1446, productId: 0x6a72, model: 'Stamps.com Model 2500i' },
  { vendorId: 0x0eb8, productId: 0xf000, model: 'Mettler Toledo PS60' },
];

const SCALE_VENDORS = new Set(KNOWN_SCALES.map((s) => s.vendorId));

export function scaleModel(device: UsbDeviceLike): string {
  const known = KNOWN_SCALES.find(
    (s) => s.vendorId === device.vendorId && s.productId === device.productId,
  );
  return (
    known?.model ??
    device.productName ??
    `USB scale ${hex4(device.vendorId)}:${hex4(device.productId)}`
  );
}

function hidInterface(device: UsbDeviceLike) {
  const interfaces =
    device.configuration?.interfaces ?? device.configurations?.[0]?.interfaces ?? [];
  return interfaces.find(
    (i) =>
      i.alternate.interfaceClass === USB_CLASS_HID &&
      i.alternate.endpoints.some((e) => e.direction === 'in' && e.type === 'interrupt'),
  );
}

export interface UsbScaleOptions {
  bus?: UsbBus | (() => Promise<UsbBus>);
  /** A specific scale; otherwise the first known scale found. */
  vendorId?: number;
  productId?: number;
  /** Per report read; the scale sends reports continuously while powered. */
  readTimeoutMs?: number;
  /** Reports to read while the scale settles before giving up with "hold still". */
  maxReports?: number;
}

/**
 * A USB HID scale read through `usb`'s WebUSB API. `read()` returns a weight only once the
 * scale says it is stable; an empty read or a scale that is not there is "no reading", never
 * 0 lb. The device is looked up again after an unplug.
 */
export class UsbScale {
  private claimed: { device: UsbDeviceLike; interfaceNumber: number; in: UsbEndpointLike } | null =
    null;
  private bus: UsbBus | null = null;

  constructor(private readonly options: UsbScaleOptions = {}) {}

  private async getBus() {
    if (!this.bus) {
      const source = this.options.bus ?? systemUsbBus;
      this.bus = typeof source === 'function' ? await source() : source;
    }
    return this.bus;
  }

  private matches(device: UsbDeviceLike) {
    const { vendorId, productId } = this.options;
    if (vendorId !== undefined || productId !== undefined)
      return (
        (vendorId === undefined || device.vendorId === vendorId) &&
        (productId === undefined || device.productId === productId)
      );
    return SCALE_VENDORS.has(device.vendorId) && hidInterface(device) !== undefined;
  }

  /** Connected scales (for settings). */
  async list(): Promise<{ model: string; vendorId: number; productId: number }[]> {
    const devices = await (await this.getBus()).getDevices();
    return devices
      .filter((d) => this.matches(d))
      .map((d) => ({ model: scaleModel(d), vendorId: d.vendorId, productId: d.productId }));
  }

  private async claim() {
    if (this.claimed) return this.claimed;
    const device = (await (await this.getBus()).getDevices()).find((d) => this.matches(d));
    if (!device) return null;
    const iface = hidInterface(device);
    if (!iface) return null;
    await openAndClaim(device, iface.interfaceNumber);
    this.claimed = {
      device,
      interfaceNumber: iface.interfaceNumber,
      in: iface.alternate.endpoints.find((e) => e.direction === 'in' && e.type === 'interrupt')!,
    };
    return this.claimed;
  }

  /** One report off the wire, parsed; null when it was not a scale data report. */
  private async readOne(): Promise<ScaleReading | null> {
    const c = await this.claim();
    if (!c) return { ...NO_READING, message: UNPLUGGED };
    let bytes: Uint8Array;
    try {
      const result = await c.device.transferIn(
        c.in.endpointNumber,
        Math.max(6, c.in.packetSize),
        this.options.readTimeoutMs ?? 1000,
      );
      if (result.status !== 'ok' || !result.data) return NO_READING;
      bytes = new Uint8Array(result.data.buffer, result.data.byteOffset, result.data.byteLength);
    } catch {
      this.claimed = null; // unplugged or timed out: look it up again next time
      const still = (await (await this.getBus()).getDevices()).includes(c.device);
      return still ? NO_READING : { ...NO_READING, message: UNPLUGGED };
    }
    return parseScaleReport(bytes);
  }

  /**
   * Reads until the scale settles (stable or zero) or gives a definite answer (negative,
   * overload, fault…), at most `maxReports` reports.
   */
  async read(): Promise<ScaleReading> {
    const max = this.options.maxReports ?? 25;
    let last: ScaleReading = NO_READING;
    for (let i = 0; i < max; i++) {
      const reading = await this.readOne();
      if (reading === null) continue;
      last = reading;
      if (reading.state !== 'in-motion') return reading;
    }
    return last;
  }

  async close(): Promise<void> {
    const c = this.claimed;
    this.claimed = null;
    if (!c) return;
    await c.device.releaseInterface(c.interfaceNumber).catch(() => undefined);
    await c.device.close().catch(() => undefined);
  }
}
