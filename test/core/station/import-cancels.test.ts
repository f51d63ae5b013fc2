import { describe, expect, it } from 'vitest';
import { exportFile, shipStationRow } from '../../support/order-exports.js';
import { call, demoStationsPerTest } from './support.js';

// Through the contract: Orders → Import with a store's later export cancels the order it says
// the store cancelled, so the Orders view counts it as cancelled, with the export as the reason.

const stations = demoStationsPerTest();

const row = (status: string) => shipStationRow('SC-7', { 'Order - Status': status });
const file = (status: string) => exportFile('shipstation-orders-export.csv', [row(status)]);

describe('orders.import of an export that cancels an order open here', () => {
  it('cancels it at the station and says so in the import', async () => {
    const { s } = await stations.start();
    await call(s, 'orders.import', { fileName: 'morning.csv', content: file('Awaiting Shipment') });
    const later = await call(s, 'orders.import', {
      fileName: 'noon.csv',
      content: file('Cancelled'),
    });
    expect(later.imported).toBe(0);
    // Said apart from the file's problems: the export's word, not a fault of the file.
    expect(later.errors).toEqual([]);
    expect(later.closedCount).toBe(1);
    expect(later.closed).toEqual([
      expect.objectContaining({
        orderNumber: 'SC-7',
        reason: expect.stringMatching(/; it was open here, and is now cancelled here \(/),
      }),
    ]);
    const page = await call(s, 'orders.page', { statuses: ['cancelled'] });
    expect(page.rows.map((r) => [r.orderNumber, r.reason])).toEqual([
      ['SC-7', 'Cancelled by order import: the export noon.csv says Order - Status is Cancelled'],
    ]);
  });
});
