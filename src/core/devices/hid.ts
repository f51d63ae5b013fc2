/**
 * The part of `node-hid` (3.x, HIDAsync) that scales use, as structural types: node-hid's own
 * `devicesAsync()` entries and `HIDAsync` objects satisfy them, and tests pass device objects of
 * the same shape (CI machines have no scale).
 *
 * Scales are HID devices: on macOS and Windows the operating system's HID driver owns them, so
 * claiming them through libusb (`usb`) fails there; hidapi (under node-hid) reads them through
 * that driver (IOHIDManager, the Windows HID API, hidraw on Linux).
 */

/** One entry of node-hid's `devices()` / `devicesAsync()`. */
export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  /** What `HIDAsync.open(path)` takes (/dev/hidrawN, an IOService path, a \\?\HID# path). */
  path?: string | undefined;
  product?: string | undefined;
  manufacturer?: string | undefined;
  serialNumber?: string | undefined;
  interface: number;
  release: number;
  usagePage?: number | undefined;
  usage?: number | undefined;
}

/** node-hid's HIDAsync: `read(timeout)` resolves undefined when nothing came in time. */
export interface HidDeviceLike {
  read(timeOutMs?: number): Promise<Buffer | Uint8Array | number[] | undefined>;
  close(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** node-hid itself, reduced to listing and opening. */
export interface HidPort {
  devicesAsync(): Promise<HidDeviceInfo[]>;
  open(path: string): Promise<HidDeviceLike>;
}

/** HID usage page "Scale" (HID Usage Tables 1.x, chapter 17: Scales). */
export const HID_USAGE_PAGE_SCALE = 0x8d;

/**
 * The machine's HID devices through node-hid. Loaded on first use so that hosts which never
 * read a scale do not load the native addon.
 */
export async function systemHid(): Promise<HidPort> {
  const hid = await import('node-hid');
  return {
    devicesAsync: () => hid.devicesAsync(),
    open: (path) => hid.HIDAsync.open(path),
  };
}
