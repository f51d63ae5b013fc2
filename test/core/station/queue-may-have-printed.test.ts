import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import { call, demoStationsPerTest, onlyLabelPrinter, packOrder, until } from './support.js';

/**
 * A label the printer took but never confirmed (the line dropped after it) may be on the box:
 * the Queue shows it as such, never as failed, and "It printed" there is Needs attention's own
 * decision on the same job. A demo station on its embedded sandbox, a real TCP printer.
 */

const stations = demoStationsPerTest();

describe('the Queue and a print job that may have printed', () => {
  it('lists it as unknown (not failed), and Needs attention\'s "mark printed" on it takes it off the Queue', async () => {
    const { s } = await stations.start();
    const vp = await startVirtualPrinter({ dpi: 203 });
    stations.onEnd(() => vp.close());
    await onlyLabelPrinter(s, 'ZD421', vp.port);
    vp.dropAfterNextLabel();
    await packOrder(s, 'LUM-10421');

    const job = await until(async () =>
      (await call(s, 'queue.list', {})).printJobs.find(
        (j) => j.state !== 'queued' && j.state !== 'sending',
      ),
    );
    expect(job.state).toBe('unknown');
    expect(job.lastError).toMatch(/may or may not have printed/);
    expect(s.context.spool.get(Number(job.id))?.state).toBe('unknown');
    // The printer did print it once: nothing was sent twice by the station.
    expect(vp.labels.length).toBe(1);
    // The header's Queue count is the Queue page's rows, this job among them.
    expect((await call(s, 'station.status', {})).queue.printJobs).toBe(1);
    const [item] = (await call(s, 'attention.list', {})).filter((i) => i.kind === 'print-failed');
    expect(item!.id).toBe(`print:${job.id}`);
    expect(item!.actions).toContain('mark-printed');

    // The Queue's "It printed" is that item's call.
    const done = await call(s, 'attention.resolve', {
      id: `print:${job.id}`,
      action: 'mark-printed',
    });
    expect(done.message).toBe(
      `Print job ${job.id} marked printed by packer: it is not sent again.`,
    );
    expect((await call(s, 'queue.list', {})).printJobs).toEqual([]);
    expect((await call(s, 'station.status', {})).queue.printJobs).toBe(0);
    expect((await call(s, 'attention.list', {})).filter((i) => i.kind === 'print-failed')).toEqual(
      [],
    );
    expect(vp.labels.length).toBe(1);
  });
});
