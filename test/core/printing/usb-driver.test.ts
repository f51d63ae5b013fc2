import { describe, expect, it } from 'vitest';
import { UsbPrinter } from '../../../src/core/printing/drivers/usb.js';
import { PrinterError, type PrinterConfig } from '../../../src/core/printing/types.js';
import { describeStatus } from '../../../src/core/printing/zebra-status.js';
import { FakeUsbBus, FakeUsbDevice, FakeUsbPrinter, FakeZebra } from '../devices/fake-usb.js';
import { sampleLabel, waitUntil } from '../../support/virtual-printer.js';
import { openSpool, waitForState } from './spool-support.js';

const config: PrinterConfig = { id: 'u1', name: 'ZD421', kind: 'usb', vendorId: 0x0a5f, dpi: 203 };

async function caught(p: Promise<unknown>): Promise<PrinterError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(PrinterError);
    return e as PrinterError;
  }
  throw new Error('expected a PrinterError');
}

describe('USB printer', () => {
  it('opens, detaches the kernel driver, claims the printer interface and prints', async () => {
    const bus = new FakeUsbBus();
    const zebra = new FakeZebra();
    const device = new FakeUsbPrinter(zebra);
    bus.plug(new FakeUsbDevice(0x046d, 0xc52b, [])); // a mouse: not a printer
    bus.plug(device);
    const printer = new UsbPrinter(config, { bus });
    await printer.send(Buffer.from(sampleLabel('USB-1')));
    expect(zebra.printed).toEqual([sampleLabel('USB-1')]);
    expect(device.calls.slice(0, 4)).toEqual(
      process.platform === 'linux'
        ? ['open', 'selectConfiguration(1)', 'detachKernelDriver(0)', 'claimInterface(0)']
        : ['open', 'selectConfiguration(1)', 'claimInterface(0)', 'transferOut(1)'],
    );
    expect(await printer.status()).toMatchObject({ ready: true, faults: [] });
    await printer.close();
    expect(device.calls.slice(-2)).toEqual(['releaseInterface(0)', 'close']);
  });

  it('reads head open over bulk IN and says it in words', async () => {
    const bus = new FakeUsbBus();
    const zebra = new FakeZebra();
    bus.plug(new FakeUsbPrinter(zebra));
    zebra.fault = 'head-open';
    const status = (await new UsbPrinter(config, { bus }).status())!;
    expect(describeStatus(config, status)).toBe('Printer ZD421 (USB) has its lid open');
  });

  it('prints on a one-way printer and says it cannot report status', async () => {
    const bus = new FakeUsbBus();
    const zebra = new FakeZebra();
    bus.plug(new FakeUsbPrinter(zebra, { bidirectional: false }));
    const printer = new UsbPrinter(config, { bus });
    await printer.send(Buffer.from(sampleLabel('one-way')));
    expect(zebra.printed).toEqual([sampleLabel('one-way')]);
    expect(await printer.status()).toBeNull();
  });

  it('says the printer is not plugged in, and finds it once it is', async () => {
    const bus = new FakeUsbBus();
    const printer = new UsbPrinter(config, { bus });
    const error = await caught(printer.send(Buffer.from(sampleLabel('x'))));
    expect(error.code).toBe('printer-offline');
    expect(error.mayHavePrinted).toBe(false);
    expect(error.message).toBe('Printer ZD421 (USB) is not plugged in (or is switched off)');
    const zebra = new FakeZebra();
    bus.plug(new FakeUsbPrinter(zebra));
    await printer.send(Buffer.from(sampleLabel('now')));
    expect(zebra.printed).toEqual([sampleLabel('now')]);
  });

  it('unplugged mid-job: the label did not print; after replugging it prints once', async () => {
    const bus = new FakeUsbBus();
    const zebra = new FakeZebra();
    const first = new FakeUsbPrinter(zebra);
    bus.plug(first);
    const printer = new UsbPrinter(config, { bus });
    first.unplugDuringNextLabel = () => bus.unplug(first);
    const error = await caught(printer.send(Buffer.from(sampleLabel('cable'))));
    expect(error).toMatchObject({ code: 'printer-disconnected', mayHavePrinted: false });
    expect(error.message).toMatch(/was unplugged .* the label did not print/);
    expect(zebra.printed).toEqual([]);
    expect((await caught(printer.status())).code).toBe('printer-offline');

    const replugged = new FakeUsbPrinter(zebra);
    bus.plug(replugged);
    await printer.send(Buffer.from(sampleLabel('cable')));
    expect(zebra.printed).toEqual([sampleLabel('cable')]);
    expect(replugged.calls).toContain('claimInterface(0)');
  });

  it('picks the printer with the configured serial number among two', async () => {
    const bus = new FakeUsbBus();
    const a = new FakeZebra();
    const b = new FakeZebra();
    bus.plug(new FakeUsbPrinter(a, { serial: 'AAA' }));
    bus.plug(new FakeUsbPrinter(b, { serial: 'BBB' }));
    await new UsbPrinter({ ...config, serialNumber: 'BBB' }, { bus }).send(
      Buffer.from(sampleLabel('b')),
    );
    expect([a.printed, b.printed]).toEqual([[], [sampleLabel('b')]]);
  });
});

describe('USB printer behind the spool', () => {
  it('a cable pulled mid-job: the label waits, and prints once after replugging', async () => {
    const bus = new FakeUsbBus();
    const zebra = new FakeZebra();
    const first = new FakeUsbPrinter(zebra);
    bus.plug(first);
    first.unplugDuringNextLabel = () => bus.unplug(first);
    const { spool } = openSpool([config], { createDriver: (c) => new UsbPrinter(c, { bus }) });
    spool.start();
    const { job } = spool.enqueue({
      printerId: 'u1',
      kind: 'label',
      payload: sampleLabel('USB-9'),
    });
    await waitUntil(() => spool.get(job.id)!.lastErrorCode === 'printer-offline');
    expect(spool.get(job.id)).toMatchObject({ state: 'queued' });
    expect(spool.get(job.id)!.lastError).toBe(
      'Printer ZD421 (USB) is not plugged in (or is switched off)',
    );
    expect(zebra.printed).toEqual([]);
    bus.plug(new FakeUsbPrinter(zebra));
    await waitForState(spool, job.id, 'printed');
    expect(zebra.printed).toEqual([sampleLabel('USB-9')]);
  });
});
