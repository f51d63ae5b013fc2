import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { OrderView, PurchaseView, RateQuote } from '../../../src/shared/views.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation, type Sandbox } from './support.js';

async function withStation(work: (s: Station, sandbox: () => Sandbox) => Promise<void>) {
  const { station, sandbox } = demoStation(tempDir());
  await station.start();
  try {
    await work(station, sandbox);
  } finally {
    await station.stop();
  }
}

async function scanOrder(s: Station, orderNumber: string): Promise<OrderView> {
  const found = await call(s, 'pack.scan', { value: orderNumber });
  if (found.kind !== 'order') throw new Error(`${orderNumber}: ${found.kind}`);
  return found.order;
}

describe('Pack through the facade: rate, then buy what was rated', () => {
  it('says which label it is buying while it buys it (a page opened meanwhile shows it)', async () => {
    await withStation(async (s, sandbox) => {
      const order = await scanOrder(s, 'LUM-10422');
      const quote: RateQuote = await call(s, 'pack.rate', {
        orderId: order.id,
        packages: [{ weightLbs: 3.4 }],
      });
      expect(await call(s, 'pack.buying', {})).toEqual({ orders: [] });
      sandbox().faults.add({
        method: 'POST',
        path: '/api/v1/labels',
        kind: 'delay',
        delayMs: 1500,
        times: 1,
      });
      const buy = call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      await new Promise((r) => setTimeout(r, 300));
      expect(await call(s, 'pack.buying', {})).toEqual({
        orders: [{ orderId: order.id, orderNumber: 'LUM-10422', since: expect.any(String) }],
      });
      expect((await buy).label?.orderNumber).toBe('LUM-10422');
      expect(await call(s, 'pack.buying', {})).toEqual({ orders: [] });
    });
  });

  it('a second buy of an order being bought (another tab) is refused as being bought, and the first stays listed', async () => {
    await withStation(async (s, sandbox) => {
      const order = await scanOrder(s, 'LUM-10422');
      const quote: RateQuote = await call(s, 'pack.rate', {
        orderId: order.id,
        packages: [{ weightLbs: 3.4 }],
      });
      sandbox().faults.add({
        method: 'POST',
        path: '/api/v1/labels',
        kind: 'delay',
        delayMs: 1500,
        times: 1,
      });
      const first = call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      await new Promise((r) => setTimeout(r, 300));
      const second = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(second.ok).toBe(false);
      if (second.ok) throw new Error('bought twice');
      expect(second.error.code).toBe('conflict');
      // The page that asked second is told the label is on its way, not that it failed.
      expect(second.error.details).toEqual({ beingBought: true });
      // Until 2026-11-29 the refused call struck the first purchase off `pack.buying`.
      expect(await call(s, 'pack.buying', {})).toEqual({
        orders: [{ orderId: order.id, orderNumber: 'LUM-10422', since: expect.any(String) }],
      });
      expect((await first).label?.orderNumber).toBe('LUM-10422');
      expect(await call(s, 'pack.buying', {})).toEqual({ orders: [] });
      expect(sandbox().ledger().length).toBe(1);
    });
  });

  it('buys the rate the packer picked and says who chose it', async () => {
    await withStation(async (s, sandbox) => {
      const order = await scanOrder(s, 'LUM-10422');
      await call(s, 'settings.update', { userName: 'ana' });
      const quote: RateQuote = await call(s, 'pack.rate', {
        orderId: order.id,
        packages: [{ weightLbs: 3.4 }],
      });
      expect(quote.queued).toBe(false);
      expect(quote.rates.length).toBeGreaterThan(1);
      const other = quote.rates.find((r) => r.id !== quote.chosenRateId)!;

      const bought: PurchaseView = await call(s, 'pack.buy', {
        shipmentId: quote.shipmentId,
        rate: { carrierAccountId: other.carrierAccountId, serviceLevel: other.serviceLevel },
      });
      expect(bought.label?.serviceLevel).toBe(other.serviceLevel);
      expect(bought.message).toContain('chosen by ana at the station');
      const ledger = sandbox().ledger();
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({
        serviceLevel: other.serviceLevel,
        carrierAccountId: other.carrierAccountId,
      });
    });
  });

  it('takes one weight and box per package; a package with no weight is refused by name', async () => {
    await withStation(async (s, sandbox) => {
      const order = await scanOrder(s, 'LUM-10424');
      expect(order.packages.map((p) => p.box)).toEqual(['BOX-L', 'BOX-M']);
      const settings = await call(s, 'settings.get', {});
      const boxL = settings.boxes.find((b) => b.code === 'BOX-L')!;

      const missing = await s.dispatch('pack.rate', {
        orderId: order.id,
        packages: [{ weightLbs: 6.2, boxId: boxL.id }, { weightLbs: null }],
      });
      expect(missing).toMatchObject({
        ok: false,
        error: { code: 'validation', message: expect.stringContaining('Package 2 of 2') },
      });
      const short = await s.dispatch('pack.rate', {
        orderId: order.id,
        packages: [{ weightLbs: 6.2 }],
      });
      expect(short).toMatchObject({ ok: false, error: { code: 'validation' } });
      const badBox = await s.dispatch('pack.rate', {
        orderId: order.id,
        packages: [{ weightLbs: 6.2, boxId: 'no-such-box' }, { weightLbs: 3 }],
      });
      expect(badBox).toMatchObject({ ok: false, error: { message: /Package 1: box/ } });
      expect(sandbox().ledger()).toHaveLength(0);

      const quote = await call(s, 'pack.rate', {
        orderId: order.id,
        packages: [
          { weightLbs: 6.4, boxId: boxL.id },
          { weightLbs: 3.3, boxId: null },
        ],
      });
      const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      expect(bought.outcome).toBe('printing');
      expect(sandbox().ledger()).toHaveLength(1);
    });
  });

  it('a shipment id from another profile or a made-up one is not found', async () => {
    await withStation(async (s) => {
      const r = await s.dispatch('pack.buy', { shipmentId: '424242' });
      expect(r).toMatchObject({ ok: false, error: { code: 'not-found' } });
    });
  });
});
