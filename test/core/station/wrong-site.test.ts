import { describe, expect, it } from 'vitest';
import { demoStationsPerTest, orderIdOf } from './support.js';

const stations = demoStationsPerTest();

describe('a profile whose shipping site the platform does not know', () => {
  it("says at Pack that the profile's shipping site is wrong and who mends it", async () => {
    const { s } = await stations.start();
    // As a settings file edited by hand, or a site the platform has since removed, leaves it
    // (Settings and provisioning refuse a site the platform does not list).
    const settings = s.context.options.settings;
    const profiles = settings.get('profiles') as { id: string; shippingSiteId: string }[];
    settings.set(
      'profiles',
      profiles.map((p) => (p.id === 'demo' ? { ...p, shippingSiteId: 'site_nw_dallas' } : p)),
    );
    await s.context.reload();
    const orderId = await orderIdOf(s, 'LUM-10421');
    const said = await s.dispatch('pack.rate', { orderId, packages: [{ weightLbs: 1.8 }] });
    const message = said.ok ? JSON.stringify(said.value) : said.error.message;
    expect(message).toMatch(
      /No rates: the platform does not know this profile's shipping site "site_nw_dallas" for this brand, so nothing can be rated or bought here\. Ask site IT to correct the profile's shipping site \(Settings → Profiles, or the provisioning file\)\./,
    );
  });
});
