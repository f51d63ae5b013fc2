import { describe, expect, it } from 'vitest';
import { demoWorld } from '../../../src/sandbox/index.js';
import { call, demoStationsPerTest, packOrder, harborProfile } from './support.js';

/**
 * Trial J: a profile made in Settings → New profile took its ship-from from the shipping site's
 * address alone, with no name and no company (the sandbox's sites have none): every label's
 * FROM block was a street with nobody to return the parcel to.
 */
const stations = demoStationsPerTest();

/** The demo world, its Edison site's address naming no one (as a platform's site may). */
function worldWithAnonymousSite() {
  const world = demoWorld();
  const site = world.shippingSites.find((x) => x.id === 'site_harbor_edison')!;
  const { company: _c, name: _n, phone: _p, ...address } = site.address!;
  site.address = address;
  return world;
}

describe('a profile created in Settings', () => {
  it("ships from its tenant's name when the site's address names no one", async () => {
    const { s, sandbox } = await stations.start({}, { fixtures: worldWithAnonymousSite() });
    const created = await call(
      s,
      'profiles.create',
      harborProfile(sandbox().url, ['tnt_driftwood']),
    );
    expect(s.context.profiles.get(created.id)!.shipFrom).toMatchObject({
      company: 'Harbor Fulfillment',
      addressLine1: '300 Raritan Center Pkwy',
    });
    await call(s, 'orders.import', {
      fileName: 'one.csv',
      content: [
        'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs',
        'SF-1,tnt_driftwood,Ada Okafor,12 Elm St,Dayton,OH,45402,US,2',
      ].join('\n'),
    });
    const bought = await packOrder(s, 'SF-1');
    const label = await call(s, 'labels.get', { id: bought.label!.id });
    const from = label.zpl!.slice(label.zpl!.indexOf('FROM'), label.zpl!.indexOf('SHIP TO'));
    expect(from).toContain('Harbor Fulfillment');
  });
});
