import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase, STATION_PASSWORD } from '../site/support.js';
import { siteStations } from './site-stations.js';
import { call, until } from './support.js';

// Trial of 2026-11-29: the store was away with a possible double label open on the site. The
// stations' headers said "Needs attention 1?"; Station 2, restarted in the outage, said "0?".

const { pgc, siteStation, linkToSite } = siteStations();

describe("the header's site count for a station restarted while the store is away", () => {
  it('is the count last read, marked as not current, not 0', async () => {
    const site = await siteDatabase(pgc.cluster);
    const dir = tempDir();
    const env = { STATION_SECRET_SITE_STORE: STATION_PASSWORD };
    const s = siteStation(dir, { env });
    await s.start();
    let again: typeof s | null = null;
    try {
      await linkToSite(s, site.stationUrl, 'st-a', 'Station A');
      const scope = s.context.runtime().scope;
      await site.owner.pool.query(
        `INSERT INTO site_attention (kind, profile_id, environment, tenant_id, order_number, message, purchases)
         VALUES ('possible-double-label', $1, $2, 'tnt_lumen', 'DBL-9', 'Possible double label', '[]'::jsonb)`,
        [scope.profileId, scope.environment],
      );
      s.context.siteAttention?.refresh();
      await until(async () => {
        const st = await call(s, 'station.status', {});
        return st.siteAttention?.count === 1 && st.siteAttention.current;
      });
      await s.stop();
      pgc.cluster.stop();
      try {
        again = siteStation(dir, { env });
        await again.start();
        const restarted = again;
        const status = await until(async () => {
          const st = await call(restarted, 'station.status', {});
          return st.site?.text.includes('not reachable') ? st : null;
        });
        expect(status.siteAttention).toMatchObject({ count: 1, current: false });
        expect(status.needsAttention).toBe(1);
      } finally {
        pgc.cluster.start();
      }
      // The store back: the count is the store's, current again.
      const restarted = again;
      await until(async () => (await call(restarted, 'station.status', {})).siteAttention?.current);
    } finally {
      await Promise.all([s.stop(), again?.stop()]);
    }
  }, 60_000);
});
