import { describe, expect, it } from 'vitest';
import { useAnswerRelay } from '../../support/answer-relay.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor } from './support/harness.js';

/**
 * The spec shows no field of the label response. A platform whose answer names no `cost` (here
 * the sandbox's answer with that one field taken out, on its way through a relay) must not make
 * the label free in History and End of day: the station records the price of the rate it bought.
 */
const sb = useSandbox();
const relayUrl = useAnswerRelay(
  () => sb.url,
  (method, path, body) => {
    if (method !== 'POST' || path !== '/api/v1/labels') return body;
    const { cost: _cost, ...rest } = body as Record<string, unknown>;
    return rest;
  },
);

describe('a label answer without a cost', () => {
  it('is recorded at the price of the rate bought, not 0.00', async () => {
    const station = await stationFor((p) => lumenProfile(relayUrl(), p));
    station.importSamples();
    const result = await station.workflow.ship(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2 }],
      stationUser: 'ana',
    });
    if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
    const [sold] = await ledgerFor(sb.url, 'LUM-10421');
    // The platform charged what was quoted; the station's record says the same.
    expect(sold!.amount).toBe(result.selection.rate.amount);
    expect(result.label).toMatchObject({
      costCents: Math.round(sold!.amount * 100),
      currency: 'USD',
    });
    const row = station.db
      .prepare('SELECT cost_cents FROM labels WHERE tracking_number = ?')
      .get(result.label.trackingNumber) as { cost_cents: number };
    expect(row.cost_cents).toBe(Math.round(sold!.amount * 100));
  });
});
