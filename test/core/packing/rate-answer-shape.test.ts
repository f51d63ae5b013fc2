import { describe, expect, it } from 'vitest';
import { useAnswerRelay } from '../../support/answer-relay.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { orderId, stationFor } from './support/harness.js';

/**
 * The spec shows one field of a rate: carrierAccount.id. A platform whose rates carry no
 * `amount` the station can read (here the sandbox's rates with `amount` taken out on the way
 * through a relay) cannot be bought from, but the packer must not read "no rates".
 */
const sb = useSandbox();
const relayUrl = useAnswerRelay(
  () => sb.url,
  (method, path, body) => {
    if (method !== 'POST' || path !== '/api/v1/rates') return body;
    const answer = body as { shipmentRates: Record<string, unknown>[] };
    return {
      ...answer,
      shipmentRates: answer.shipmentRates.map(({ amount, ...r }) => ({ ...r, total: amount })),
    };
  },
);

describe('rates the station cannot read', () => {
  it('says how many came back and why none can be bought, not "the platform returned no rates"', async () => {
    const station = await stationFor((p) => lumenProfile(relayUrl(), p));
    station.importSamples();
    const result = await station.workflow.rate(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2 }],
    });
    if (result.outcome !== 'failed') throw new Error(JSON.stringify(result));
    expect(result.failure.code).toBe('no-usable-rate');
    expect(result.failure.message).not.toMatch(/returned no rates/);
    expect(result.failure.message).toMatch(
      /^The platform returned \d+ rates, but without a price and service level the station can read/,
    );
  });
});
