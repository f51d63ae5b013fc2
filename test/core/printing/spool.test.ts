import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  hostQueryErrorsAnswer,
  hostStatusAnswer,
} from '../../../src/core/printing/virtual-printer/responses.js';
import { PrintSpoolError, type PrintJob } from '../../../src/core/printing/spool/print-spool.js';
import {
  sampleLabel,
  useVirtualPrinter,
  virtualPrinterConfig,
  waitForLabels,
  waitUntil,
} from '../../support/virtual-printer.js';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import { openSpool, waitForState } from './spool-support.js';

const labels = (n: number, prefix = 'ORDER') =>
  Array.from({ length: n }, (_, i) => sampleLabel(`${prefix}-${1001 + i}`));

describe('print spool', () => {
  it('prints queued labels once each, in order, and tells the UI as each one comes out', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    const seen: string[] = [];
    spool.on('job', (job) => seen.push(`${job.id}:${job.state}`));
    spool.start();
    const ids = labels(3).map(
      (zpl, i) =>
        spool.enqueue({
          printerId: 'virtual',
          kind: 'label',
          payload: zpl,
          orderReference: `ORDER-${1001 + i}`,
        }).job.id,
    );
    await waitForState(spool, ids[2]!, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual(labels(3));
    expect(ids.map((id) => spool.get(id)!.state)).toEqual(['printed', 'printed', 'printed']);
    expect(seen.filter((s) => s.startsWith(`${ids[0]}:`))).toEqual([
      `${ids[0]}:queued`,
      `${ids[0]}:sending`,
      `${ids[0]}:printed`,
    ]);
    expect(spool.history(ids[0]!).map((e) => e.state)).toEqual(['queued', 'sending', 'printed']);
  });

  it('waits for a printer that refuses connections and prints everything once it is back', async () => {
    const vp = await useVirtualPrinter();
    const port = vp.port;
    const config = virtualPrinterConfig(vp, { name: 'ZD421' });
    await vp.close();
    const { spool } = openSpool([config]);
    const notices: (string | null)[] = [];
    spool.on('printer', (n) => notices.push(n.message));
    spool.start();
    const ids = labels(3).map(
      (zpl) => spool.enqueue({ printerId: 'virtual', kind: 'label', payload: zpl }).job.id,
    );
    await waitUntil(() => spool.get(ids[0]!)!.attempts >= 2);
    expect(spool.get(ids[0]!)).toMatchObject({ state: 'queued', lastErrorCode: 'printer-offline' });
    expect(spool.get(ids[0]!)!.lastError).toBe(
      `Printer ZD421 at 127.0.0.1:${port} is not answering on port ${port} (connection refused: check that it is switched on; if it is, check the port, 9100 for Zebra and most label printers)`,
    );
    expect(notices[0]).toMatch(/ZD421 .* is not answering/);

    const back = await startVirtualPrinter({ port });
    try {
      await waitForState(spool, ids[2]!, 'printed');
      expect(back.labels.map((l) => l.zpl)).toEqual(labels(3));
      expect(spool.get(ids[0]!)!.lastError).toBeNull();
    } finally {
      await spool.stop();
      await back.close();
    }
  });

  it('a test page dropped mid-job fails at once and is never sent again (a label would be)', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp, { name: 'ZD421' })]);
    vp.dropNextJobMidway();
    spool.start();
    const { job } = spool.printTest('virtual');
    await waitForState(spool, job.id, 'failed');
    expect(spool.get(job.id)).toMatchObject({ attempts: 1 });
    expect(spool.get(job.id)!.lastError).toMatch(
      /The test page did not print and is not sent again; put it right and try again\.$/,
    );
    await new Promise((r) => setTimeout(r, 1500)); // longer than the spool's first backoff
    expect(vp.labels).toEqual([]);
  });

  it('sends a label again after the printer dropped it mid-job, and it prints exactly once', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    vp.dropNextJobMidway();
    spool.start();
    const ids = labels(3).map(
      (zpl) => spool.enqueue({ printerId: 'virtual', kind: 'label', payload: zpl }).job.id,
    );
    await waitForState(spool, ids[2]!, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual(labels(3));
    expect(spool.get(ids[0]!)!.attempts).toBe(2);
    expect(spool.history(ids[0]!).map((e) => e.state)).toEqual([
      'queued',
      'sending',
      'queued',
      'sending',
      'printed',
    ]);
  });

  it('a printer that answers but drops each label: said after three in a row, left for a person after six, never printed twice', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp, { name: 'ZD421' })]);
    vp.dropNextJobMidway(100);
    spool.start();
    const { job } = spool.enqueue({ printerId: 'virtual', kind: 'label', payload: labels(1)[0]! });
    let said = '';
    await waitUntil(() => {
      const j = spool.get(job.id)!;
      said = j.state === 'queued' && /times in a row/.test(j.lastError ?? '') ? j.lastError! : '';
      return said !== '';
    });
    expect(said).toMatch(
      /dropped the connection while receiving a label; the label did not print, 3 times in a row: it answers, but does not take the label \(another program connected to it, or a label it refuses\)\. Check the printer, or move the job to another printer \(Queue → Move to…\)\.$/,
    );
    await waitForState(spool, job.id, 'failed');
    expect(spool.get(job.id)).toMatchObject({ attempts: 6, lastErrorCode: 'printer-disconnected' });
    expect(spool.get(job.id)!.lastError).toMatch(
      /6 times in a row: .* Not sent again by itself: check the printer and send it again, or move the job to another printer\.$/,
    );
    expect(vp.labels).toEqual([]);

    // Mended: sent again by a person, it prints once.
    vp.dropNextJobMidway(0);
    spool.retry(job.id);
    await waitForState(spool, job.id, 'printed');
    expect(vp.labels).toHaveLength(1);
  });

  it('holds labels while the printer is out of paper, says so, and prints them once paper is loaded', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp, { name: 'ZD421' })]);
    vp.setFault('paper-out');
    spool.start();
    const ids = labels(2).map(
      (zpl) => spool.enqueue({ printerId: 'virtual', kind: 'label', payload: zpl }).job.id,
    );
    const waiting = await new Promise<PrintJob>((resolve) => {
      const check = (job: PrintJob) => job.lastErrorCode === 'printer-fault' && resolve(job);
      spool.on('job', check);
    });
    expect(waiting.lastError).toBe(`Printer ZD421 at 127.0.0.1:${vp.port} is out of paper`);
    expect(spool.printerNotices()[0]!.message).toMatch(/is out of paper$/);
    expect(spool.needsAttention().map((j) => j.id)).toContain(ids[0]);
    expect(vp.heldLabels).toBe(0); // the spool did not send into a printer without paper

    vp.setFault(null);
    await waitForState(spool, ids[1]!, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual(labels(2));
    expect(spool.get(ids[0]!)!.attempts).toBe(1);
  });

  it('does not resend a label the printer took in before it ran out of paper; it comes out when fixed', async () => {
    const vp = await useVirtualPrinter();
    let first = true;
    const { spool } = openSpool([virtualPrinterConfig(vp)], {
      wrap: (driver) => ({
        config: driver.config,
        status: (o) => driver.status(o),
        close: () => driver.close(),
        send: async (data, o) => {
          // the paper runs out between the spool's check and the label arriving
          if (first) vp.setFault('paper-out');
          first = false;
          return driver.send(data, o);
        },
      }),
    });
    spool.start();
    const { job } = spool.enqueue({ printerId: 'virtual', kind: 'label', payload: labels(1)[0]! });
    await waitUntil(() => spool.get(job.id)!.lastErrorCode === 'printer-fault');
    expect(spool.get(job.id)).toMatchObject({ state: 'sending', attempts: 1 });
    expect(spool.get(job.id)!.lastError).toMatch(
      /out of paper; this label is waiting inside the printer/,
    );
    expect(vp.heldLabels).toBe(1);
    vp.setFault(null);
    await waitForState(spool, job.id, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual(labels(1));
  });

  it('says when a printer keeps a label without printing it and without a fault, never sending it again', async () => {
    // A printer holding the label (a peel-off printer whose label is not taken, or a stuck one):
    // it answers its status at once, the label in its buffer and no fault, until it lets it go.
    let holding = 0;
    const received: string[] = [];
    const printer = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (text.includes('^XA')) {
          received.push(text);
          holding = 1;
        }
        const state = { fault: null, formatsInBuffer: holding, dpi: 203 };
        if (text.includes('~HS')) socket.write(hostStatusAnswer(state));
        if (text.includes('~HQES')) socket.write(hostQueryErrorsAnswer(state));
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => printer.listen(0, '127.0.0.1', r));
    onTestFinished(() => new Promise<void>((r) => printer.close(() => r())));
    const port = (printer.address() as AddressInfo).port;
    const config = { id: 'peel', name: 'Peel', kind: 'network' as const, host: '127.0.0.1', port };
    const { spool } = openSpool([config], { heldSaidAfterMs: 200 });
    spool.start();
    const { job } = spool.enqueue({ printerId: 'peel', kind: 'label', payload: labels(1)[0]! });
    await waitUntil(() => spool.get(job.id)!.lastErrorCode === 'printer-fault');
    expect(spool.get(job.id)).toMatchObject({ state: 'sending', attempts: 1 });
    expect(spool.get(job.id)!.lastError).toMatch(
      /^Printer Peel .*has kept this label in its buffer for more than 0 s without printing it and without a fault: if it peels labels, take the label off; otherwise check it/,
    );
    // The label is taken: printed, once.
    holding = 0;
    await waitForState(spool, job.id, 'printed');
    expect(spool.get(job.id)).toMatchObject({ attempts: 1, lastError: null });
    expect(received.filter((t) => t.includes('^XA'))).toHaveLength(1);
  });

  it('keeps up with a slow printer without sending anything twice', async () => {
    const vp = await useVirtualPrinter();
    vp.setSlow(60);
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    spool.start();
    const ids = labels(3).map(
      (zpl) => spool.enqueue({ printerId: 'virtual', kind: 'label', payload: zpl }).job.id,
    );
    await waitForState(spool, ids[2]!, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual(labels(3));
    expect(ids.map((id) => spool.get(id)!.attempts)).toEqual([1, 1, 1]);
  });

  it('never resends a label that may have printed: it waits for a person', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    vp.dropAfterNextLabel();
    spool.start();
    const [a, b] = labels(2).map(
      (zpl) => spool.enqueue({ printerId: 'virtual', kind: 'label', payload: zpl }).job.id,
    );
    await waitForState(spool, b!, 'printed');
    const unknown = spool.get(a!)!;
    expect(unknown.state).toBe('unknown');
    expect(unknown.lastError).toMatch(
      /may or may not have printed\. Check the printer: mark it printed, or send it again/,
    );
    expect(vp.labels.map((l) => l.zpl)).toEqual(labels(2)); // each exactly once
    expect(spool.needsAttention().map((j) => j.id)).toEqual([a]);
    expect(spool.markPrinted(a!).state).toBe('printed');
    expect(spool.needsAttention()).toEqual([]);
  });

  it('keeps a label for a printer switched off for a while, past its attempts, and prints it when it is back', async () => {
    const off = await useVirtualPrinter();
    const port = off.port;
    await off.close(); // switched off
    const { spool } = openSpool([virtualPrinterConfig(off, { id: 'dock', name: 'Dock' })], {
      maxAttempts: 2,
      giveUpAfterMs: 60 * 60_000,
    });
    spool.start();
    const id = spool.enqueue({ printerId: 'dock', kind: 'label', payload: labels(1)[0]! }).job.id;
    await waitUntil(() => (spool.get(id)?.attempts ?? 0) >= 5);
    expect(spool.get(id)!.state).toBe('queued');
    expect(spool.get(id)!.lastError).not.toMatch(/Gave up/);
    // Switched on again (the same address): the waiting label prints by itself.
    const back = await useVirtualPrinter({ port });
    await waitForState(spool, id, 'printed');
    expect(back.labels.map((l) => l.zpl)).toEqual(labels(1));
  });

  it('lets a shift lead cancel, move and retry jobs', async () => {
    const left = await useVirtualPrinter();
    const right = await useVirtualPrinter();
    const leftConfig = virtualPrinterConfig(left, { id: 'left', name: 'Left' });
    await left.close(); // the left printer is off
    const { spool } = openSpool(
      [leftConfig, virtualPrinterConfig(right, { id: 'right', name: 'Right' })],
      { maxAttempts: 2, giveUpAfterMs: 0 },
    );
    spool.start();
    const [a, b, c] = labels(3).map(
      (zpl) => spool.enqueue({ printerId: 'left', kind: 'label', payload: zpl }).job.id,
    );
    await waitForState(spool, a!, 'failed');
    expect(spool.get(a!)!.lastError).toMatch(/Gave up after 2 attempts/);

    expect(spool.cancel(b!).state).toBe('cancelled');
    expect(() => spool.cancel(b!)).toThrow(PrintSpoolError);
    const moved = spool.move(c!, 'right');
    expect(moved.job.printerId).toBe('right');
    await waitForState(spool, c!, 'printed');
    spool.move(a!, 'right');
    await waitForState(spool, a!, 'printed');
    expect(right.labels.map((l) => l.zpl)).toEqual([labels(3)[2], labels(3)[0]]);
    expect(spool.get(b!)!.state).toBe('cancelled');
    expect(() => spool.move(a!, 'nowhere')).toThrow(/No printer "nowhere"/);
    expect(() => spool.retry(a!)).toThrow(/is printed; cannot retry/);
  });

  it('never moves a shipping label to a receipt printer (nor a packing slip to a label printer)', async () => {
    const label = await useVirtualPrinter();
    const slips = await useVirtualPrinter();
    const labelConfig = virtualPrinterConfig(label, { id: 'dock', name: 'Dock' });
    await label.close(); // the label printer is off: the label waits
    const { spool } = openSpool([
      labelConfig,
      { ...virtualPrinterConfig(slips, { id: 'slips', name: 'Receipt VP' }), role: 'receipt' },
    ]);
    spool.start();
    const id = spool.enqueue({ printerId: 'dock', kind: 'label', payload: labels(1)[0]! }).job.id;
    expect(() => spool.move(id, 'slips')).toThrow(
      'Receipt VP is a receipt printer: a shipping label cannot print on it. Move the job to a label printer.',
    );
    expect(spool.get(id)!.printerId).toBe('dock');
    expect(slips.labels).toEqual([]);
  });

  it('follows the profile when site IT renames, re-addresses or removes a printer with jobs queued', async () => {
    const old = await useVirtualPrinter();
    const replacement = await useVirtualPrinter();
    const oldConfig = virtualPrinterConfig(old, { id: 'left', name: 'ZD421 left' });
    await old.close(); // switched off for good
    const printers = [oldConfig];
    const { spool } = openSpool(printers);
    spool.start();
    const [a, b] = labels(2).map(
      (zpl) => spool.enqueue({ printerId: 'left', kind: 'label', payload: zpl }).job.id,
    );
    await waitUntil(() => spool.get(a!)!.attempts >= 2);
    expect(spool.get(a!)!.lastError).toMatch(/ZD421 left .* is not answering/);
    // Site IT puts the new printer's address (and name) under the same printer in the profile.
    printers[0] = virtualPrinterConfig(replacement, { id: 'left', name: 'ZD421 left (new)' });
    await waitForState(spool, b!, 'printed');
    expect(replacement.labels.map((l) => l.zpl)).toEqual(labels(2));
    expect(spool.get(a!)).toMatchObject({ state: 'printed', lastError: null });

    // Removed from the profile while a job waits: failed, saying so, until moved or re-added.
    await replacement.close();
    const c = spool.enqueue({ printerId: 'left', kind: 'label', payload: labels(3)[2]! }).job.id;
    await waitUntil(() => spool.get(c)!.attempts >= 1);
    printers.length = 0;
    const failed = await waitForState(spool, c, 'failed');
    expect(failed.lastError).toMatch(
      /Printer "left" is not set up at this station any more; move the job/,
    );
    expect(() => spool.enqueue({ printerId: 'left', kind: 'label', payload: 'x' })).toThrow(
      /No printer "left" is set up/,
    );
    const back = await useVirtualPrinter();
    printers.push(virtualPrinterConfig(back, { id: 'left', name: 'ZD421 left' }));
    spool.retry(c);
    await waitForState(spool, c, 'printed');
    expect(back.labels.map((l) => l.zpl)).toEqual([labels(3)[2]]);
  });

  it('warns before a 203-dpi label goes to a 300-dpi printer', async () => {
    const vp = await useVirtualPrinter({ dpi: 300 });
    const { spool } = openSpool([virtualPrinterConfig(vp, { name: 'ZT411', dpi: 300 })]);
    const { warnings } = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: labels(1)[0]!,
    });
    expect(warnings.map((w) => w.code)).toEqual(['dpi-mismatch']);
    expect(warnings[0]!.message).toMatch(
      /made for a 203-dpi printer, but Printer ZT411 .* prints at 300 dpi: it would come out 2.7 x 4.1 in/,
    );
  });

  it('believes the printer over the profile about its resolution', async () => {
    const vp = await useVirtualPrinter({ dpi: 300 });
    const { spool } = openSpool([virtualPrinterConfig(vp, { dpi: 203 })]); // the profile is wrong
    spool.start();
    const first = spool.enqueue({ printerId: 'virtual', kind: 'label', payload: labels(1)[0]! });
    expect(first.warnings).toEqual([]);
    await waitForState(spool, first.job.id, 'printed');
    expect(spool.checkLabel('virtual', labels(1)[0]!)).toMatchObject([
      { code: 'dpi-mismatch', printerDpi: 300 },
    ]);
  });

  it('prints a test label in one call', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp, { name: 'Packing 3' })]);
    spool.start();
    const { job, warnings } = spool.printTest('virtual');
    expect(warnings).toEqual([]);
    await waitForState(spool, job.id, 'printed');
    const [label] = await waitForLabels(vp, 1);
    expect(label!.zpl).toContain('^FDTest print^FS');
    expect(label!.zpl).toContain('Packing 3');
  });
});
