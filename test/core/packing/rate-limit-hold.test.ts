import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor, type TestStation } from './support/harness.js';

const sb = useSandbox();

function rate(station: TestStation, orderNumber: string) {
  return station.workflow.rate(orderId(station, orderNumber), { packages: [{ weightLbs: 2 }] });
}

describe("the platform's Retry-After holds the station's next requests, not only the call's own", () => {
  it('a 429 on rates: the next scan within the wait is told at once and sends nothing', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    sb.fault({
      method: 'POST',
      path: '/api/v1/rates',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 30,
      times: 1,
    });
    const first = await rate(station, 'LUM-10421');
    expect(first).toMatchObject({
      outcome: 'unreachable',
      failure: { message: expect.stringMatching(/HTTP 429.*30 s/) },
    });
    // The fault was used up: had the next scan asked, the platform would have rated it.
    const next = await rate(station, 'LUM-10422');
    expect(next).toMatchObject({
      outcome: 'unreachable',
      failure: {
        message: expect.stringMatching(
          /asked the station to wait before asking for rates again \(too many requests, HTTP 429\): (29|30) s more\. Nothing was sent.*Nothing was bought or queued/,
        ),
      },
    });
  });

  it('once the wait is over, rates are asked again', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    sb.fault({
      method: 'POST',
      path: '/api/v1/rates',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 1,
      // The call's own retries wait the second too: every attempt of the first call is refused.
      times: 3,
    });
    expect(await rate(station, 'LUM-10423')).toMatchObject({ outcome: 'unreachable' });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await rate(station, 'LUM-10423')).toMatchObject({ outcome: 'rated' });
  });

  it("a 429 on a purchase: the next Ctrl+Enter within the wait is queued unsent, and the queue waits out the platform's time", async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow, attention } = station;
    const first = await rate(station, 'LUM-10425');
    const second = await rate(station, 'LUM-10426');
    if (first.outcome !== 'rated' || second.outcome !== 'rated')
      throw new Error(JSON.stringify([first, second]));
    sb.fault({
      method: 'POST',
      path: '/api/v1/labels',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 30,
      times: 1,
    });
    // Turned away: almost certainly not bought, but a shift lead looks (as before).
    expect(await workflow.buy(first.shipment.id, { stationUser: 'ana' })).toMatchObject({
      outcome: 'unknown',
    });
    const before = Date.now();
    const queued = await workflow.buy(second.shipment.id, { stationUser: 'ana' });
    expect(queued).toMatchObject({
      outcome: 'queued',
      failure: {
        message: expect.stringMatching(
          /wait before buying labels again \(too many requests, HTTP 429\): (29|30) s more\. Nothing was sent/,
        ),
      },
    });
    expect(await ledgerFor(sb.url, 'LUM-10426')).toEqual([]);
    expect(attention.list().map((i) => i.orderNumber)).toEqual(['LUM-10425']);
    // The queue does not try before the platform's wait is over.
    const entry = workflow.queue.forShipment(second.shipment.id)!;
    expect(Date.parse(entry.nextAttemptAt) - before).toBeGreaterThan(28_000);
  });
});
