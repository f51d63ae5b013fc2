import { afterEach, describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { tempDir } from '../../support/tmp.js';
import { allPrinted, call, demoStation } from './support.js';

const open: Station[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.stop();
});

describe('a reprint’s print job (shift lead, Queue)', () => {
  it('keeps the reason it was printed again, as the Queue shows it', async () => {
    const { station: s } = demoStation(tempDir());
    open.push(s);
    await s.start();
    const scan = await call(s, 'pack.scan', { value: 'LUM-10421' });
    if (scan.kind !== 'order') throw new Error(`LUM-10421 is not an order: ${scan.kind}`);
    const quote = await call(s, 'pack.rate', {
      orderId: scan.order.id,
      packages: scan.order.packages.map((p) => ({ weightLbs: p.weightLbs ?? 2, boxId: null })),
    });
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    await allPrinted(s);

    const job = await call(s, 'labels.reprint', { id: bought.label!.id, reason: 'jammed' });
    expect(job.description).toMatch(/^reprint .*\(jammed/);
    const stored = s.context.spool.get(Number(job.id));
    expect(stored?.reason).toMatch(/^jammed/);
  });
});
