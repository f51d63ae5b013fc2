/**
 * The part of `usb`'s WebUSB API (usb 3.x: `import { usb } from 'usb'`) that printers and
 * scales use, as structural types: the real `UsbDevice` satisfies them, and tests pass device
 * objects of the same shape (there is no USB bus on CI machines).
 */

export interface UsbEndpointLike {
  endpointNumber: number;
  direction: 'in' | 'out';
  type: 'bulk' | 'interrupt' | 'isochronous';
  packetSize: number;
}

export interface UsbAlternateInterfaceLike {
  alternateSetting: number;
  interfaceClass: number;
  interfaceSubclass: number;
  interfaceProtocol: number;
  endpoints: UsbEndpointLike[];
}

export interface UsbInterfaceLike {
  interfaceNumber: number;
  alternate: UsbAlternateInterfaceLike;
  claimed?: boolean;
}

export interface UsbConfigurationLike {
  configurationValue: number;
  interfaces: UsbInterfaceLike[];
}

export interface UsbOutResult {
  bytesWritten: number;
  status: 'ok' | 'stall' | 'babble';
}

export interface UsbInResult {
  data?: DataView;
  status: 'ok' | 'stall' | 'babble';
}

export interface UsbDeviceLike {
  vendorId: number;
  productId: number;
  readonly serialNumber?: string | null;
  readonly productName?: string | null;
  readonly manufacturerName?: string | null;
  readonly opened: boolean;
  readonly configuration?: UsbConfigurationLike | null;
  readonly configurations?: UsbConfigurationLike[];
  open(): Promise<void>;
  close(): Promise<void>;
  selectConfiguration(configurationValue: number): Promise<void>;
  claimInterface(interfaceNumber: number): Promise<void>;
  releaseInterface(interfaceNumber: number): Promise<void>;
  transferOut(endpointNumber: number, data: Uint8Array, timeout?: number): Promise<UsbOutResult>;
  transferIn(endpointNumber: number, length: number, timeout?: number): Promise<UsbInResult>;
  /** Linux only (node-usb); absent elsewhere. */
  detachKernelDriver?(interfaceNumber: number): Promise<void>;
}

export interface UsbConnectionEventLike {
  device: UsbDeviceLike;
}

export interface UsbBus {
  getDevices(): Promise<UsbDeviceLike[]>;
  addEventListener(
    type: 'connect' | 'disconnect',
    listener: (event: UsbConnectionEventLike) => void,
  ): void;
  removeEventListener(
    type: 'connect' | 'disconnect',
    listener: (event: UsbConnectionEventLike) => void,
  ): void;
}

/**
 * The machine's USB bus. Loaded on first use so that importing printing code does not load the
 * native addon (hosts that never touch USB do not pay for it).
 */
export async function systemUsbBus(): Promise<UsbBus> {
  const { usb } = await import('usb');
  return usb as unknown as UsbBus;
}

export const USB_CLASS_PRINTER = 7;
export const USB_CLASS_HID = 3;
export const ZEBRA_VENDOR_ID = 0x0a5f;

export const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/** Claims an interface the way Linux needs it: the kernel's usblp/usbhid driver let go first. */
export async function openAndClaim(device: UsbDeviceLike, interfaceNumber: number): Promise<void> {
  if (!device.opened) await device.open();
  if (!device.configuration) await device.selectConfiguration(1);
  if (process.platform === 'linux' && device.detachKernelDriver) {
    // Fails when no kernel driver is attached (already detached, or none bound): fine.
    await device.detachKernelDriver(interfaceNumber).catch(() => undefined);
  }
  await device.claimInterface(interfaceNumber);
}
