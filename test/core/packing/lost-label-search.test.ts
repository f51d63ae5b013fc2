import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor, type TestStation } from './support/harness.js';

/**
 * Needs attention → Look up pages the platform's tracker list, which comes oldest first. A
 * tenant's history can be longer than the look-up reads (50 pages of 1,000 at the station; here
 * 1-tracker pages), and the lost label is the newest tracker: the look-up must start near the
 * purchase, and must never say "no label" about a search that stopped short.
 */
const DAY_S = 86_400;
// The sandbox starts three days ago: the labels bought first are three days old.
const sb = useSandbox({ startTime: Date.now() - 3 * DAY_S * 1000 });

async function shipOk(station: TestStation, orderNumber: string): Promise<string> {
  const result = await station.workflow.ship(orderId(station, orderNumber), {
    packages: [{ weightLbs: 2 }],
    stationUser: 'ana',
  });
  if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
  return result.label.trackingNumber;
}

/** Brings the sandbox clock up to real time (it starts three days behind). */
async function catchUp(): Promise<void> {
  const behind = Date.now() - sb.sandbox.clock.now().getTime();
  if (behind > 1000) await sb.advance(Math.ceil(behind / 1000));
}

/** A purchase the platform sold but whose answer was lost: unknown, waiting in Needs attention. */
async function lostPurchase(station: TestStation, orderNumber: string) {
  sb.fault({ method: 'POST', path: '/api/v1/labels', kind: 'reset', times: 1, after: true });
  const result = await station.workflow.ship(orderId(station, orderNumber), {
    packages: [{ weightLbs: 2 }],
    stationUser: 'ana',
  });
  if (result.outcome !== 'unknown') throw new Error(JSON.stringify(result));
  const [item] = station.attention.list();
  const sold = (await ledgerFor(sb.url, orderNumber)).find(
    (e) => e.orderReference === item?.orderReference,
  );
  if (!sold || !item) throw new Error('no lost purchase');
  return { sold, item };
}

describe('Needs attention: looking up a lost label on a long tracker list', () => {
  it('finds the lost label behind older trackers than the look-up reads', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p), {
      trackerSearch: { pageSize: 1, maxPages: 2 },
    });
    station.importSamples();
    // Three days of history first: their trackers are delivered and done three days ago.
    for (const n of ['LUM-10421', 'LUM-10422', 'LUM-10425']) {
      const trackingNumber = await shipOk(station, n);
      const res = await fetch(`${sb.url}/sandbox/trackers/${trackingNumber}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'DELIVERED' }),
      });
      expect(res.status).toBe(200);
    }
    await catchUp();

    const { sold, item } = await lostPurchase(station, 'LUM-10423');
    const found = await station.attention.lookUp(item.purchase.id, 'rosa');
    if (!found.found) throw new Error(found.message);
    expect(found.label.trackingNumber).toBe(sold.trackingNumber);
    expect(station.workflow.shipments.purchase(item.purchase.id)).toMatchObject({
      state: 'purchased',
      resolution: 'found on the platform',
    });
  });

  it('a search cut short says it cannot tell, never "no label"', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p), {
      trackerSearch: { pageSize: 1, maxPages: 1 },
    });
    station.importSamples();
    await catchUp();
    // Bought just before the lost one: the first tracker of the look-up's window.
    await shipOk(station, 'LUM-10421');
    const { item } = await lostPurchase(station, 'LUM-10422');

    const result = await station.attention.lookUp(item.purchase.id, 'rosa');
    expect(result).toMatchObject({ found: false });
    const message = (result as { message: string }).message;
    expect(message).not.toMatch(/has no label/);
    expect(message).toContain(item.orderReference);
    expect(message).toMatch(/cannot tell whether the label was bought/);
    expect(message).toMatch(/Do not mark it as not bought or buy again/);
    // Still waiting for the shift lead's decision.
    expect(station.attention.list().map((i) => i.purchase.id)).toEqual([item.purchase.id]);
  });
});
