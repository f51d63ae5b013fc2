import { EventEmitter } from 'node:events';
import type { HidDeviceInfo, HidDeviceLike, HidPort } from '../../../src/core/devices/hid.js';

let nextPath = 0;

/**
 * A HID scale shaped like node-hid's HIDAsync: `read(timeout)` resolves the oldest report in
 * hidapi's queue as a Buffer (report id first, as hidapi returns numbered reports); with an
 * empty queue, a read that may wait (timeout > 0) gets the next report the scale sends, and
 * otherwise undefined (hidapi's timeout). After an unplug `read` rejects as hidapi does.
 */
export class FakeHidScale extends EventEmitter implements HidDeviceLike {
  /** Reports the scale already sent, waiting in hidapi's queue. */
  reports: number[][] = [];
  /** Reports the scale sends later, one per read that waits for one. */
  upcoming: number[][] = [];
  readonly calls: string[] = [];
  plugged = true;
  closed = false;
  readonly info: HidDeviceInfo;

  constructor(vendorId: number, productId: number, product: string, usagePage = 0x8d) {
    super();
    this.info = {
      vendorId,
      productId,
      product,
      manufacturer: 'Fake',
      path: `/dev/hidraw${nextPath++}`,
      interface: 0,
      release: 0x0100,
      usagePage,
      usage: 0x20,
    };
  }

  async read(timeOutMs?: number): Promise<Buffer | undefined> {
    this.calls.push(`read(${timeOutMs})`);
    if (!this.plugged || this.closed) throw new Error('could not read from HID device');
    const next = this.reports.shift() ?? (timeOutMs ? this.upcoming.shift() : undefined);
    return next === undefined ? undefined : Buffer.from(next);
  }

  async close(): Promise<void> {
    this.calls.push('close');
    this.closed = true;
  }
}

/** node-hid's device list and HIDAsync.open over the fake devices plugged in. */
export class FakeHid implements HidPort {
  readonly devices: { info: HidDeviceInfo; open?: () => FakeHidScale }[] = [];

  plug(scale: FakeHidScale): void {
    scale.plugged = true;
    scale.closed = false;
    this.devices.push({ info: scale.info, open: () => scale });
  }

  /** Another HID device (a keyboard, a barcode scanner) that is not a scale. */
  plugOther(info: HidDeviceInfo): void {
    this.devices.push({ info });
  }

  unplug(scale: FakeHidScale): void {
    scale.plugged = false;
    const i = this.devices.findIndex((d) => d.info === scale.info);
    if (i >= 0) this.devices.splice(i, 1);
    scale.emit('error', new Error('could not read from HID device'));
  }

  async devicesAsync(): Promise<HidDeviceInfo[]> {
    return this.devices.map((d) => ({ ...d.info }));
  }

  async open(path: string): Promise<HidDeviceLike> {
    const d = this.devices.find((x) => x.info.path === path);
    if (!d?.open) throw new Error(`cannot open device with path ${path}`);
    const scale = d.open();
    scale.closed = false;
    scale.calls.push('open');
    return scale;
  }
}
