import { describe, expect, it } from 'vitest';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { NetworkPrinter } from '../../../src/core/printing/drivers/network.js';
import { PrinterError } from '../../../src/core/printing/types.js';
import { describeStatus } from '../../../src/core/printing/zebra-status.js';
import {
  sampleLabel,
  useVirtualPrinter,
  virtualPrinterConfig,
  waitForLabels,
  waitUntil,
} from '../../support/virtual-printer.js';

async function caught(promise: Promise<unknown>): Promise<PrinterError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PrinterError);
    return error as PrinterError;
  }
  throw new Error('expected a PrinterError');
}

/** A TCP server that records bytes and never answers. */
async function silentServer(): Promise<{ server: Server; port: number; bytes: () => Buffer }> {
  const chunks: Buffer[] = [];
  const server = createServer((s) => s.on('data', (c: Buffer) => chunks.push(c)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : 0,
    bytes: () => Buffer.concat(chunks),
  };
}

/** A TCP relay in front of a printer that counts the connections made through it. */
async function countingRelay(
  targetPort: number,
): Promise<{ port: number; accepted: () => number; close: () => void }> {
  let accepted = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    accepted++;
    const printer = connect(targetPort, '127.0.0.1');
    open.add(client).add(printer);
    client.pipe(printer).pipe(client);
    const end = () => {
      client.destroy();
      printer.destroy();
    };
    client.on('close', end).on('error', end);
    printer.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    accepted: () => accepted,
    close: () => {
      open.forEach((s) => s.destroy());
      server.close();
    },
  };
}

