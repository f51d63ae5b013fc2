import { describe, expect, it } from 'vitest';
import { candleOrder, siteStations, synced } from './site-stations.js';
import { call, packOrder, scanOrder, until } from './support.js';

// A station of the site set up under another profile id (Settings → New profile, same platform
// account, another name): it shares no History or orders with the others, which are kept per
// profile, but it must not buy a second label for an order another station holds.

const { stationsAandB, sandbox } = siteStations();

describe('a station under another profile id', () => {
  it('is refused an order a station of the site labelled, saying why; Ctrl+Shift+A still buys', async () => {
    const { a, b } = await stationsAandB();
    try {
      const lumen = sandbox().fixtures.apiClients.find((c) => c.clientId === 'demo-lumen-full')!;
      // Site IT sets A up in Settings as "Lumen Chicago floor"; B, by hand, as "Chicago packing":
      // the same platform account, tenant and shipping site, two profile ids.
      const profile = (name: string) => ({
        environment: 'sandbox' as const,
        baseUrl: sandbox().url,
        clientId: lumen.clientId,
        clientSecret: lumen.clientSecret,
        name,
        tenantId: lumen.tenantId,
        shippingSiteId: 'site_lumen_chicago',
      });
      await call(a, 'profiles.create', profile('Lumen Chicago floor'));
      await call(b, 'profiles.create', profile('Chicago packing'));
      const profileB = (await call(b, 'station.status', {})).profile!;
      const profileA = (await call(a, 'station.status', {})).profile!;
      expect(profileB.id).not.toBe(profileA.id);

      const file = JSON.stringify([candleOrder('OTH-1', 'Ada'), candleOrder('OTH-2', 'Bo')]);
      await call(a, 'orders.import', { fileName: 'wave.json', content: file });
      await call(b, 'orders.import', { fileName: 'wave.json', content: file });
      const atA = await packOrder(a, 'OTH-1');
      expect(atA.label?.trackingNumber).toBeTruthy();
      await Promise.all([synced(a), synced(b)]);

      const scan = await scanOrder(b, 'OTH-1');
      const rate = (confirmAnother: boolean) =>
        call(b, 'pack.rate', {
          orderId: scan.order.id,
          packages: [{ weightLbs: 2, boxId: null }],
          confirmAnother,
        });
      const refused = await b.dispatch('pack.buy', { shipmentId: (await rate(false)).shipmentId });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'order-claimed-elsewhere',
          message: expect.stringMatching(
            new RegExp(
              `^Order OTH-1 was labelled at Station A at \\d\\d:\\d\\d by packer, a station of this site set up under another profile \\("${profileA.id}", this one's is "${profileB.id}"\\), so its label cannot be reprinted here\\. Nothing was bought\\. Site IT gives every station of the site the same profile`,
            ),
          ),
        },
      });
      const labelsAtB = async () =>
        (await call(b, 'labels.search', { query: 'OTH-1', limit: 10, offset: 0 })).labels.length;
      expect(await labelsAtB()).toBe(0);

      // Settings → Site store says which station packs under another profile, at both.
      const note = await until(async () => (await call(b, 'site.status', {})).profileNote);
      expect(note).toBe(
        `Station A packs under profile Lumen Chicago floor (${profileA.id}), not this station's Chicago packing (${profileB.id}), for the same platform account: it shares no History, orders or console with this station, and an order one of them holds is refused at the other. Site IT gives every station of the site the same profile (provision them from one file: docs/site.md).`,
      );
      const atAStatus = await until(async () => {
        const st = await call(a, 'site.status', {});
        return st.profileNote ? st : null;
      });
      expect(atAStatus.stations.find((st) => st.stationId === 'st-b')?.otherProfile).toBe(
        `Chicago packing (${profileB.id})`,
      );
      expect(atAStatus.stations.find((st) => st.stationId === 'st-a')?.otherProfile).toBeNull();

      // Another order, nobody's: bought as ever.
      expect((await packOrder(b, 'OTH-2')).label?.trackingNumber).toBeTruthy();

      // The packer confirms another label (Ctrl+Shift+A): bought.
      const again = await call(b, 'pack.buy', {
        shipmentId: (await rate(true)).shipmentId,
        confirmAnother: true,
      });
      expect(again.label?.trackingNumber).toBeTruthy();
      expect(await labelsAtB()).toBe(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
