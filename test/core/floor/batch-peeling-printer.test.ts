import { describe, expect, it } from 'vitest';
import { startVirtualPrinter } from '../../../src/core/printing/virtual-printer/server.js';
import type { BatchView } from '../../../src/shared/views.js';
import { call, demoStationsPerTest, onlyLabelPrinter, until } from '../station/support.js';

/**
 * Noticed on 2026-11-30: a batch at a printer that peels labels (each waits, with no fault, until
 * it is taken) stopped buying two labels ahead of it, as it should, but showed only "running".
 * After a few seconds of waiting its progress now says which printer it waits for, for which
 * label, and what a shift lead does about it; the words go once the printer prints again.
 */
const stations = demoStationsPerTest();

const header =
  'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku';
const orders = ['PEEL-1', 'PEEL-2', 'PEEL-3', 'PEEL-4'];
const file = [
  header,
  ...orders.map((n, i) => `${n},Ann Lee ${i},${i + 1} Main St,Evanston,IL,60201,US,1.5,MUG`),
].join('\n');

describe('a batch at a printer that peels labels and holds the first one, with no fault', () => {
  it('says after a few seconds, while running, that it waits for that printer and why; goes on once the labels are taken', async () => {
    const { s } = await stations.start({}, { latencyMs: 0 });
    const printer = await startVirtualPrinter({ port: 0 });
    stations.onEnd(() => printer.close());
    await onlyLabelPrinter(s, 'Dock ZD421', printer.port);
    await call(s, 'orders.import', { fileName: 'peel.csv', content: file });
    await until(async () => (await call(s, 'station.status', {})).printer?.state === 'ready');
    printer.setPeel(true);

    const started = await call(s, 'batch.start', {
      filter: { search: 'PEEL-' },
      description: 'peel',
    });
    expect(started.total).toBe(orders.length);
    const batch = () =>
      call(s, 'batch.list', {}).then((all) => all.find((b) => b.id === started.id)!);
    // Heard through the station's events too (the Orders view's panel follows them).
    const heard: BatchView[] = [];
    s.events.on('batch-progress', (b: BatchView) => heard.push(b));

    const waiting = await until(async () => {
      const b = await batch();
      return b.waitingForPrinter ? b : null;
    });
    expect(waiting).toMatchObject({ state: 'running', bought: 2, printWaiting: 2, heldBy: null });
    // The batch's first order (the batch takes them in the Orders view's order, newest first).
    const first = waiting.items[0]!.orderNumber;
    expect(waiting.waitingForPrinter).toBe(
      `Waiting for Dock ZD421 to print the label of ${first} (1 of 4): the batch buys at most 2 labels ahead of its printer, and Dock ZD421 reports no fault. If it peels labels, take the printed labels off; otherwise look at the printer and at Queue (Alt+3).`,
    );
    expect(heard.some((b) => b.waitingForPrinter === waiting.waitingForPrinter)).toBe(true);
    expect(printer.labels).toHaveLength(0);

    // The labels are taken as they come: the batch goes on, and says nothing more about waiting.
    printer.setPeel(false);
    await until(async () => (await batch()).state === 'done');
    expect(await batch()).toMatchObject({ bought: orders.length, waitingForPrinter: null });
    await until(() => printer.labels.length === orders.length);
  });
});