describe('network printer (raw TCP 9100)', () => {
  it('prints a label and then reports the printer ready', async () => {
    const vp = await useVirtualPrinter();
    const printer = new NetworkPrinter(virtualPrinterConfig(vp));
    await printer.send(Buffer.from(sampleLabel('ORDER-1001')));
    expect((await waitForLabels(vp, 1)).map((l) => l.zpl)).toEqual([sampleLabel('ORDER-1001')]);
    expect(await printer.status()).toMatchObject({ ready: true, faults: [], formatsInBuffer: 0 });
  });

  it('reports paper out in words that name the printer', async () => {
    const vp = await useVirtualPrinter();
    const config = virtualPrinterConfig(vp, { name: 'ZD421' });
    vp.setFault('paper-out');
    const status = (await new NetworkPrinter(config).status())!;
    expect(status.faults).toEqual(['paper-out']);
    expect(describeStatus(config, status)).toBe(
      `Printer ZD421 at 127.0.0.1:${vp.port} is out of paper`,
    );
  });

  it('says the printer is not answering when the connection is refused, and nothing was sent', async () => {
    const vp = await useVirtualPrinter();
    const config = virtualPrinterConfig(vp);
    await vp.close();
    const printer = new NetworkPrinter(config);
    const error = await caught(printer.send(Buffer.from(sampleLabel('x'))));
    expect(error.code).toBe('printer-offline');
    expect(error.mayHavePrinted).toBe(false);
    expect(error.message).toMatch(/is not answering/);
    expect((await caught(printer.status())).code).toBe('printer-offline');
  });

  it('says a printer name that does not resolve is a typo in the address, not a printer switched off', async () => {
    // .invalid never resolves (RFC 6761): the name typed in Settings with a letter wrong.
    const printer = new NetworkPrinter({
      id: 'dock-1',
      name: 'Dock1 Zebra',
      kind: 'network',
      role: 'label',
      host: 'zebra-dok1.invalid',
      port: 9100,
      dpi: 203,
    });
    const error = await caught(printer.send(Buffer.from(sampleLabel('x'))));
    expect(error.code).toBe('printer-offline');
    expect(error.message).toBe(
      "Printer Dock1 Zebra at zebra-dok1.invalid cannot be found: no computer on the network is called zebra-dok1.invalid (check the printer's address for a typo, or use its IP address)",
    );
  });

  it('knows a label dropped mid-job did not print', async () => {
    const vp = await useVirtualPrinter();
    vp.dropNextJobMidway();
    const error = await caught(
      new NetworkPrinter(virtualPrinterConfig(vp)).send(Buffer.from(sampleLabel('x'))),
    );
    expect(error.code).toBe('printer-disconnected');
    expect(error.mayHavePrinted).toBe(false);
    expect(error.message).toMatch(/the label did not print/);
    await waitUntil(() => vp.connections === 0);
    expect(vp.labels).toHaveLength(0);
  });

  it('says "may have printed" when the line drops after the whole label went out', async () => {
    const vp = await useVirtualPrinter();
    vp.dropAfterNextLabel();
    const error = await caught(
      new NetworkPrinter(virtualPrinterConfig(vp)).send(Buffer.from(sampleLabel('x'))),
    );
    expect(error.mayHavePrinted).toBe(true);
    expect(error.message).toMatch(/may or may not have printed/);
    expect(await waitForLabels(vp, 1)).toHaveLength(1);
  });

  it('waits for a slow printer instead of giving up', async () => {
    const vp = await useVirtualPrinter();
    vp.setSlow(150);
    const printer = new NetworkPrinter(virtualPrinterConfig(vp), { answerTimeoutMs: 5000 });
    await printer.send(Buffer.from(sampleLabel('slow')));
    expect((await waitForLabels(vp, 1))[0]!.zpl).toBe(sampleLabel('slow'));
  });

  it('gives up on a printer that never answers without sending the end of the label', async () => {
    const silent = await silentServer();
    try {
      const printer = new NetworkPrinter(
        { id: 's', name: 'Mute', kind: 'network', host: '127.0.0.1', port: silent.port },
        { answerTimeoutMs: 100 },
      );
      const error = await caught(printer.send(Buffer.from(sampleLabel('x'))));
      expect(error.code).toBe('printer-timeout');
      expect(error.mayHavePrinted).toBe(false);
      expect(silent.bytes().toString('latin1')).not.toContain('^XZ');
    } finally {
      silent.server.close();
    }
  });

  it('reads the print head resolution from the printer', async () => {
    const vp = await useVirtualPrinter({ dpi: 300 });
    expect(await new NetworkPrinter(virtualPrinterConfig(vp)).readDpi()).toBe(300);
  });

  it('sends receipt-printer (ESC/POS) bytes as they are, without Zebra status', async () => {
    const silent = await silentServer();
    try {
      const printer = new NetworkPrinter({
        id: 'r',
        name: 'Receipt',
        kind: 'network',
        role: 'receipt',
        host: '127.0.0.1',
        port: silent.port,
      });
      const bytes = Buffer.from([0x1b, 0x40, 0x41, 0x42, 0x0a]);
      await printer.send(bytes);
      await waitUntil(() => silent.bytes().length === bytes.length);
      expect(silent.bytes()).toEqual(bytes);
      expect(await printer.status()).toBeNull();
    } finally {
      silent.server.close();
    }
  });

  it('gets the connection and status ready ahead of a job, and sends the job on that connection', async () => {
    const vp = await useVirtualPrinter();
    const relay = await countingRelay(vp.port);
    try {
      const printer = new NetworkPrinter(virtualPrinterConfig(vp, { port: relay.port }));
      printer.prepare();
      await waitUntil(() => relay.accepted() === 1);
      expect(await printer.status({ beforeSend: true })).toMatchObject({ ready: true });
      await printer.send(Buffer.from(sampleLabel('ORDER-PREPARED')));
      expect((await waitForLabels(vp, 1)).map((l) => l.zpl)).toEqual([
        sampleLabel('ORDER-PREPARED'),
      ]);
      expect(relay.accepted()).toBe(1);
      await printer.close();
    } finally {
      relay.close();
    }
  });

  it('asks the printer again after a status read ahead of a job said it had a fault', async () => {
    const vp = await useVirtualPrinter();
    const relay = await countingRelay(vp.port);
    try {
      const printer = new NetworkPrinter(virtualPrinterConfig(vp, { port: relay.port }));
      vp.setFault('paper-out');
      printer.prepare();
      expect((await printer.status({ beforeSend: true }))!.faults).toEqual(['paper-out']);
      vp.setFault(null);
      // The fault was fixed: the next check before the job hears it, on the same connection.
      expect(await printer.status({ beforeSend: true })).toMatchObject({ ready: true, faults: [] });
      expect(relay.accepted()).toBe(1);
      await printer.close();
      await waitUntil(() => vp.connections === 0);
    } finally {
      relay.close();
    }
  });

  it('says a device whose one status frame is no Zebra status is not a Zebra, not after the timeout as silent', async () => {
    // One STX…ETX frame, then nothing: a Zebra's ~HS has three, the first twelve numbers.
    const sockets = new Set<Socket>();
    const half = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('data', (d: Buffer) => {
        if (d.toString('latin1').includes('~HS')) socket.write('\x02garbage,x,y\x03\r\n');
      });
    });
    await new Promise<void>((r) => half.listen(0, '127.0.0.1', r));
    const port = (half.address() as { port: number }).port;
    try {
      const printer = new NetworkPrinter(
        { id: 'h', name: 'Half', kind: 'network', host: '127.0.0.1', port },
        { answerTimeoutMs: 8000 },
      );
      const asked = Date.now();
      const error = await caught(printer.status());
      expect(Date.now() - asked).toBeLessThan(4000);
      expect(error.code).toBe('printer-offline');
      expect(error.message).toMatch(
        /^Printer Half at 127\.0\.0\.1:\d+ answered "garbage,x,y", which is not a Zebra status: check that it is a ZPL label printer/,
      );
    } finally {
      for (const x of sockets) x.destroy();
      await new Promise((r) => half.close(r));
    }
  });

  it('refuses a network printer without an address', () => {
    expect(() => new NetworkPrinter({ id: 'x', name: 'X', kind: 'network' })).toThrow(
      /needs a network address/,
    );
  });
});
