import { describe, expect, it } from 'vitest';
import { importOrders } from '../../../src/core/orders/order-import.js';
import { OrderList } from '../../../src/core/orders/order-list.js';
import { cancelClosedOrder } from '../../../src/core/packing/order-cancel.js';
import { exportFile, shipStationRow } from '../../support/order-exports.js';
import { useSandbox } from '../../support/sandbox.js';
import { ledgerFor, orderId, stationFor, statusDrift } from '../packing/support/harness.js';
import { lumenProfile, tenantPolicy } from '../packing/support/station.js';

// An order imported open, that a later export of the store says is cancelled or shipped: the
// import cancels it at the station (as a shift lead would), so nothing buys it; one with a label
// is left, and said.

const sb = useSandbox();

const row = (number: string, status: string) =>
  shipStationRow(number, { 'Order - Status': status });

async function station() {
  const s = await stationFor((printers) => lumenProfile(sb.url, printers));
  const logged: string[] = [];
  const importExport = (rows: Record<string, string>[], source: string) =>
    importOrders(
      s.workflow.orders,
      s.workflow.scope,
      tenantPolicy(s.workflow.profile),
      { text: exportFile('shipstation-orders-export.csv', rows), format: 'csv', source },
      { cancelClosed: cancelClosedOrder(s.workflow, (line) => logged.push(line)) },
    );
  return { ...s, importExport, logged, list: new OrderList(s.db) };
}

describe('a later export says an order open here is cancelled or shipped', () => {
  it('the open order is cancelled here with the export as the reason, and nothing buys it; a labelled one is left, and said', async () => {
    const s = await station();
    const first = s.importExport(
      ['SC-1', 'SC-2', 'SC-3', 'SC-4'].map((n) => row(n, 'Awaiting Shipment')),
      'morning.csv',
    );
    expect(first.imported).toEqual(['SC-1', 'SC-2', 'SC-3', 'SC-4']);
    const labelled = orderId(s, 'SC-3');
    expect((await s.workflow.ship(labelled, { stationUser: 'ana' })).outcome).toBe('printed');

    const later = s.importExport(
      [
        row('SC-1', 'Cancelled'),
        row('SC-2', 'Shipped'),
        row('SC-3', 'Cancelled'),
        row('SC-4', 'Awaiting Shipment'),
      ],
      'noon.csv',
    );
    expect(later.same).toEqual(['SC-4']);
    expect(later.problems).toEqual([]);
    expect((later.closed ?? []).map((p) => [p.orderNumber, p.reason])).toEqual([
      [
        'SC-1',
        'nothing to ship: the export says the order is cancelled or refunded (Order - Status is Cancelled); not imported; it was open here, and is now cancelled here (a shift lead reopens it in Orders, Alt+8, if it ships after all)',
      ],
      [
        'SC-2',
        'nothing left to ship: the export says the order has shipped already (Order - Status is Shipped); not imported; it was open here, and is now cancelled here (a shift lead reopens it in Orders, Alt+8, if it ships after all)',
      ],
      [
        'SC-3',
        'nothing to ship: the export says the order is cancelled or refunded (Order - Status is Cancelled); not imported; it has a label here: void the label at the carrier (the station cannot)',
      ],
    ]);
    const cancelled = (n: string) => s.workflow.orders.get(orderId(s, n))!.cancelled;
    expect(cancelled('SC-1')).toMatchObject({
      by: 'order import',
      reason: 'the export noon.csv says Order - Status is Cancelled',
    });
    expect(cancelled('SC-2')).toMatchObject({
      reason: 'the export noon.csv says Order - Status is Shipped',
    });
    expect(cancelled('SC-3')).toBeUndefined();
    expect(s.list.statusOf([labelled]).get(labelled)).toBe('labelled');
    expect(s.logged).toEqual([
      'orders cancelled by order import (the export noon.csv says Order - Status is Cancelled): SC-1',
      'orders cancelled by order import (the export noon.csv says Order - Status is Shipped): SC-2',
    ]);
    expect(statusDrift(s.db)).toEqual([]);

    // A packer's scan of it is refused, naming the export; no label is bought.
    const sold = (await ledgerFor(sb.url, 'SC-1')).length;
    expect(await s.workflow.ship(orderId(s, 'SC-1'), { stationUser: 'ana' })).toMatchObject({
      outcome: 'invalid',
      failure: {
        code: 'order-cancelled',
        message: expect.stringMatching(
          /^Order SC-1 was cancelled by order import \(the export noon\.csv says Order - Status is Cancelled\)/,
        ),
      },
    });
    expect(await ledgerFor(sb.url, 'SC-1')).toHaveLength(sold);

    // The same export again: it is cancelled here already, and nothing else changes.
    const again = s.importExport([row('SC-1', 'Cancelled')], 'noon-again.csv');
    expect(again.closed?.[0]?.reason).toMatch(/; not imported; it is cancelled here already$/);
    expect(s.logged).toHaveLength(2);
  });
});
