import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { freePort } from '../../support/postgres.js';
import { tempDir } from '../../support/tmp.js';
import { STATION_PASSWORD } from '../site/support.js';
import { siteStations, synced } from './site-stations.js';
import { call, scanOrder, until } from './support.js';

// Site IT's trial of 2026-11-29: a mistyped port in Settings → Change site store was taken for
// an outage, so the station bought without claims under the site's offline rule (allow) and an
// order got a label there and at another station. A store the station has never reached at its
// address buys nothing; one it has reached that goes away is an outage, as before.

const { pgc, siteStation, stationsAandB } = siteStations();

const header = async (s: Station) => (await call(s, 'station.status', {})).site;

/** Rates an order and asks to buy it: the result as the packer's Ctrl+Enter gets it. */
async function buy(s: Station, orderNumber: string) {
  const scan = await scanOrder(s, orderNumber);
  const quote = await call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs: 2, boxId: null }],
  });
  return s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
}

describe('a site store this station has never reached', () => {
  it('a mistyped port buys nothing and says to check the address; a store reached before that goes away still buys offline', async () => {
    const { a, b } = await stationsAandB();
    try {
      await Promise.all([synced(a), synced(b)]);
      await until(() => b.context.site?.hasReachedStore());
      const port = await freePort();
      const typo = `postgres://shipping_station@127.0.0.1:${port}/shipping_site`;
      const saved = await call(a, 'site.configure', {
        siteStore: { url: typo, stationId: 'st-a', stationName: 'Station A' },
        password: STATION_PASSWORD,
      });
      expect(saved.saveWarning).toBe(
        `The site store at shipping_station@127.0.0.1:${port}/shipping_site has never answered this station: check its address in Settings → Site store (host, port and database) with site IT (it does not answer (connection refused)). Until it answers, this station buys no label.`,
      );
      await until(async () => (await header(a))?.state === 'unreachable');
      expect((await header(a))?.text).toMatch(/^Site: never reached \(check its address\)/);

      // The site's offline rule is allow, yet nothing is bought: another station may hold it.
      const refused = await buy(a, 'LUM-10421');
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'site-store-unreachable',
          message: expect.stringMatching(
            /^The site store at shipping_station@127\.0\.0\.1:\d+\/shipping_site has never answered this station: check its address in Settings → Site store .* Nothing was bought: this station cannot check with the site whether another station has labelled this order/,
          ),
        },
      });
      const labels = await call(a, 'labels.search', { query: 'LUM-10421', limit: 10, offset: 0 });
      expect(labels.labels).toEqual([]);

      // B has reached its store; the store goes away: an outage, and the site's rule (allow)
      // buys, marked for the packer.
      pgc.cluster.stop();
      try {
        await until(async () => (await header(b))?.state === 'unreachable');
        expect((await header(b))?.text).toMatch(/^Site: not reachable/);
        const bought = await buy(b, 'LUM-10422');
        expect(bought).toMatchObject({ ok: true });
      } finally {
        pgc.cluster.start();
      }
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);

  it('a station set up for the first time while its store does not answer buys nothing, saying so', async () => {
    const lines: string[] = [];
    const s = siteStation(tempDir(), { log: (line) => lines.push(line) });
    await s.start();
    try {
      const port = await freePort();
      await call(s, 'site.configure', {
        siteStore: {
          url: `postgres://shipping_station@127.0.0.1:${port}/shipping_site`,
          stationId: 'st-new',
          stationName: 'Station New',
        },
        password: STATION_PASSWORD,
      });
      const refused = await buy(s, 'LUM-10421');
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'site-store-unreachable',
          message: expect.stringContaining('has never answered this station'),
        },
      });
      expect((await call(s, 'site.status', {})).header?.problem).toMatch(
        /has never answered this station: .* Until it answers, this station buys no label/,
      );
      // Its log says the same, not that it "works on its own" through an outage (trial of
      // 2026-11-29): the drainer's line, and the tracker election's.
      const said = (what: string) =>
        `${what}: The site store at shipping_station@127.0.0.1:${port}/shipping_site has never answered this station: check its address in Settings → Site store (host, port and database) with site IT (it does not answer (connection refused)). Until it answers, this station buys no label.`;
      await until(() => lines.includes(said('site store')));
      await until(() => lines.includes(said('site trackers')));
      expect(lines.filter((l) => /works on its own/.test(l))).toEqual([]);
    } finally {
      await s.stop();
    }
  }, 60_000);
});
