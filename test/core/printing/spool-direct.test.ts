import { describe, expect, it } from 'vitest';
import {
  sampleLabel,
  useVirtualPrinter,
  virtualPrinterConfig,
  waitForLabels,
  waitUntil,
} from '../../support/virtual-printer.js';
import { NetworkPrinter } from '../../../src/core/printing/drivers/network.js';
import { openSpool, waitForState } from './spool-support.js';

/**
 * A label's printer is prepared while the label is bought (connection open, status asked):
 * the job is then stored as already being sent and leaves once its transaction commits.
 */
/** The first job of a printer reads its resolution on the way: a started spool past that. */
async function pastFirstJob(spool: ReturnType<typeof openSpool>['spool']) {
  spool.start();
  const { job } = spool.enqueue({
    printerId: 'virtual',
    kind: 'label',
    payload: sampleLabel('FIRST-OF-THE-DAY'),
  });
  expect(job.state).toBe('queued');
  await waitForState(spool, job.id, 'printed');
}

describe('print spool: a job for a prepared, idle printer goes out at once', () => {
  it('is committed as sending (queued, then attempt 1), sent, and confirmed printed', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    await pastFirstJob(spool);
    // The label is being bought: the printer's connection and status are made ready meanwhile.
    await spool.prepare('virtual');
    const { job } = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('DIRECT-1'),
    });
    expect(job.state).toBe('sending');
    expect(job.attempts).toBe(1);
    expect((await waitForLabels(vp, 2)).map((l) => l.zpl)[1]).toEqual(sampleLabel('DIRECT-1'));
    await waitForState(spool, job.id, 'printed');
    expect(spool.history(job.id).map((e) => e.state)).toEqual(['queued', 'sending', 'printed']);
  });

  it('sends nothing when the transaction that stored the job is rolled back', async () => {
    const vp = await useVirtualPrinter();
    const { spool, db } = openSpool([virtualPrinterConfig(vp)]);
    await pastFirstJob(spool);
    await spool.prepare('virtual');
    expect(() =>
      db.transaction(() => {
        const { job } = spool.enqueue({
          printerId: 'virtual',
          kind: 'label',
          payload: sampleLabel('ROLLED-BACK'),
        });
        expect(job.state).toBe('sending');
        throw new Error('the purchase failed after the job was stored');
      })(),
    ).toThrow('purchase failed');
    // A job queued after it prints: the rolled-back one never reaches the printer.
    const next = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('NEXT'),
    });
    await waitForState(spool, next.job.id, 'printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual([
      sampleLabel('FIRST-OF-THE-DAY'),
      sampleLabel('NEXT'),
    ]);
    expect(spool.list().map((j) => j.id)).toEqual([next.job.id, 1]);
  });

  it('takes the usual way when the status read ahead shows a fault: the job waits, queued', async () => {
    const vp = await useVirtualPrinter();
    // The line kept after a job's check closes at once: the status read ahead is asked anew.
    const { spool } = openSpool([virtualPrinterConfig(vp)], {
      createDriver: (c) => new NetworkPrinter(c, { answerTimeoutMs: 5000, idleHoldMs: 1 }),
    });
    await pastFirstJob(spool);
    await waitUntil(() => vp.connections === 0);
    vp.setFault('paper-out');
    await spool.prepare('virtual');
    const { job } = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('WAITS'),
    });
    expect(job.state).toBe('queued');
    await waitUntil(() => spool.get(job.id)?.lastErrorCode === 'printer-fault');
    expect(vp.labels).toHaveLength(1);
    vp.setFault(null);
    await waitForState(spool, job.id, 'printed');
    expect(vp.labels.map((l) => l.zpl)[1]).toEqual(sampleLabel('WAITS'));
  });

  it('keeps the order: with a job already queued for the printer, a new one queues behind it', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    // Not started yet: the first job stays queued.
    const first = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('FIRST'),
    });
    spool.start();
    await spool.prepare('virtual');
    const second = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('SECOND'),
    });
    expect(second.job.state).toBe('queued');
    await waitForState(spool, second.job.id, 'printed');
    expect(spool.get(first.job.id)?.state).toBe('printed');
    expect(vp.labels.map((l) => l.zpl)).toEqual([sampleLabel('FIRST'), sampleLabel('SECOND')]);
  });

  it('a spool stopped before the first byte leaves the job queued, never "may have printed"', async () => {
    const vp = await useVirtualPrinter();
    const { spool } = openSpool([virtualPrinterConfig(vp)]);
    await pastFirstJob(spool);
    await spool.prepare('virtual');
    // Two formats in one job (a two-package label): a cut-off send of it may have printed.
    const { job } = spool.enqueue({
      printerId: 'virtual',
      kind: 'label',
      payload: sampleLabel('PKG-1') + sampleLabel('PKG-2'),
    });
    expect(job.state).toBe('sending');
    await spool.stop();
    expect(spool.get(job.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(vp.labels.map((l) => l.zpl)).toEqual([sampleLabel('FIRST-OF-THE-DAY')]);
  });
});
