import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { orderId, stationFor } from './support/harness.js';

const sb = useSandbox();

describe('the scan path asks the platform only what it must', () => {
  it('a PENDING account keeps its authorization link across scans without a look-up per scan', async () => {
    const station = await stationFor((printers) => lumenProfile(sb.url, printers));
    station.importSamples();
    const operations: string[] = [];
    station.client.observe((e) => operations.push(e.operation));

    const first = await station.workflow.ship(orderId(station, 'LUM-10421'), {
      packages: [{ weightLbs: 2 }],
      stationUser: 'ana',
    });
    const second = await station.workflow.ship(orderId(station, 'LUM-10422'), {
      packages: [{ weightLbs: 3 }],
      stationUser: 'ana',
    });
    for (const result of [first, second]) {
      if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
      expect(result.carrierProblems).toContainEqual(
        expect.objectContaining({
          carrierAccountId: 'ca_lumen_fedex',
          oauthUrl: expect.stringContaining('/sandbox/oauth/conn_lumen_fedex'),
        }),
      );
    }
    // Two scans: two rate requests and two purchases, and the link was looked up once.
    expect(operations.filter((o) => o === 'getRates')).toHaveLength(2);
    expect(operations.filter((o) => o === 'purchaseLabel')).toHaveLength(2);
    expect(operations.filter((o) => o === 'getCarrierAccount')).toHaveLength(1);
  });
});
