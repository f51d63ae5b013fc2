import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OsQueuePrinter } from '../../../src/core/printing/drivers/os-queue.js';
import {
  createPrinterDriver,
  NetworkPrinter,
  UsbPrinter,
} from '../../../src/core/printing/drivers/index.js';
import { discoverPrinters } from '../../../src/core/printing/discovery.js';
import { PrinterError, type PrinterConfig } from '../../../src/core/printing/types.js';
import { tempDir } from '../../support/tmp.js';
import { sampleLabel, useVirtualPrinter } from '../../support/virtual-printer.js';
import { FakeUsbBus, FakeUsbDevice, FakeUsbPrinter, FakeZebra } from '../devices/fake-usb.js';

/** A stand-in for CUPS' lp: records its arguments and stdin; queue "gone" does not exist. */
function fakeLp(dir: string) {
  const lp = join(dir, 'lp');
  writeFileSync(
    lp,
    `#!/bin/sh
printf '%s\\n' "$@" > "${dir}/args"
cat > "${dir}/data"
if [ "$2" = "gone" ]; then echo "lp: The printer or class does not exist." >&2; exit 1; fi
echo "request id is $2-7 (0 file(s))"
`,
  );
  chmodSync(lp, 0o755);
  return lp;
}

const queue = (q: string): PrinterConfig => ({ id: 'q', name: 'ZD421', kind: 'os', queue: q });

describe('OS queue printer (CUPS lp -o raw)', () => {
  it('hands the ZPL untouched to lp as a raw job, arguments as an array', async () => {
    const dir = tempDir();
    const printer = new OsQueuePrinter(queue('zebra_raw'), {
      lpCommand: fakeLp(dir),
      platform: 'linux',
    });
    const zpl = sampleLabel('CUPS; rm -rf / "quoted"');
    await printer.send(Buffer.from(zpl));
    expect(readFileSync(join(dir, 'data'), 'utf8')).toBe(zpl);
    expect(readFileSync(join(dir, 'args'), 'utf8').trim().split('\n')).toEqual([
      '-d',
      'zebra_raw',
      '-o',
      'raw',
      '-t',
      'Shipping Station q',
    ]);
    expect(await printer.status()).toBeNull();
  });

  it('says the queue refused the label, and that nothing printed', async () => {
    const dir = tempDir();
    const printer = new OsQueuePrinter(queue('gone'), {
      lpCommand: fakeLp(dir),
      platform: 'linux',
    });
    const error = await printer.send(Buffer.from('^XA^XZ')).catch((e: PrinterError) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect((error as PrinterError).mayHavePrinted).toBe(false);
    expect((error as PrinterError).message).toBe(
      'Printer ZD421 (queue gone): the print system refused the label (The printer or class does not exist.)',
    );
  });

  it('says CUPS is missing when there is no lp', async () => {
    const printer = new OsQueuePrinter(queue('zebra'), {
      lpCommand: join(tempDir(), 'no-lp'),
      platform: 'linux',
    });
    await expect(printer.send(Buffer.from('^XA^XZ'))).rejects.toThrow(
      /CUPS "lp"\) is not installed/,
    );
  });

  it('refuses Windows queues with a pointer to what works there', async () => {
    const printer = new OsQueuePrinter(queue('ZDesigner'), { platform: 'win32' });
    await expect(printer.send(Buffer.from('^XA^XZ'))).rejects.toThrow(
      /set the printer up as a network or USB printer/,
    );
  });

  it('rejects a queue name that is not one', () => {
    expect(() => new OsQueuePrinter(queue('zebra --option x'))).toThrow(
      /is not a print queue name/,
    );
  });
});

describe('driver factory and discovery', () => {
  it('makes the driver for each kind', () => {
    expect(createPrinterDriver({ id: 'n', name: 'N', kind: 'network', host: 'h' })).toBeInstanceOf(
      NetworkPrinter,
    );
    expect(createPrinterDriver({ id: 'u', name: 'U', kind: 'usb' })).toBeInstanceOf(UsbPrinter);
    expect(createPrinterDriver(queue('z'))).toBeInstanceOf(OsQueuePrinter);
  });

  it('lists USB printers, CUPS queues and network printers that answer', async () => {
    const dir = tempDir();
    const lpstat = join(dir, 'lpstat');
    writeFileSync(lpstat, '#!/bin/sh\n[ "$1" = "-e" ] && printf "zebra_raw\\nOffice_Laser\\n"\n');
    chmodSync(lpstat, 0o755);
    const bus = new FakeUsbBus();
    bus.plug(new FakeUsbPrinter(new FakeZebra(), { serial: 'D2J1' }));
    bus.plug(new FakeUsbDevice(0x046d, 0xc52b, [], null, 'USB Receiver')); // not a printer
    const vp = await useVirtualPrinter({ dpi: 300 });

    const { printers, notes } = await discoverPrinters({
      usbBus: bus,
      lpstatCommand: lpstat,
      networkCandidates: [
        { host: '127.0.0.1', port: vp.port },
        { host: '127.0.0.1', port: 1 },
      ],
    });
    expect(printers.map((p) => [p.kind, p.name])).toEqual([
      ['usb', 'ZTC ZD421-203dpi ZPL'],
      ['os', 'zebra_raw'],
      ['os', 'Office_Laser'],
      ['network', `127.0.0.1:${vp.port}`],
    ]);
    expect(printers[0]!.config).toMatchObject({
      kind: 'usb',
      vendorId: 0x0a5f,
      serialNumber: 'D2J1',
      dpi: 203,
    });
    expect(printers[3]!.config).toMatchObject({ dpi: 300 });
    expect(notes).toEqual([
      expect.stringMatching(
        /^127\.0\.0\.1:1, set up in this profile, did not answer: .*not answering/,
      ),
    ]);
  });

  it('says when USB cannot be searched instead of failing', async () => {
    const { notes } = await discoverPrinters({
      usbBus: async () => {
        throw new Error('/sys/bus/usb/devices/ not found');
      },
      lpstatCommand: join(tempDir(), 'none'),
    });
    expect(notes[0]).toBe(
      'USB printers could not be looked for on this computer (/sys/bus/usb/devices/ not found): add a USB printer once the station can see the USB bus, or use its network address.',
    );
  });
});
