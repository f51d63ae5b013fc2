import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseHostQueryErrors, parseHostStatus } from '../../../src/core/printing/zebra-status.js';
import { tempDir } from '../../support/tmp.js';
import {
  sampleLabel,
  useVirtualPrinter,
  waitForLabels,
  waitUntil,
} from '../../support/virtual-printer.js';

/** Sends `data` on a fresh connection and collects what comes back until `done(text)` holds. */
function exchange(
  port: number,
  data: string | Buffer,
  done: (text: string) => boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (done(text)) {
        socket.end();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.write(data);
  });
}
const threeFrames = (t: string) => t.split('\x03').length > 3;

describe('virtual printer', () => {
  it('prints each ^XA…^XZ it receives, in order, and stores it as a file', async () => {
    const out = tempDir();
    const printer = await useVirtualPrinter({ outDir: out });
    await exchange(
      printer.port,
      sampleLabel('one') + '\r\n' + sampleLabel('two') + '~HS',
      threeFrames,
    );
    const labels = await waitForLabels(printer, 2);
    expect(labels.map((l) => l.zpl)).toEqual([sampleLabel('one'), sampleLabel('two')]);
    expect(readFileSync(join(out, 'label-0002.zpl'), 'utf8')).toBe(sampleLabel('two'));

    // Started again on the same folder (the station restarted): numbering goes on after the
    // labels already there, never over them.
    await printer.close();
    const again = await useVirtualPrinter({ outDir: out });
    await exchange(again.port, sampleLabel('three') + '~HS', (t) => t.includes('\x03'));
    const [third] = await waitForLabels(again, 1);
    expect(third!.file).toBe(join(out, 'label-0003.zpl'));
    expect(readFileSync(join(out, 'label-0001.zpl'), 'utf8')).toBe(sampleLabel('one'));
    expect(readFileSync(join(out, 'label-0003.zpl'), 'utf8')).toBe(sampleLabel('three'));

    // A UTF-8 label (^CI28) is stored as the bytes it came as: "Zoë Ørsted", not "ZoÃ« Ã\u0098rsted".
    const utf8 = '^XA^CI28^FO20,20^A0N,30,30^FDZoë Ørsted 王小明^FS^XZ';
    await exchange(
      again.port,
      Buffer.concat([Buffer.from(utf8, 'utf8'), Buffer.from('~HS')]),
      (t) => t.includes('\x03'),
    );
    const [, fourth] = await waitForLabels(again, 2);
    expect(readFileSync(fourth!.file!, 'utf8')).toBe(utf8);
  });

  it('answers ~HS and ~HQES with the fault it was told to have', async () => {
    const printer = await useVirtualPrinter();
    printer.setFault('paper-out');
    const hs = parseHostStatus(await exchange(printer.port, '~HS', threeFrames));
    expect(hs).toMatchObject({
      paperOut: true,
      headOpen: false,
      paused: false,
      labelLengthDots: 1218,
    });
    printer.setFault('head-open');
    const hqes = parseHostQueryErrors(
      await exchange(printer.port, '~HQES', (t) => t.includes('\x03')),
    );
    expect(hqes).toMatchObject({ errorPresent: true, errors: 4 });
  });

  it('keeps labels received while out of paper and prints them when paper is loaded', async () => {
    const printer = await useVirtualPrinter();
    printer.setFault('paper-out');
    const answer = await exchange(printer.port, sampleLabel('held') + '~HS', threeFrames);
    expect(parseHostStatus(answer).formatsInBuffer).toBe(1);
    expect(printer.labels).toHaveLength(0);
    printer.setFault(null);
    expect((await waitForLabels(printer, 1))[0]!.zpl).toBe(sampleLabel('held'));
  });

  it('throws away a label cut short by a dropped connection', async () => {
    const printer = await useVirtualPrinter();
    printer.dropNextJobMidway();
    await exchange(printer.port, sampleLabel('cut short'), () => false);
    await waitUntil(() => printer.connections === 0);
    await exchange(printer.port, sampleLabel('next') + '~HS', threeFrames);
    expect((await waitForLabels(printer, 1)).map((l) => l.zpl)).toEqual([sampleLabel('next')]);
  });

  it('CLI prints its address first and takes fault commands on stdin', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/core/printing/virtual-printer/cli.ts', '--port', '0'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const first = (await lines.next()).value as string;
      const match = /^virtual printer listening on tcp:\/\/127\.0\.0\.1:(\d+)$/.exec(first);
      expect(match).not.toBeNull();
      child.stdin!.write('head-open\n');
      expect((await lines.next()).value).toBe('fault: head-open');
      const hs = parseHostStatus(await exchange(Number(match![1]), '~HS', threeFrames));
      expect(hs.headOpen).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
