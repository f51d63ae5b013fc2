import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import { call, demoStationsPerTest } from './support.js';

/**
 * A test page is asked for in Settings and said there: one the printer drops is not a Needs
 * attention item with a label's decisions (mark it printed, retry, cancel), and it does not
 * stay on the Queue or in the header's counts. A demo station, a real TCP printer.
 */

const stations = demoStationsPerTest();

describe('Settings → Test print on a printer that drops the page', () => {
  it.each([
    ['halfway through the page', 'failed', (vp: Drops) => vp.dropNextJobMidway()],
    ['after the page, before confirming it', 'unknown', (vp: Drops) => vp.dropAfterNextLabel()],
  ] as const)('dropped %s: said in Settings only, never a label item', async (_, state, drop) => {
    const { s } = await stations.start();
    const vp = await startVirtualPrinter({ dpi: 203 });
    stations.onEnd(() => vp.close());
    const view = await call(s, 'printers.add', {
      name: 'Dock 6 dropper',
      host: '127.0.0.1',
      port: vp.port,
      dpi: 203,
      role: 'label',
    });
    const id = view.printers.find((p) => p.name === 'Dock 6 dropper')!.id;
    drop(vp);

    const job = await call(s, 'printers.testPrint', { printerId: id });
    // Settings' answer says what happened and what to do; nothing asks to mark it printed.
    expect(job.kind).toBe('test');
    expect(job.state).toBe(state);
    expect(job.lastError).toMatch(/ try again\.$/);
    expect(job.lastError).not.toMatch(/mark it printed|send it again/);

    expect(await call(s, 'attention.list', {})).toEqual([]);
    expect((await call(s, 'queue.list', {})).printJobs).toEqual([]);
    const status = await call(s, 'station.status', {});
    expect(status.needsAttention).toBe(0);
    expect(status.queue.printJobs).toBe(0);
    // Not sent again by itself.
    await new Promise((r) => setTimeout(r, 500));
    expect(s.context.spool.get(Number(job.id))?.state).toBe(state);
  });
});

type Drops = Awaited<ReturnType<typeof startVirtualPrinter>>;
