// site.tracker_requests_per_interval: 1, 5 and 20 stations on one site store and one sandbox,
// each running the site's tracker leadership (src/core/site/trackers.ts). The figure is the
// GET /api/v1/trackers requests the sandbox received per poll interval, divided by the pages of
// one pass: it stays 1 whatever the number of stations.
import { join } from 'node:path';
import { PlatformClient } from '../src/core/platform/index.js';
import { SiteStore } from '../src/core/site/store.js';
import { SiteTrackers } from '../src/core/site/trackers.js';
import { openDatabase } from '../src/core/storage/database.js';
import { TrackerPoller, TrackerStore } from '../src/core/tracking/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { removeCluster, startPostgres, SUPERUSER_PASSWORD } from '../test/support/postgres.js';
import { secretOf } from '../test/core/packing/support/station.js';
import { report, round } from './harness.js';

export async function siteTrackersBench(
  dir: string,
  options: { counts: number[]; intervalMs: number; intervals: number },
): Promise<void> {
  const cluster = await startPostgres();
  const sandbox = await startSandbox({ port: 0 });
  try {
    for (const count of options.counts) {
      const url = await cluster.createDatabase(`site_trackers_${count}`);
      const owner = new SiteStore({
        config: { url, stationId: 'bench', stationName: 'bench' },
        password: SUPERUSER_PASSWORD,
      });
      await owner.migrate();
      await owner.close();
      const scope = {
        profileId: 'lumen-chicago-1',
        environment: 'sandbox' as const,
        tenantId: 'tnt_lumen',
      };
      const stations = Array.from({ length: count }, (_, i) => {
        const db = openDatabase(join(dir, `trackers-${count}-${i}.db`));
        const client = new PlatformClient({
          baseUrl: sandbox.url,
          clientId: 'demo-lumen-full',
          tenantId: 'tnt_lumen',
          environment: 'sandbox',
          getSecret: () => secretOf('demo-lumen-full'),
          proactiveTokenRefresh: false,
        });
        const trackers = new TrackerStore(db);
        const poller = new TrackerPoller({
          client,
          store: trackers,
          scope,
          intervalMs: options.intervalMs,
          jitter: 0,
        });
        const site = new SiteTrackers({
          url,
          password: SUPERUSER_PASSWORD,
          stationId: `bench-${i}`,
          scope,
          poller,
          trackers,
          intervalMs: options.intervalMs,
        });
        return { db, client, site };
      });
      const calls = () =>
        sandbox.requests().filter((r) => r.method === 'GET' && r.path === '/api/v1/trackers');
      for (const s of stations) s.site.start();
      // Let one station take the lock and make its first pass, then measure.
      while (calls().length === 0) await new Promise((r) => setTimeout(r, 20));
      const before = calls().length;
      await new Promise((r) => setTimeout(r, options.intervals * options.intervalMs));
      const during = calls().length - before;
      for (const s of stations) await s.site.stop();
      for (const s of stations) {
        s.client.close();
        s.db.close();
      }
      // The sandbox has few trackers: one page per pass.
      report({
        name: 'site.tracker_requests_per_interval',
        value: round(during / options.intervals, 2),
        unit: 'requests/interval',
        stations: count,
        intervalMs: options.intervalMs,
        intervals: options.intervals,
        pagesPerPass: 1,
        target: { op: '<=', value: 1 },
      });
    }
  } finally {
    await sandbox.close();
    removeCluster(cluster);
  }
}
