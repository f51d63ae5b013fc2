import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { ProfileView } from '../../../src/shared/views.js';
import { hostStatusAnswer } from '../../../src/core/printing/virtual-printer/responses.js';
import { startPlainZebra } from '../../support/plain-zebra.js';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import { closedPort } from '../../support/ports.js';
import { call, demoStationsPerTest, onlyLabelPrinter, packOrder, until } from './support.js';

/** A plain TCP listener on port 0 that keeps every byte a client sends (not the virtual printer). */
async function rawPrinter(): Promise<{
  port: number;
  received: () => string;
  close(): Promise<void>;
}> {
  let data = '';
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    received: () => data,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}

const stations = demoStationsPerTest();
const started = async (): Promise<Station> => (await stations.start()).s;

describe('Settings → Printers: add by address, test print, remove (site IT)', () => {
  it('adds a network printer by host and port, test-prints to it, and removes it', async () => {
    const s = await started();
    // Not the project's virtual printer: it answers ~HS only, as older firmware does.
    const printer = await startPlainZebra();
    stations.onEnd(printer.close);

    const view = await call(s, 'printers.add', {
      name: 'ZD421 dock 2',
      host: '127.0.0.1',
      port: printer.port,
      dpi: 300,
      role: 'label',
    });
    const added = view.printers.find((p) => p.name === 'ZD421 dock 2')!;
    expect(added).toMatchObject({
      kind: 'network',
      host: '127.0.0.1',
      port: printer.port,
      dpi: 300,
      role: 'label',
    });
    // The active profile is reopened: the header's status has the new printer at once.
    const status = await call(s, 'station.status', {});
    expect(status.profile?.printers.map((p) => p.id)).toContain(added.id);

    const job = await call(s, 'printers.testPrint', { printerId: added.id });
    expect(job.printerName).toBe('ZD421 dock 2');
    await until(() => printer.received().includes('^XZ'));
    expect(printer.received()).toContain('Test print');
    // 300 dpi: a 4-inch print width of 1200 dots.
    expect(printer.received()).toContain('^PW1200');
    // The bytes arrive before the spool has heard the printer's status back: the job is
    // done only then, and a printer with a job still waiting cannot be removed.
    await until(() => s.context.spool.get(Number(job.id))?.state === 'printed');

    const after = await call(s, 'printers.remove', { printerId: added.id });
    expect(after.printers.map((p) => p.id)).not.toContain(added.id);
    const again = await s.dispatch('printers.testPrint', { printerId: added.id });
    expect(again).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it("a test print says when the printer's own resolution differs from its setting", async () => {
    const s = await started();
    const vp = await startVirtualPrinter({ dpi: 300 });
    stations.onEnd(() => vp.close());
    const view = await call(s, 'printers.add', {
      name: 'VP300',
      host: '127.0.0.1',
      port: vp.port,
      dpi: 203,
      role: 'label',
    });
    const id = view.printers.find((p) => p.name === 'VP300')!.id;
    const job = await call(s, 'printers.testPrint', { printerId: id });
    expect(job.state).toBe('printed');
    expect(job.warnings).toEqual([
      'VP300 says it prints at 300 dpi, but it is set up here as 203 dpi: labels would come out the wrong size. Set it to 300 dpi in Settings → Printers.',
    ]);
  });

  it('a 203-dpi printer swapped for a 300-dpi one at the same address: the next label and test print say so', async () => {
    const s = await started();
    const before = await startVirtualPrinter({ dpi: 203 });
    const port = before.port;
    const id = await onlyLabelPrinter(s, 'Dock VP', port);
    const first = await packOrder(s, 'LUM-10421');
    expect(first.printJob?.warnings ?? []).toEqual([]);
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'ready');

    // The ZD421 is taken away; the header's probe finds the address silent.
    await before.close();
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'offline');
    // A 300-dpi model is put in its place, at the same address.
    const after = await startVirtualPrinter({ dpi: 300, port });
    stations.onEnd(() => after.close());
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'ready');

    const next = await packOrder(s, 'LUM-10422');
    expect(next.printJob?.warnings).toEqual([
      expect.stringMatching(/made for a 203-dpi printer, but .* prints at 300 dpi/),
    ]);
    const test = await call(s, 'printers.testPrint', { printerId: id });
    expect(test.warnings).toEqual([
      'Dock VP says it prints at 300 dpi, but it is set up here as 203 dpi: labels would come out the wrong size. Set it to 300 dpi in Settings → Printers.',
    ]);
  }, 40_000);

  it('a test page the printer drops says so at once and is never sent again later', async () => {
    const s = await started();
    // Answers the status question, then drops the connection as the page arrives.
    let pages = 0;
    const sockets = new Set<Socket>();
    const dropper = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('data', (d) => {
        const text = d.toString('latin1');
        if (text.includes('~HS'))
          socket.write(hostStatusAnswer({ fault: null, formatsInBuffer: 0, dpi: 203 }), 'latin1');
        if (text.includes('^XA')) {
          pages++;
          socket.destroy();
        }
      });
    });
    await new Promise<void>((ok) => dropper.listen(0, '127.0.0.1', ok));
    stations.onEnd(async () => {
      for (const k of sockets) k.destroy();
      await new Promise((ok) => dropper.close(ok));
    });
    const view = await call(s, 'printers.add', {
      name: 'Drops pages',
      host: '127.0.0.1',
      port: (dropper.address() as { port: number }).port,
      dpi: 203,
      role: 'label',
    });
    const id = view.printers.find((p) => p.name === 'Drops pages')!.id;
    const job = await call(s, 'printers.testPrint', { printerId: id });
    // Answered with the page's outcome (it may or may not have come out), not "sent".
    expect(job).toMatchObject({
      state: 'unknown',
      lastError: expect.stringMatching(/^Printer Drops pages .* dropped the connection/),
    });
    expect(pages).toBe(1);
    expect((await call(s, 'queue.list', {})).printJobs.filter((j) => j.state === 'queued')).toEqual(
      [],
    );
  });

  it('adds a receipt printer whose test print is an ESC/POS slip, not ZPL', async () => {
    const s = await started();
    const receipt = await rawPrinter();
    stations.onEnd(receipt.close);
    const view = await call(s, 'printers.add', {
      name: 'TM-m30',
      host: '127.0.0.1',
      port: receipt.port,
      role: 'receipt',
    });
    const added = view.printers.find((p) => p.name === 'TM-m30')!;
    expect(added).toMatchObject({ role: 'receipt', port: receipt.port, dpi: 203 });
    // Labels still go to the label printer, not to the receipt printer just added.
    expect(view.defaultPrinterId).not.toBe(added.id);
    await call(s, 'printers.testPrint', { printerId: added.id });
    await until(() => receipt.received().includes('Test print: TM-m30'));
    expect(receipt.received()).not.toContain('^XA');
    expect(receipt.received()).toContain('\x1b');
  });

  it('a test print to a printer that does not answer says so and queues nothing', async () => {
    const s = await started();
    // A port nothing listens on: the printer is switched off.
    const port = await closedPort();
    const view = await call(s, 'printers.add', {
      name: 'Dead Zebra',
      host: '127.0.0.1',
      port,
      role: 'label',
    });
    const added = view.printers.find((p) => p.name === 'Dead Zebra')!;
    const before = (await call(s, 'queue.list', {})).printJobs.length;
    const r = await s.dispatch('printers.testPrint', { printerId: added.id });
    expect(r).toMatchObject({
      ok: false,
      error: {
        code: 'printer-offline',
        message: expect.stringMatching(
          /^Printer Dead Zebra at 127\.0\.0\.1:\d+ is not answering on port \d+ \(connection refused: check that it is switched on; if it is, check the port, 9100 for Zebra and most label printers\)\. The test page was not sent and nothing was queued; put it right and try again\.$/,
        ),
      },
    });
    expect((await call(s, 'queue.list', {})).printJobs.length).toBe(before);
  });

  /** A "printer" on a real socket that answers its ~HS with `answer`; its port. */
  async function oddPrinter(answer: string): Promise<number> {
    const sockets = new Set<Socket>();
    const odd = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', (d) => {
        if (d.toString('latin1').includes('~HS')) socket.write(answer);
      });
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    });
    await new Promise<void>((ok) => odd.listen(0, '127.0.0.1', ok));
    stations.onEnd(async () => {
      for (const x of sockets) x.destroy();
      await new Promise((ok) => odd.close(ok));
    });
    return (odd.address() as { port: number }).port;
  }

  it('a label printer that answers its status question with garbage is said at once, not after the 10 s status timeout', async () => {
    const { s } = await stations.start();
    const id = await onlyLabelPrinter(s, 'Odd Zebra', await oddPrinter('Odd HS\r\n'));
    const words =
      /^Printer Odd Zebra at 127\.0\.0\.1:\d+ answered "Odd HS", which is not a Zebra status: check that it is a ZPL label printer and that the port is its raw printing port \(9100 on a Zebra\)$/;
    // Its status, asked: the words at once.
    const asked = Date.now();
    const status = await call(s, 'printers.status', { printerId: id });
    expect(Date.now() - asked).toBeLessThan(5000);
    expect(status).toMatchObject({ state: 'offline', message: expect.stringMatching(words) });
    // A label bought for it waits for it, its job saying why, well before the status timeout.
    const bought = await packOrder(s, 'LUM-10421');
    expect(bought.label?.trackingNumber).toBeTruthy();
    const since = Date.now();
    const job = await until(async () =>
      (await call(s, 'queue.list', {})).printJobs.find((j) => j.printerId === id && j.lastError),
    );
    expect(Date.now() - since).toBeLessThan(5000);
    expect(job.lastError).toMatch(/answered "Odd HS", which is not a Zebra status/);
    expect(job.state).not.toBe('printed');
  });

  it('garbage with no line end is said once the printer stops sending, not after the status timeout', async () => {
    const { s } = await stations.start();
    const id = await onlyLabelPrinter(s, 'Chatty', await oddPrinter('HELLO'));
    const asked = Date.now();
    const status = await call(s, 'printers.status', { printerId: id });
    expect(Date.now() - asked).toBeLessThan(5000);
    expect(status).toMatchObject({
      state: 'offline',
      message: expect.stringMatching(
        /^Printer Chatty at .* answered "HELLO", which is not a Zebra status/,
      ),
    });
  });

  it('status frames that hold no Zebra status are said in words, never as the parser saw them', async () => {
    const { s } = await stations.start();
    // Three STX…ETX frames, as a Zebra frames its ~HS answer, but nothing of a status inside.
    const framed = '\x02xyz,,,\x03\r\n\x02???\x03\r\n\x02\x03\r\n';
    const id = await onlyLabelPrinter(s, 'Framed', await oddPrinter(framed));
    const words =
      /^Printer Framed at 127\.0\.0\.1:\d+ answered "xyz,,, \?\?\?", which is not a Zebra status: check that it is a ZPL label printer and that the port is its raw printing port \(9100 on a Zebra\)$/;
    const status = await call(s, 'printers.status', { printerId: id });
    expect(status).toMatchObject({ state: 'offline', message: expect.stringMatching(words) });
    // A label for it waits, its job saying the same words under the printer's code.
    await packOrder(s, 'LUM-10421');
    const job = await until(async () =>
      (await call(s, 'queue.list', {})).printJobs.find((j) => j.printerId === id && j.lastError),
    );
    expect(job.lastError).toMatch(words);
    expect(job.lastErrorCode).toBe('printer-offline');
    expect(job.lastError).not.toMatch(/too few fields|\\u0002/);
    expect(job.state).not.toBe('printed');
  });

  it('says what is wrong with a typed address, and refuses the same address twice', async () => {
    const s = await started();
    const withScheme = await s.dispatch('printers.add', {
      name: 'ZD421',
      host: 'http://10.1.4.20',
      port: 9100,
    });
    expect(withScheme).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!withScheme.ok && withScheme.error.message).toMatch(/host.*IP address/);
    const badPort = await s.dispatch('printers.add', {
      name: 'ZD421',
      host: '10.1.4.20',
      port: 70000,
    });
    expect(badPort).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!badPort.ok && badPort.error.message).toMatch(/port.*1 and 65535/);
    // An IP address with a slip of the finger passes as a host name only to fail at a print.
    for (const host of ['10.1.4.2o', '10.1.4.300', '10.1.4', '10.1.4.20.5']) {
      const typo = await s.dispatch('printers.add', { name: 'ZD421', host });
      expect(typo).toMatchObject({ ok: false, error: { code: 'validation' } });
      expect(!typo.ok && typo.error.message).toContain(`"${host}" is not an IP address`);
    }

    // A host name the network does not know (a typo of a .local name) is added, and said:
    // the printer may be switched off, or its name one only its own network resolves.
    const unknown = await call(s, 'printers.add', { name: 'Dock 4', host: 'zd421-dock4.invalid' });
    expect(unknown.printers.some((p) => p.name === 'Dock 4')).toBe(true);
    expect(unknown.printerNote).toBe(
      "Dock 4 at zd421-dock4.invalid cannot be found: no computer on the network is called zd421-dock4.invalid (check the printer's address for a typo, or use its IP address). A test print says whether it answers.",
    );
    // A name it knows, and an IP address, are added without a word.
    expect((await call(s, 'printers.add', { name: 'Here', host: 'localhost' })).printerNote).toBe(
      undefined,
    );
    const added = await call(s, 'printers.add', { name: 'ZD421', host: '10.1.4.20', port: 9100 });
    expect(added.printerNote).toBe(undefined);
    const twice = await s.dispatch('printers.add', { name: 'Other', host: '10.1.4.20' });
    expect(twice).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(!twice.ok && twice.error.message).toContain('already set up as printer "ZD421"');
  });
});

