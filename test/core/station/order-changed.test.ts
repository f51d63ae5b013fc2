import { describe, expect, it } from 'vitest';
import { call, demoStationsPerTest, orderIdOf, scanOrder, until } from './support.js';

// An order imported again (a corrected address or weight) after it was rated: the rates on
// screen, or a shipment waiting in the offline queue, are for its old version and never bought.

const stations = demoStationsPerTest();

const order = (street: string, city: string, postalCode: string, weightLbs: number) => ({
  orderNumber: 'CHG-1',
  shipTo: {
    name: 'Walt Wu',
    addressLine1: street,
    city,
    stateProvince: 'OR',
    postalCode,
    countryCode: 'US',
  },
  packages: [{ weightLbs, items: [{ sku: 'BB-CHAI', name: 'Chai', quantity: 2 }] }],
});
const importFile = (s: Awaited<ReturnType<typeof stations.start>>['s'], o: object) =>
  call(s, 'orders.import', { fileName: 'erp.json', content: JSON.stringify([o]) });

describe('an order imported again after it was rated', () => {
  it('is not bought at the rates of its old version; scanned again, it is rated and bought as it is now', async () => {
    const { s, sandbox } = await stations.start();
    await importFile(s, order('20 Cedar Rd', 'Eugene', '97401', 3.1));
    const orderId = await orderIdOf(s, 'CHG-1');
    const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.1 }] });
    expect(quote.rates.length).toBeGreaterThan(0);

    // The ERP sends the corrected address while the order is on Pack.
    await importFile(s, order('4500 New Street Apt 9', 'Medford', '97501', 3.1));
    const refused = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        // Its own code (until 2026-11-30 `validation`), and what changed, for Pack to show the
        // order as it is now and rate it again without a new scan.
        code: 'order-changed',
        details: {
          changed: 'its ship-to is now Walt Wu, 4500 New Street Apt 9, Medford, OR, 97501, US',
        },
        message:
          'Order CHG-1 was imported again after it was rated (its ship-to is now Walt Wu, 4500 New Street Apt 9, Medford, OR, 97501, US): those rates are for its old version, so nothing was bought. Scan it again to rate it as it is now.',
      },
    });
    expect(sandbox().ledger()).toHaveLength(0);

    // Scanned again: rated and bought at the new address.
    const scan = await scanOrder(s, 'CHG-1');
    expect(scan.order.shipTo.city).toBe('Medford');
    const again = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.1 }] });
    const bought = await call(s, 'pack.buy', { shipmentId: again.shipmentId });
    expect(bought.label?.trackingNumber).toBeTruthy();
    expect(sandbox().ledger()).toHaveLength(1);
  });

  it('a new version that changes neither the address nor the weight: the rates on screen are bought', async () => {
    const { s, sandbox } = await stations.start();
    await importFile(s, order('20 Cedar Rd', 'Eugene', '97401', 3.1));
    const orderId = await orderIdOf(s, 'CHG-1');
    const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.1 }] });
    const moreChai = order('20 Cedar Rd', 'Eugene', '97401', 3.1);
    moreChai.packages[0]!.items[0]!.quantity = 3;
    await importFile(s, moreChai);
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    expect(bought.label?.trackingNumber).toBeTruthy();
    expect(sandbox().ledger()).toHaveLength(1);
  });

  it('a packer who weighed the box: a new version with other items leaves the weighed rates, one with another file weight does not', async () => {
    const { s, sandbox } = await stations.start();
    await importFile(s, order('20 Cedar Rd', 'Eugene', '97401', 3.1));
    const orderId = await orderIdOf(s, 'CHG-1');
    // Weighed at 3.4 lb on the scale, over the file's 3.1.
    const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.4 }] });
    const moreChai = order('20 Cedar Rd', 'Eugene', '97401', 3.1);
    moreChai.packages[0]!.items[0]!.quantity = 3;
    await importFile(s, moreChai);
    const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
    expect(bought.label?.trackingNumber).toBeTruthy();
    expect(sandbox().ledger()).toHaveLength(1);

    // Another order: the file's weight corrected after the packer rated it at a typed weight.
    const other = { ...order('20 Cedar Rd', 'Eugene', '97401', 3.1), orderNumber: 'CHG-2' };
    await importFile(s, other);
    const otherId = await orderIdOf(s, 'CHG-2');
    const rated = await call(s, 'pack.rate', { orderId: otherId, packages: [{ weightLbs: 3.4 }] });
    await importFile(s, { ...other, packages: [{ ...other.packages[0]!, weightLbs: 12 }] });
    expect(await s.dispatch('pack.buy', { shipmentId: rated.shipmentId })).toMatchObject({
      ok: false,
      error: {
        message:
          'Order CHG-2 was imported again after it was rated (its weight in the order file is now 12 lb): those rates are for its old version, so nothing was bought. Scan it again to rate it as it is now.',
      },
    });
    expect(sandbox().ledger()).toHaveLength(1);
  });

  it('a corrected name alone: the label would carry the old one, so not bought', async () => {
    const { s, sandbox } = await stations.start();
    await importFile(s, order('20 Cedar Rd', 'Eugene', '97401', 3.1));
    const orderId = await orderIdOf(s, 'CHG-1');
    const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.1 }] });
    const renamed = order('20 Cedar Rd', 'Eugene', '97401', 3.1);
    renamed.shipTo.name = 'Walter Wu';
    await importFile(s, renamed);
    const refused = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'order-changed' } });
    expect(refused.ok ? '' : refused.error.message).toContain(
      'its ship-to is now Walter Wu, 20 Cedar Rd, Eugene, OR, 97401, US',
    );
    expect(sandbox().ledger()).toHaveLength(0);
  });

  it('waiting in the offline queue: not bought as it was, failed with the reason', async () => {
    const { s, sandbox } = await stations.start();
    await importFile(s, order('20 Cedar Rd', 'Eugene', '97401', 3.1));
    const orderId = await orderIdOf(s, 'CHG-1');
    sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 503 });
    const queued = await call(s, 'pack.rate', {
      orderId,
      packages: [{ weightLbs: 3.1 }],
      queue: true,
    });
    expect(queued.queued).toBe(true);

    // A heavier box, re-imported while the platform is away; then it answers again.
    await importFile(s, order('20 Cedar Rd', 'Eugene', '97401', 64));
    sandbox().faults.clear();
    const failed = await until(async () => {
      const q = await call(s, 'queue.list', {});
      await call(s, 'queue.retry', {
        kind: 'shipment',
        id: String(q.shipments[0]?.id ?? '0'),
      }).catch(() => undefined);
      const page = await call(s, 'orders.page', { search: 'CHG-1' });
      return page.rows[0]?.status === 'failed' ? page.rows[0] : null;
    });
    expect(failed.reason).toBe(
      'Order CHG-1 was imported again after it was rated (its weight in the order file is now 64 lb): those rates are for its old version, so nothing was bought. Scan it again to rate it as it is now.',
    );
    expect(sandbox().ledger()).toHaveLength(0);
  });
});
