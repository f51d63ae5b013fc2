import { parseScaleReport, NO_READING, type ScaleReading } from './scale-report.js';
import {
  HID_USAGE_PAGE_SCALE,
  systemHid,
  type HidDeviceInfo,
  type HidDeviceLike,
  type HidPort,
} from './hid.js';

export const UNPLUGGED = 'No scale is plugged in; type the weight';

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

export const hex4 = (n: number) => n.toString(16).padStart(4, '0');

export function scaleModel(device: Pick<HidDeviceInfo, 'vendorId' | 'productId' | 'product'>) {
  const known = KNOWN_SCALES.find(
    (s) => s.vendorId === device.vendorId && s.productId === device.productId,
  );
  return (
    known?.model || device.product || `USB scale ${hex4(device.vendorId)}:${hex4(device.productId)}`
  );
}

/** A scale: its HID collection is on the Scale usage page, or it is a model we know. */
export function isScale(device: HidDeviceInfo): boolean {
  if (device.usagePage === HID_USAGE_PAGE_SCALE) return true;
  // hidapi's libusb backend (and some old hidraw kernels) report no usage page.
  return (
    device.usagePage === undefined &&
    KNOWN_SCALES.some((s) => s.vendorId === device.vendorId && s.productId === device.productId)
  );
}

export interface HidScaleOptions {
  hid?: HidPort | (() => Promise<HidPort>);
  /** A specific scale; otherwise the first scale found. */
  vendorId?: number;
  productId?: number;
  /** Per report read; the scale sends reports continuously while powered. */
  readTimeoutMs?: number;
  /** Reports to read while the scale settles before giving up with "hold still". */
  maxReports?: number;
}

const bytesOf = (data: Buffer | Uint8Array | number[]) =>
  data instanceof Uint8Array ? data : Uint8Array.from(data);

/**
 * A USB HID point-of-sale scale read through node-hid. `read()` returns a weight only once the
 * scale says it is stable; a read that times out, or a scale that is not there, is "no
 * reading", never 0 lb. After an unplug the scale is looked up again.
 */
export class HidScale {
  private opened: { device: HidDeviceLike; path: string } | null = null;
  private port: HidPort | null = null;

  constructor(private readonly options: HidScaleOptions = {}) {}

  private async getPort() {
    if (!this.port) {
      const source = this.options.hid ?? systemHid;
      this.port = typeof source === 'function' ? await source() : source;
    }
    return this.port;
  }

  private matches(device: HidDeviceInfo) {
    const { vendorId, productId } = this.options;
    if (vendorId !== undefined && device.vendorId !== vendorId) return false;
    if (productId !== undefined && device.productId !== productId) return false;
    return isScale(device);
  }

  /** Connected scales (for Settings), one entry per device even with several collections. */
  async list(): Promise<{ model: string; vendorId: number; productId: number }[]> {
    const seen = new Set<string>();
    const out: { model: string; vendorId: number; productId: number }[] = [];
    for (const d of await (await this.getPort()).devicesAsync()) {
      const key = `${d.vendorId}:${d.productId}:${d.serialNumber ?? d.path ?? ''}`;
      if (!this.matches(d) || seen.has(key)) continue;
      seen.add(key);
      out.push({ model: scaleModel(d), vendorId: d.vendorId, productId: d.productId });
    }
    return out;
  }

  private async open() {
    if (this.opened) return this.opened;
    const info = (await (await this.getPort()).devicesAsync()).find(
      (d) => this.matches(d) && d.path,
    );
    if (!info) return null;
    const device = await (await this.getPort()).open(info.path!);
    // An unplug while nobody reads is reported as an 'error' event; the next read finds out.
    device.on('error', () => undefined);
    this.opened = { device, path: info.path! };
    return this.opened;
  }

  /** One report, parsed; null when it was not a scale data report. */
  private async readOne(): Promise<ScaleReading | null> {
    const o = await this.open();
    if (!o) return { ...NO_READING, message: UNPLUGGED };
    let data: Buffer | Uint8Array | number[] | undefined;
    try {
      data = await o.device.read(this.options.readTimeoutMs ?? 1000);
    } catch {
      // Unplugged (hidapi: "could not read from HID device"): look it up again next time.
      this.opened = null;
      await o.device.close().catch(() => undefined);
      const still = (await (await this.getPort()).devicesAsync()).some((d) => d.path === o.path);
      return still ? NO_READING : { ...NO_READING, message: UNPLUGGED };
    }
    if (data === undefined) return NO_READING; // nothing within the timeout
    return parseScaleReport(bytesOf(data));
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
    const o = this.opened;
    this.opened = null;
    if (o) await o.device.close().catch(() => undefined);
  }
}
