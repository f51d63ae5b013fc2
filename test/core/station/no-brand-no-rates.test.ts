import { describe, expect, it } from 'vitest';
import { demoWorld } from '../../../src/sandbox/index.js';
import { call, demoStationsPerTest, rateOrder, harborProfile } from './support.js';

/**
 * Trial J: a 3PL station (brands ticked) imported an order whose file named no brand. It was
 * rated as the 3PL's own, which has no carrier account of its own, and Pack said "No rates: The
 * platform refused the rate request: No carrier account available to tenant "tnt_bramble" can
 * rate this shipment": a tenant id, and nothing a packer or shift lead could act on.
 */
const stations = demoStationsPerTest();

/** The demo world, its 3PL (Harbor) without carrier accounts of its own: only its brands ship. */
function worldWithoutHarborAccounts() {
  const world = demoWorld();
  world.carrierAccounts = world.carrierAccounts.filter((a) => a.tenantId !== 'tnt_harbor');
  return world;
}

describe("a 3PL's order that names no brand, and no carrier account of the 3PL's own", () => {
  it("says the order names no brand and how to put it right, by the brands' names", async () => {
    const { s, sandbox } = await stations.start({}, { fixtures: worldWithoutHarborAccounts() });
    await call(
      s,
      'profiles.create',
      harborProfile(sandbox().url, ['tnt_driftwood', 'tnt_pinecrest']),
    );
    await call(s, 'orders.import', {
      fileName: 'no-brand.csv',
      content: [
        'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
        'NB-1,Ada Okafor,12 Elm St,Dayton,OH,45402,US,2',
      ].join('\n'),
    });
    const rated = await rateOrder(s, 'NB-1');
    expect(rated.ok).toBe(false);
    expect(rated.ok ? null : rated.error.message).toMatch(
      /^No rates: order NB-1 names no brand, so it was rated as the 3PL's own order, and no carrier account of the 3PL's own can ship it\. If it is an order of Driftwood Coffee Co\. or Pinecrest Outdoor Supply, its order file must name that brand \(the tenant_id column, or the brand column of a saved column mapping\): put it right and import it again\. The platform said: /,
    );
  });
});
