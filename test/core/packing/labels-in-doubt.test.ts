import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor, type TestStation } from './support/harness.js';

const sb = useSandbox();
const labels = '/api/v1/labels';

async function rated(station: TestStation, orderNumber: string): Promise<number> {
  const result = await station.workflow.rate(orderId(station, orderNumber), {
    packages: [{ weightLbs: 2 }],
  });
  if (result.outcome !== 'rated') throw new Error(JSON.stringify(result));
  return result.shipment.id;
}

describe('a purchase after a label request went unanswered: the route is asked first', () => {
  it('a platform that accepts and resets every purchase: the second Ctrl+Enter is queued, not sent into the fault', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow, attention, client } = station;
    // Both orders rated while the platform answered (a scan, or the pre-rater after the import).
    const first = await rated(station, 'LUM-10421');
    const second = await rated(station, 'LUM-10422');
    sb.fault({ method: 'POST', path: labels, kind: 'reset' });

    // The first purchase's connection is reset: nothing can tell whether it was bought.
    expect(await workflow.buy(first, { stationUser: 'ana' })).toMatchObject({
      outcome: 'unknown',
    });
    // Not yet "offline" (one failure), but the purchase route is in doubt.
    expect(client.connectivity.reachable).toBe(true);

    const queued = await workflow.buy(second, { stationUser: 'ana' });
    expect(queued).toMatchObject({
      outcome: 'queued',
      failure: {
        code: 'platform-unreachable',
        message: expect.stringMatching(
          /did not answer the last label request .*nothing was sent or bought: the shipment was queued/,
        ),
      },
    });
    // One purchase for a shift lead to look up, not two; the second order bought nothing.
    expect(attention.list().map((i) => i.orderNumber)).toEqual(['LUM-10421']);
    expect(await ledgerFor(sb.url, 'LUM-10422')).toEqual([]);
    expect(workflow.shipments.get(second)).toMatchObject({ state: 'queued' });

    // Once the platform answers, the queue buys it, once, at the rate the packer had.
    sb.clearFaults();
    expect(await workflow.continueQueued(second)).toMatchObject({ outcome: 'printed' });
    expect(await ledgerFor(sb.url, 'LUM-10422')).toHaveLength(1);
  });

  it('one reset, then the platform answers: the next purchase goes through at once after the check', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    const { workflow, client } = station;
    const first = await rated(station, 'LUM-10423');
    const second = await rated(station, 'LUM-10425');
    sb.fault({ method: 'POST', path: labels, kind: 'reset', times: 1 });
    expect(await workflow.buy(first, { stationUser: 'ana' })).toMatchObject({
      outcome: 'unknown',
    });
    expect(client.connectivity.unanswered('labels')).not.toBeNull();

    expect(await workflow.buy(second, { stationUser: 'ana' })).toMatchObject({
      outcome: 'printed',
    });
    expect(await ledgerFor(sb.url, 'LUM-10425')).toHaveLength(1);
    // The check's refusal was an answer of the purchase route: nothing in doubt any more.
    expect(client.connectivity.unanswered('labels')).toBeNull();
  });
});
