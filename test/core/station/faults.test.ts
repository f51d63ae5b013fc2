// Issue #10: the station under platform faults, through the contract a packing screen uses.
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { StationStatus, TrackingBoard } from '../../../src/shared/views.js';
import { tempDir } from '../../support/tmp.js';
import { call, demoStation, type Sandbox } from './support.js';

async function withStation(work: (s: Station, sandbox: Sandbox) => Promise<void>): Promise<void> {
  const made = demoStation(tempDir());
  await made.station.start();
  try {
    await work(made.station, made.sandbox());
  } finally {
    await made.station.stop();
  }
}

async function orderIdOf(s: Station, orderNumber: string): Promise<string> {
  const scan = await call(s, 'pack.scan', { value: orderNumber });
  if (scan.kind !== 'order') throw new Error(`${orderNumber}: ${scan.kind}`);
  return scan.order.id;
}

describe('a tracking outage', () => {
  it('shows as "tracking delayed" on the header and the board and never stops labelling', async () => {
    await withStation(async (s, sandbox) => {
      sandbox.faults.add({ method: 'GET', path: '/api/v1/trackers', kind: 'status', status: 500 });
      const poller = s.context.runtime().poller;
      // Two failed polls: six failed requests, twice the streak that used to mean "offline".
      await expect(poller.pollNow()).rejects.toThrow();
      await expect(poller.pollNow()).rejects.toThrow();

      const status: StationStatus = await call(s, 'station.status', {});
      expect(status.connectivity).toBe('online');
      expect(status.trackingDelayed).toMatch(/^Tracking delayed .*not affected/);
      const board: TrackingBoard = await call(s, 'tracking.board', {});
      expect(board.sync).toMatchObject({ delayed: true });
      expect(board.sync.message).toMatch(/tracker list/);

      const orderId = await orderIdOf(s, 'LUM-10421');
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
      expect(quote.chosenRateId).not.toBeNull();
      const bought = await call(s, 'pack.buy', { shipmentId: quote.shipmentId });
      expect(bought.label?.trackingNumber).toMatch(/\w/);
      expect(sandbox.ledger()).toHaveLength(1);

      // The tracker list answers again: the delay clears.
      sandbox.faults.clear();
      await poller.pollNow();
      expect((await call(s, 'station.status', {})).trackingDelayed).toBeNull();
      expect((await call(s, 'tracking.board', {})).sync.delayed).toBe(false);
    });
  });
});

describe('deadlines a packer can live with', () => {
  it('a hung token endpoint: the scan is queued with the reason, not stalled', async () => {
    await withStation(async (s, sandbox) => {
      const orderId = await orderIdOf(s, 'LUM-10421');
      s.context.runtime().client.tokens.forget();
      sandbox.faults.add({ method: 'POST', path: '/api/v1/tokens/m2m', kind: 'hang' });
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
      expect(quote.queued).toBe(true);
      expect(quote.reason).toMatch(/token request \(no answer within 5 s\)/);
      expect(quote.reason).toMatch(/Nothing was bought/);
      expect(sandbox.ledger()).toHaveLength(0);
    });
  });

  it('a hung rate request: the scan is queued within the rates deadline', async () => {
    await withStation(async (s, sandbox) => {
      const orderId = await orderIdOf(s, 'LUM-10421');
      sandbox.faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'hang' });
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
      expect(quote.queued).toBe(true);
      expect(quote.reason).toMatch(/rate request \(no answer within 8 s\)/);
    });
  });

  it('a hung label request is an unknown outcome after its deadline, never bought again', async () => {
    await withStation(async (s, sandbox) => {
      const orderId = await orderIdOf(s, 'LUM-10422');
      const quote = await call(s, 'pack.rate', { orderId, packages: [{ weightLbs: 3.4 }] });
      // The platform sells the label, and its answer never comes.
      sandbox.faults.add({ method: 'POST', path: '/api/v1/labels', kind: 'hang', after: true });
      const lost = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(lost).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
      const message = lost.ok ? '' : lost.error.message;
      expect(message).toMatch(/no answer within 15 s/);
      expect(message).toMatch(/Do not buy again/);
      const again = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(again).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
      expect(sandbox.ledger()).toHaveLength(1);
    });
  }, 40_000);
});
