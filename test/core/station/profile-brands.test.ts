import { describe, expect, it } from 'vitest';
import { addPackerAndLead, call, demoStationsPerTest, harborProfile } from './support.js';

const stations = demoStationsPerTest();

const HEADER =
  'order_number,tenant_id,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku,item_name,quantity';
const pinecrestFile = {
  fileName: 'pinecrest.csv',
  content: [
    HEADER,
    'PINE-1,tnt_pinecrest,Pat Pine,12 Elm St,Newark,NJ,07102,US,2,SKU-1,Mug,1',
  ].join('\n'),
};

describe("a 3PL profile's brands after it was made (Settings → Brands)", () => {
  it('lists the tenants under the 3PL from the platform, adds a new brand whose orders then import, refuses a tenant not under it', async () => {
    const { s, sandbox } = await stations.start();
    const created = await call(
      s,
      'profiles.create',
      harborProfile(sandbox().url, ['tnt_driftwood']),
    );
    // Pinecrest signed with the 3PL after the station was set up: its orders are refused.
    const refused = await call(s, 'orders.import', pinecrestFile);
    expect(refused.imported).toBe(0);

    const brands = await call(s, 'profiles.brands', { id: created.id });
    expect(brands.chosen).toEqual(['tnt_driftwood']);
    expect(brands.options.map((o) => o.tenantId)).toEqual(
      expect.arrayContaining(['tnt_driftwood', 'tnt_pinecrest']),
    );

    // A tenant that is not under the 3PL (another merchant of the platform): refused, unchanged.
    const wrong = await s.dispatch('profiles.setBrands', {
      id: created.id,
      brandTenantIds: ['tnt_driftwood', 'tnt_lumen'],
    });
    expect(wrong).toMatchObject({
      ok: false,
      error: {
        code: 'validation',
        message:
          'tnt_lumen is not a brand under tenant tnt_harbor on the platform: the brands were not changed.',
      },
    });
    expect((await call(s, 'profiles.brands', { id: created.id })).chosen).toEqual([
      'tnt_driftwood',
    ]);

    const updated = await call(s, 'profiles.setBrands', {
      id: created.id,
      brandTenantIds: ['tnt_driftwood', 'tnt_pinecrest'],
    });
    expect(updated.brands.map((b) => b.tenantId)).toEqual(['tnt_driftwood', 'tnt_pinecrest']);
    expect(updated.brands.find((b) => b.tenantId === 'tnt_pinecrest')!.name).not.toBe(
      'tnt_pinecrest',
    );
    const imported = await call(s, 'orders.import', pinecrestFile);
    expect(imported.imported).toBe(1);
  });

  it('is a shift lead’s change where users are set up', async () => {
    const { s, sandbox } = await stations.start();
    const created = await call(s, 'profiles.create', harborProfile(sandbox().url));
    await addPackerAndLead(s);
    await s.context.session.signIn({ userId: 'ana', pin: '4821' });
    const asked = await s.dispatch('profiles.setBrands', {
      id: created.id,
      brandTenantIds: ['tnt_pinecrest'],
    });
    expect(asked).toMatchObject({
      ok: false,
      error: {
        code: 'lead-required',
        message: expect.stringContaining(
          'A shift lead must approve changing the brands this station ships for (profile Harbor Edison)',
        ),
      },
    });
    expect((await call(s, 'profiles.brands', { id: created.id })).chosen).toEqual([]);
    await s.context.session.approve({ badge: 'BADGE-0042' });
    const updated = await call(s, 'profiles.setBrands', {
      id: created.id,
      brandTenantIds: ['tnt_pinecrest'],
    });
    expect(updated.brands.map((b) => b.tenantId)).toEqual(['tnt_pinecrest']);
  });
});
