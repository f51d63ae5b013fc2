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

/** hidraw keeps 64 reports per reader; hidapi's own queue holds 30. */
const MAX_QUEUED_REPORTS = 64;

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

  /**
   * The next report within `timeoutMs` (undefined: none came), or the reading to give when the
   * scale went away while it was read (hidapi: "could not read from HID device").
   */
  private async next(
    o: { device: HidDeviceLike; path: string },
    timeoutMs: number,
  ): Promise<{ bytes: Uint8Array | undefined } | { gone: ScaleReading }> {
    try {
      const data = await o.device.read(timeoutMs);
      return { bytes: data === undefined ? undefined : bytesOf(data) };
    } catch {
      this.opened = null;
      await o.device.close().catch(() => undefined);
      const still = (await (await this.getPort()).devicesAsync()).some((d) => d.path === o.path);
      return { gone: still ? NO_READING : { ...NO_READING, message: UNPLUGGED } };
    }
  }

  /**
   * hidapi (and the kernel's hidraw) queue the reports a scale sends while nobody reads: the
   * newest one is the scale's state now. Empties the queue and returns that newest report.
   */
  private async newest(o: { device: HidDeviceLike; path: string }) {
    let newest: Uint8Array | undefined;
    for (let i = 0; i < MAX_QUEUED_REPORTS; i++) {
      const got = await this.next(o, 0);
      if ('gone' in got) return got;
      if (got.bytes === undefined) break;
      newest = got.bytes;
    }
    return { bytes: newest };
  }

  /**
   * The scale's reading now: the newest queued report, then reports as they come until the
   * scale settles (stable or zero) or gives a definite answer (negative, overload, fault…), at
   * most `maxReports` reports. A scale that sends nothing within the read timeout gives the last
   * reading it sent, or "no reading" — never 0 lb.
   */
  async read(): Promise<ScaleReading> {
    const o = await this.open();
    if (!o) return { ...NO_READING, message: UNPLUGGED };
    const max = this.options.maxReports ?? 25;
    const timeoutMs = this.options.readTimeoutMs ?? 1000;
    let last: ScaleReading | null = null;
    let got = await this.newest(o);
    for (let i = 0; i < max; i++) {
      if ('gone' in got) return got.gone;
      if (got.bytes === undefined) got = await this.next(o, timeoutMs);
      if ('gone' in got) return got.gone;
      if (got.bytes === undefined) return last ?? NO_READING; // silent within the timeout
      const reading = parseScaleReport(got.bytes);
      got = { bytes: undefined };
      if (reading === null) continue; // another report of the device
      last = reading;
      if (reading.state !== 'in-motion') return reading;
    }
    return last ?? NO_READING;
  }

  async close(): Promise<void> {
    const o = this.opened;
    this.opened = null;
    if (o) await o.device.close().catch(() => undefined);
  }
}
