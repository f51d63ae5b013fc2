import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor } from './support/harness.js';

/**
 * The spec shows no field of the label response. A platform whose answer names no `cost` (here
 * the sandbox's answer with that one field taken out, on its way through a relay) must not make
 * the label free in History and End of day: the station records the price of the rate it bought.
 */
const sb = useSandbox();
let relay: Server;
let relayUrl = '';

beforeAll(async () => {
  relay = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'host',
        ),
      );
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      void fetch(`${sb.url}${req.url ?? ''}`, { method: req.method, headers, body })
        .then(async (answer) => {
          let text = await answer.text();
          if (req.method === 'POST' && req.url === '/api/v1/labels' && answer.ok) {
            const { cost: _cost, ...rest } = JSON.parse(text) as Record<string, unknown>;
            text = JSON.stringify(rest);
          }
          res.writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  relayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => relay.close(() => resolve())));

describe('a label answer without a cost', () => {
  it('is recorded at the price of the rate bought, not 0.00', async () => {
    const station = await stationFor((p) => lumenProfile(relayUrl, p));
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
