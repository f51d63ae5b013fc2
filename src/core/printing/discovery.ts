import { hex4, systemUsbBus, type UsbBus } from '../devices/usb-bus.js';
import { NetworkPrinter } from './drivers/network.js';
import { STATUS_ANSWER_BOUND_MS } from './drivers/printer-answers.js';
import { listOsQueues } from './drivers/os-queue.js';
import { isUsbPrinter } from './drivers/usb.js';
import type { PrinterConfig, PrinterDpi, PrinterKind } from './types.js';

export interface DiscoveredPrinter {
  kind: PrinterKind;
  /** What to show: "ZTC ZD421-203dpi ZPL", "zebra_raw", "10.1.4.20:9100". */
  name: string;
  /** Ready to save in a profile once given an id (and perhaps a friendlier name). */
  config: Omit<PrinterConfig, 'id'>;
  /** How it was found, for the person setting it up. */
  detail: string;
}

export interface DiscoveryResult {
  printers: DiscoveredPrinter[];
  /** Why a place could not be searched ("USB is not available on this computer"). */
  notes: string[];
}

export interface DiscoveryOptions {
  usbBus?: UsbBus | (() => Promise<UsbBus>);
  lpstatCommand?: string;
  /**
   * Network printers are not scanned for (probing a warehouse subnet is not ours to do); the
   * addresses given here (typed by site IT, or the virtual printer) are asked for Zebra status.
   */
  networkCandidates?: { host: string; port?: number }[];
}

const dpiFromName = (name: string | null | undefined): PrinterDpi | undefined => {
  const dpi = Number(/(203|300|600)\s*dpi/i.exec(name ?? '')?.[1]);
  return dpi === 203 || dpi === 300 || dpi === 600 ? dpi : undefined;
};

/** Lists the printers this computer can see: USB printers, CUPS queues, and given addresses. */
export async function discoverPrinters(options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const printers: DiscoveredPrinter[] = [];
  const notes: string[] = [];

  try {
    const source = options.usbBus ?? systemUsbBus;
    const bus = typeof source === 'function' ? await source() : source;
    for (const device of await bus.getDevices()) {
      if (!isUsbPrinter(device)) continue;
      const name =
        device.productName || `USB printer ${hex4(device.vendorId)}:${hex4(device.productId)}`;
      const dpi = dpiFromName(device.productName);
      printers.push({
        kind: 'usb',
        name,
        config: {
          name,
          kind: 'usb',
          vendorId: device.vendorId,
          productId: device.productId,
          ...(device.serialNumber ? { serialNumber: device.serialNumber } : {}),
          ...(dpi ? { dpi } : {}),
        },
        detail: `USB ${hex4(device.vendorId)}:${hex4(device.productId)}${device.serialNumber ? `, serial ${device.serialNumber}` : ''}`,
      });
    }
  } catch (error) {
    notes.push(
      `USB printers could not be looked for on this computer (${(error as Error).message}): add a USB printer once the station can see the USB bus, or use its network address.`,
    );
  }

  const queues = await listOsQueues(options.lpstatCommand);
  for (const queue of queues)
    printers.push({
      kind: 'os',
      name: queue,
      config: { name: queue, kind: 'os', queue },
      detail: `print queue ${queue}`,
    });
  if (queues.length === 0 && process.platform !== 'win32')
    notes.push(
      'No print queues of the operating system found (CUPS not installed, or none set up).',
    );

  for (const { host, port = 9100 } of options.networkCandidates ?? []) {
    const probe = new NetworkPrinter(
      { id: 'probe', name: host, kind: 'network', host, port },
      { connectTimeoutMs: 1500, answerTimeoutMs: STATUS_ANSWER_BOUND_MS, hqesTimeoutMs: 500 },
    );
    try {
      const status = await probe.status();
      const dpi = await probe.readDpi();
      const name = `${host}:${port}`;
      printers.push({
        kind: 'network',
        name,
        config: { name, kind: 'network', host, port, ...(dpi ? { dpi: dpi as PrinterDpi } : {}) },
        detail: `answers Zebra status${status?.ready ? ', ready' : ''}${dpi ? `, ${dpi} dpi` : ''}`,
      });
    } catch (error) {
      notes.push(
        `${host}:${port}, set up in this profile, did not answer: ${(error as Error).message}`,
      );
    }
  }
  return { printers, notes };
}
