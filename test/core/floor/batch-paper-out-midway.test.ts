import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import type { BatchView } from '../../../src/shared/views.js';
import { call, demoStationsPerTest, onlyLabelPrinter, until } from '../station/support.js';

/**
 * Trial of 2026-11-29 (late night): on a platform that answers at once (the embedded sandbox,
 * no latency) a batch bought every label before the printer's paper-out at label 7 was known:
 * the labels sat in the spool. With real latency it paused near 7. The batch now buys at most a
 * couple of labels ahead of what the printer has printed, whatever the platform's latency.
 */
const stations = demoStationsPerTest();

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku';
const orders = Array.from({ length: 20 }, (_, i) => `MID-${String(i + 1).padStart(2, '0')}`);
const file = [
  header,
  ...orders.map((n, i) => `${n},Ann Lee ${i},${i + 1} Main St,Evanston,IL,60201,US,1.5,MUG`),
].join('\n');

describe('a batch whose printer runs out of paper at label 7, on a platform that answers at once', () => {
  it('stops buying near label 7, not at the end of the batch; goes on once paper is back; each label prints once', async () => {
    const { s, sandbox } = await stations.start({}, { latencyMs: 0 });
    const printer = await startVirtualPrinter({ port: 0 });
    stations.onEnd(() => printer.close());
    await onlyLabelPrinter(s, 'Dock ZD421', printer.port);
    await call(s, 'orders.import', { fileName: 'mid.csv', content: file });
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'ready');
    // The roll runs out as label 6 comes out: label 7 stays in the printer.
    printer.on('label', (label) => {
      if (label.seq === 6) printer.setFault('paper-out');
    });

    const started = await call(s, 'batch.start', {
      filter: { search: 'MID-' },
      description: 'twenty',
    });
    expect(started.total).toBe(orders.length);
    const batch = () =>
      call(s, 'batch.list', {}).then((all) => all.find((b) => b.id === started.id)!);
    let held: BatchView | undefined;
    await until(async () => {
      held = await batch();
      return held.state === 'paused' || held.state === 'done';
    });
    expect(held).toMatchObject({
      state: 'paused',
      heldBy: expect.stringMatching(/Dock ZD421.*out of paper/),
    });
    // Six printed; label 7 in the printer and at most a couple more bought ahead of it.
    expect(printer.labels).toHaveLength(6);
    expect(held!.bought).toBeGreaterThanOrEqual(7);
    expect(held!.bought).toBeLessThanOrEqual(9);
    expect(held!.waiting).toBe(orders.length - held!.bought);
    // Those not printed wait in the spool (label 6 too, until the printer says it came out).
    expect(held!.printWaiting).toBeGreaterThanOrEqual(held!.bought - 6);
    expect(held!.printWaiting).toBeLessThanOrEqual(held!.bought - 5);

    // Paper back in: the waiting labels print, and the batch buys the rest by itself.
    printer.setFault(null);
    await until(async () => (await batch()).state === 'done');
    expect(await batch()).toMatchObject({ bought: orders.length, waiting: 0, heldBy: null });
    await until(() => printer.labels.length === orders.length);
    const printedFor = printer.labels.map((l) => /MID-\d\d/.exec(l.zpl)?.[0]).sort();
    expect(printedFor).toEqual(orders);
    expect(
      sandbox()
        .ledger()
        .filter((e) => e.orderReference?.startsWith('MID-')),
    ).toHaveLength(orders.length);
  });
});
