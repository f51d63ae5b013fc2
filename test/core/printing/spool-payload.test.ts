import { describe, expect, it } from 'vitest';
import {
  sampleLabel,
  useVirtualPrinter,
  virtualPrinterConfig,
} from '../../support/virtual-printer.js';
import { openSpool, waitForState } from './spool-support.js';

describe('print spool keeps one copy of a label', () => {
  it('drops the bytes of a printed or cancelled job, keeps its record, and keeps the bytes of one that may be sent again', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    spool.start();
    const printed = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('ORDER-1'),
      orderReference: 'ORDER-1',
    }).job.id;
    await waitForState(spool, printed, 'printed');
    expect(spool.get(printed)).toMatchObject({ state: 'printed', orderReference: 'ORDER-1' });
    expect(spool.payload(printed)!.length).toBe(0);

    // A printer fault keeps the next job waiting with its bytes; cancelling it drops them.
    vp.setFault('paper-out');
    const waiting = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('ORDER-2'),
    }).job.id;
    const waitingBytes = spool.payload(waiting)!.length;
    expect(waitingBytes).toBeGreaterThan(0);
    spool.cancel(waiting);
    expect(spool.get(waiting)!.state).toBe('cancelled');
    expect(spool.payload(waiting)!.length).toBe(0);
    expect(spool.history(waiting).map((e) => e.state)).toContain('cancelled');
  });
});
