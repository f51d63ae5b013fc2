import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { openDatabase } from '../../../src/core/storage/database.js';
import {
  hostQueryErrorsAnswer,
  hostStatusAnswer,
} from '../../../src/core/printing/virtual-printer/responses.js';
import { tempDir } from '../../support/tmp.js';
import {
  sampleLabel,
  useVirtualPrinter,
  virtualPrinterConfig,
  waitUntil,
} from '../../support/virtual-printer.js';
import { openSpool, waitForState } from './spool-support.js';

describe('print spool across restarts', () => {
  it('prints jobs queued before a restart', async () => {
    const vp = await useVirtualPrinter();
    const config = virtualPrinterConfig(vp);
    const file = join(tempDir(), 'station.db');
    const before = openSpool([{ ...config, port: 1 }], { file }); // a printer that is not there
    before.spool.start();
    const ids = [1, 2, 3].map(
      (n) =>
        before.spool.enqueue({
          printerId: 'virtual',
          kind: 'label',
          payload: sampleLabel(`R-${n}`),
        }).job.id,
    );
    await waitUntil(() => before.spool.get(ids[0]!)!.attempts >= 1);
    await before.spool.stop();
    before.db.close();

    const after = openSpool([config], { file });
    after.spool.start();
    await waitForState(after.spool, ids[2]!, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual([1, 2, 3].map((n) => sampleLabel(`R-${n}`)));
  });

  it('after kill -9 mid-send, the interrupted label is not resent automatically; the rest print', async () => {
    // A printer that answers status but swallows labels without a word: the child is
    // guaranteed to be stuck between "sending" and the printer's answer when it is killed.
    const swallowed: string[] = [];
    const blackHole = createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (text.includes('^XA')) return void swallowed.push(text);
        if (text.includes('~HS'))
          socket.write(hostStatusAnswer({ fault: null, formatsInBuffer: 0, dpi: 203 }));
        if (text.includes('~HQES'))
          socket.write(hostQueryErrorsAnswer({ fault: null, formatsInBuffer: 0, dpi: 203 }));
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
    const address = blackHole.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const file = join(tempDir(), 'station.db');
    openDatabase(file).close();

    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/core/printing/fixtures/spool-child.ts', file, String(port)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((r) => child.once('exit', r));
    try {
      const watcher = openDatabase(file, { readonly: true });
      await waitUntil(
        () =>
          (watcher.prepare('SELECT state FROM print_jobs WHERE id = 1').pluck().get() as
            string | undefined) === 'sending',
      );
      watcher.close();
      // 'sending' is committed before the first byte leaves; wait for the bytes too
      await waitUntil(() => swallowed.join('').includes('first'));
    } finally {
      child.kill('SIGKILL');
      await exited;
      blackHole.close();
    }

    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp, { id: 'p1' })], { file });
    spool.start();
    expect(spool.get(1)).toMatchObject({ state: 'unknown', lastErrorCode: 'interrupted' });
    expect(spool.get(1)!.lastError).toMatch(/may or may not have printed/);
    await waitForState(spool, 2, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual(['^XA^PW812^LL1218^FDsecond^FS^XZ']);
    // the shift lead decides it did not print: it prints now, once
    spool.retry(1);
    await waitForState(spool, 1, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual([
      '^XA^PW812^LL1218^FDsecond^FS^XZ',
      '^XA^PW812^LL1218^FDfirst^FS^XZ',
    ]);
  });
});
