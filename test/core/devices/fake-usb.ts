import type {
  UsbBus,
  UsbConfigurationLike,
  UsbConnectionEventLike,
  UsbDeviceLike,
  UsbInResult,
  UsbOutResult,
} from '../../../src/core/devices/usb-bus.js';
import {
  hostStatusAnswer,
  type VirtualFault,
} from '../../../src/core/printing/virtual-printer/responses.js';

/** A bus holding fake devices shaped like `usb`'s WebUSB API; plug/unplug fire its events. */
export class FakeUsbBus implements UsbBus {
  devices: UsbDeviceLike[] = [];
  private listeners = {
    connect: new Set<(e: UsbConnectionEventLike) => void>(),
    disconnect: new Set<(e: UsbConnectionEventLike) => void>(),
  };
  async getDevices() {
    return [...this.devices];
  }
  addEventListener(type: 'connect' | 'disconnect', l: (e: UsbConnectionEventLike) => void) {
    this.listeners[type].add(l);
  }
  removeEventListener(type: 'connect' | 'disconnect', l: (e: UsbConnectionEventLike) => void) {
    this.listeners[type].delete(l);
  }
  plug(device: UsbDeviceLike) {
    this.devices.push(device);
    for (const l of this.listeners.connect) l({ device });
  }
  unplug(device: UsbDeviceLike) {
    this.devices = this.devices.filter((d) => d !== device);
    if ('unplugged' in device) (device as FakeUsbDevice).unplugged = true;
    for (const l of this.listeners.disconnect) l({ device });
  }
}

const noDevice = () => Object.assign(new Error('LIBUSB_ERROR_NO_DEVICE'), { name: 'NetworkError' });

/** Common WebUSB device behaviour: open/claim bookkeeping and a call log. */
export class FakeUsbDevice implements UsbDeviceLike {
  opened = false;
  unplugged = false;
  configuration: UsbConfigurationLike | null = null;
  calls: string[] = [];
  constructor(
    public vendorId: number,
    public productId: number,
    readonly configurations: UsbConfigurationLike[],
    readonly serialNumber: string | null = null,
    readonly productName: string | null = null,
    readonly manufacturerName: string | null = null,
  ) {}
  protected check() {
    if (this.unplugged) throw noDevice();
  }
  async open() {
    this.check();
    this.calls.push('open');
    this.opened = true;
  }
  async close() {
    this.calls.push('close');
    this.opened = false;
  }
  async selectConfiguration(value: number) {
    this.check();
    this.calls.push(`selectConfiguration(${value})`);
    this.configuration = this.configurations.find((c) => c.configurationValue === value) ?? null;
  }
  async detachKernelDriver(n: number) {
    this.calls.push(`detachKernelDriver(${n})`);
  }
  async claimInterface(n: number) {
    this.check();
    if (!this.opened) throw new Error('InvalidStateError: device not open');
    this.calls.push(`claimInterface(${n})`);
  }
  async releaseInterface(n: number) {
    this.calls.push(`releaseInterface(${n})`);
  }
  async transferOut(_ep: number, _data: Uint8Array): Promise<UsbOutResult> {
    this.check();
    throw new Error('no OUT endpoint');
  }
  async transferIn(_ep: number, _length: number): Promise<UsbInResult> {
    this.check();
    throw new Error('LIBUSB_ERROR_TIMEOUT');
  }
}

/** The printer itself: survives its cable being unplugged; a partial label is lost with the cable. */
export class FakeZebra {
  printed: string[] = [];
  fault: VirtualFault | null = null;
}

export function printerConfiguration(bidirectional: boolean): UsbConfigurationLike[] {
  return [
    {
      configurationValue: 1,
      interfaces: [
        {
          interfaceNumber: 0,
          alternate: {
            alternateSetting: 0,
            interfaceClass: 7,
            interfaceSubclass: 1,
            interfaceProtocol: bidirectional ? 2 : 1,
            endpoints: [
              { endpointNumber: 1, direction: 'out', type: 'bulk', packetSize: 512 },
              ...(bidirectional
                ? [
                    {
                      endpointNumber: 2,
                      direction: 'in' as const,
                      type: 'bulk' as const,
                      packetSize: 512,
                    },
                  ]
                : []),
            ],
          },
        },
      ],
    },
  ];
}

export class FakeUsbPrinter extends FakeUsbDevice {
  private text = '';
  private answers: string[] = [];
  /** The next transfer that carries label data delivers half its bytes, then the cable is pulled. */
  unplugDuringNextLabel: (() => void) | null = null;
  constructor(
    readonly zebra: FakeZebra,
    options: {
      bidirectional?: boolean;
      vendorId?: number;
      productId?: number;
      serial?: string;
    } = {},
  ) {
    super(
      options.vendorId ?? 0x0a5f,
      options.productId ?? 0x0181,
      printerConfiguration(options.bidirectional ?? true),
      options.serial ?? 'D2J123456',
      'ZTC ZD421-203dpi ZPL',
      'Zebra Technologies',
    );
  }
  override async transferOut(ep: number, data: Uint8Array): Promise<UsbOutResult> {
    this.check();
    this.calls.push(`transferOut(${ep})`);
    const chunk = Buffer.from(data).toString('latin1');
    if (this.unplugDuringNextLabel && chunk.includes('^XA')) {
      const pull = this.unplugDuringNextLabel;
      this.unplugDuringNextLabel = null;
      this.receive(chunk.slice(0, chunk.length / 2));
      pull();
      throw noDevice();
    }
    this.receive(chunk);
    return { bytesWritten: data.length, status: 'ok' };
  }
  private receive(chunk: string) {
    this.text += chunk;
    for (;;) {
      const hs = this.text.indexOf('~HS');
      const start = this.text.indexOf('^XA');
      const end = this.text.indexOf('^XZ', start);
      if (hs >= 0 && (start < 0 || hs < start || end < 0 || hs < end)) {
        this.answers.push(
          hostStatusAnswer({ fault: this.zebra.fault, formatsInBuffer: 0, dpi: 203 }),
        );
        this.text = this.text.slice(0, hs) + this.text.slice(hs + 3);
        continue;
      }
      if (start >= 0 && end > start) {
        this.zebra.printed.push(this.text.slice(start, end + 3));
        this.text = this.text.slice(end + 3);
        continue;
      }
      return;
    }
  }
  override async transferIn(ep: number, length: number): Promise<UsbInResult> {
    this.check();
    this.calls.push(`transferIn(${ep})`);
    const answer = this.answers.shift();
    if (answer === undefined) throw new Error('LIBUSB_ERROR_TIMEOUT');
    const bytes = Buffer.from(answer.slice(0, length), 'latin1');
    if (answer.length > length) this.answers.unshift(answer.slice(length));
    return { data: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), status: 'ok' };
  }
}
