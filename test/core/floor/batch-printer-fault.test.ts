import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import type { BatchView } from '../../../src/shared/views.js';
import { call, demoStationsPerTest, onlyLabelPrinter, until } from '../station/support.js';

const stations = demoStationsPerTest();

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku';
const orders = ['PAP-1', 'PAP-2', 'PAP-3', 'PAP-4', 'PAP-5', 'PAP-6'];
const file = [
  header,
  ...orders.map((n, i) => `${n},Ann Lee ${i},${i + 1} Main St,Evanston,IL,60201,US,1.5,MUG`),
].join('\n');

describe('a batch whose printer runs out of paper (#15.8)', () => {
  it('pauses, saying why, instead of buying every label into a printer that cannot print; goes on by itself when paper is back; each label prints once', async () => {
    const { s, sandbox } = await stations.start();
    const printer = await startVirtualPrinter({ port: 0 });
    stations.onEnd(() => printer.close());
    await onlyLabelPrinter(s, 'Dock ZD421', printer.port);
    await call(s, 'orders.import', { fileName: 'paper.csv', content: file });
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'ready');

    printer.setFault('paper-out');
    const started = await call(s, 'batch.start', {
      filter: { search: 'PAP-' },
      description: 'six',
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
    // The label in hand and at most one more were bought; the rest wait, bought nothing.
    expect(held!.bought).toBeGreaterThanOrEqual(1);
    expect(held!.bought).toBeLessThanOrEqual(2);
    expect(held!.waiting).toBe(orders.length - held!.bought);
    expect(held!.printWaiting).toBe(held!.bought);
    expect(printer.labels).toHaveLength(0);

    // Paper back in: the waiting labels print, and the batch buys the rest by itself.
    printer.setFault(null);
    await until(async () => (await batch()).state === 'done');
    const done = await batch();
    expect(done).toMatchObject({ bought: orders.length, waiting: 0, heldBy: null });
    await until(() => printer.labels.length === orders.length);
    const printedFor = printer.labels.map((l) => /PAP-\d/.exec(l.zpl)?.[0]).sort();
    expect(printedFor).toEqual(orders);
    expect(
      sandbox()
        .ledger()
        .filter((e) => e.orderReference?.startsWith('PAP-')),
    ).toHaveLength(orders.length);
  });
});