describe('one printer shape from the profile to the view and back', () => {
  it('still reads the older "address" spelling of a printer, onto the one shape', async () => {
    const s = await started();
    const demo = (await call(s, 'station.status', {})).profile!;
    const saved = await call(s, 'profiles.update', {
      id: demo.id,
      printers: [
        ...demo.printers,
        { id: 'zd-old', name: 'ZD old', kind: 'network', address: '10.1.4.21:9101', dpi: 300 },
        { id: 'cups', name: 'CUPS', kind: 'os-queue', address: 'zebra_raw', dpi: 203 },
      ],
    });
    expect(saved.printers.find((p) => p.id === 'zd-old')).toMatchObject({
      kind: 'network',
      host: '10.1.4.21',
      port: 9101,
      role: 'label',
      address: '10.1.4.21:9101',
    });
    expect(saved.printers.find((p) => p.id === 'cups')).toMatchObject({
      kind: 'os',
      queue: 'zebra_raw',
    });
  });

  it('saves the printers Settings shows on a profile with packing slips (the role survives)', async () => {
    const s = await started();
    const status = await call(s, 'station.status', {});
    const demo = status.profile!;
    const file = JSON.parse((await call(s, 'profiles.export', { id: demo.id })).json) as {
      profiles: Record<string, unknown>[];
    };
    const p = file.profiles[0]!;
    // A profile file written before the Settings form spelled the role "slip".
    p.printers = [
      ...(p.printers as unknown[]),
      { id: 'tm-m30', name: 'Receipt', kind: 'network', role: 'slip', host: '10.1.4.30' },
    ];
    p.packingSlips = { type: 'epson', width: 48 };
    await call(s, 'profiles.provision', { json: JSON.stringify(file) });

    const shown: ProfileView = (await call(s, 'station.status', {})).profile!;
    expect(shown.printers.find((x) => x.id === 'tm-m30')).toMatchObject({ role: 'receipt' });

    // What the DPI select in Settings sends: the printers it shows, one DPI changed.
    const saved = await call(s, 'profiles.update', {
      id: shown.id,
      printers: shown.printers.map((x) => (x.id === 'tm-m30' ? x : { ...x, dpi: 300 as const })),
    });
    expect(saved.printers.find((x) => x.id === 'tm-m30')).toMatchObject({
      role: 'receipt',
      host: '10.1.4.30',
    });
    expect(saved.printers.filter((x) => x.role === 'label').every((x) => x.dpi === 300)).toBe(true);

    // Removing the only receipt printer would leave packing slips nowhere to go.
    const removed = await s.dispatch('printers.remove', { printerId: 'tm-m30' });
    expect(removed).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!removed.ok && removed.error.message).toMatch(/packing slips/);
    // A profile that does not validate is `validation` with the field, never `internal`.
    const noRole = await s.dispatch('profiles.update', {
      id: shown.id,
      printers: shown.printers.filter((x) => x.id !== 'tm-m30'),
    });
    expect(noRole).toMatchObject({ ok: false, error: { code: 'validation' } });
    expect(!noRole.ok && noRole.error.message).toMatch(/packingSlips.*receipt printer/);
  });
});
