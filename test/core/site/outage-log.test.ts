import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { usePostgres } from '../../support/use-postgres.js';
import { waitUntil } from '../../support/virtual-printer.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { TrackerPoller, TrackerStore } from '../../../src/core/tracking/index.js';
import { SiteLink } from '../../../src/core/site/link.js';
import { outageDuration } from '../../../src/core/site/outage.js';
import { clientFor } from '../platform/support.js';
import { siteDatabase, STATION_PASSWORD } from './support.js';

const sb = useSandbox();
// This file's own cluster: the test stops it and starts it again.
const pgc = usePostgres();
/** The reminder, shortened from 5 minutes so that an outage of a few seconds has some. */
const REMIND_MS = 1500;
/** The tracker election checks every quarter interval: every 100 ms, 40 checks in 4 s. */
const INTERVAL_MS = 400;
const OUTAGE_MS = 4000;

describe('a site store outage in the station log', () => {
  it('says when the store went away (once, why), reminds while it stays away, and when it answers again (once, how long)', async () => {
    const site = await siteDatabase(pgc.cluster);
    const db = openDatabase(join(tempDir(), 'station.db'));
    const lines: { at: number; line: string }[] = [];
    const log = (line: string) => lines.push({ at: Date.now(), line });
    const link = new SiteLink(
      { url: site.stationUrl, stationId: 'st-1', stationName: 'Station 1' },
      {
        db,
        password: STATION_PASSWORD,
        log,
        pollMs: 20,
        connectTimeoutMs: 500,
        outageReminderMs: REMIND_MS,
      },
    );
    const scope = {
      profileId: 'lumen-chicago-1',
      environment: 'sandbox' as const,
      tenantId: 'tnt_lumen',
    };
    const { client } = clientFor(sb, DEMO.directBrand);
    const trackers = new TrackerStore(db);
    const poller = new TrackerPoller({
      client: { listTrackers: client.listTrackers.bind(client), environment: 'sandbox' },
      store: trackers,
      scope,
      intervalMs: INTERVAL_MS,
      jitter: 0,
    });
    let role = 'offline';
    const elected = link.trackers({
      scope,
      poller,
      trackers,
      intervalMs: INTERVAL_MS,
      connectTimeoutMs: 500,
      log,
      outageReminderMs: REMIND_MS,
      onRole: (r) => (role = r),
    });
    link.start();
    elected.start();
    try {
      // Reached, not only "synced": the sync says synced before its first check-in (nothing
      // waits), and a store that has never answered this station is said as an address to
      // check, not as an outage (the election may win before the sync has checked in).
      await waitUntil(
        () => link.hasReachedStore() && link.sync.status().state === 'synced' && role === 'leader',
      );
      const from = lines.length;
      pgc.cluster.stop();
      const stoppedAt = Date.now();
      try {
        await waitUntil(() => Date.now() - stoppedAt >= OUTAGE_MS, 50);
        expect(link.sync.status().state).toBe('unreachable');
        expect(role).toBe('offline');
      } finally {
        pgc.cluster.start();
      }
      const during = lines.slice(from).map((l) => l.line);
      for (const what of ['site trackers', 'site store']) {
        const mine = during.filter((l) => l.startsWith(`${what}: `));
        // A line when it went away and a reminder every REMIND_MS, not one per attempt (the
        // election alone tries 40 times in these 4 s).
        expect(
          mine.filter((l) => !/^site trackers: (offline|follower|leader)$/.test(l)).length,
        ).toBeLessThanOrEqual(1 + Math.ceil(OUTAGE_MS / REMIND_MS));
        // Gone: once, with why.
        const gone = mine.filter((l) => / does not answer \(/.test(l) && !/still/.test(l));
        expect(gone).toHaveLength(1);
        expect(gone[0]).toMatch(
          new RegExp(
            `^${what}: The site store at shipping_station@127\\.0\\.0\\.1:${pgc.cluster.port}/${site.name} does not answer \\(.+\\)\\. This station works on its own and catches up when it answers again\\.$`,
          ),
        );
        // Then a reminder every REMIND_MS at most, saying for how long.
        const reminders = mine.filter((l) => l.includes('still not working after'));
        expect(reminders.length).toBeGreaterThanOrEqual(1);
        expect(reminders.length).toBeLessThanOrEqual(Math.ceil(OUTAGE_MS / REMIND_MS));
        for (const r of reminders)
          expect(r).toMatch(
            new RegExp(
              `^${what}: still not working after \\d+ s: The site store at .* does not answer`,
            ),
          );
        // Nothing else but the tracker election's change of role.
        expect(
          mine.filter((l) => !/does not answer|^site trackers: (offline|follower|leader)$/.test(l)),
        ).toEqual([]);
      }
      // Back: once each, with how long it was away.
      await waitUntil(() => link.sync.status().state === 'synced' && role === 'leader', 50);
      const back = lines
        .slice(from)
        .map((l) => l.line)
        .filter((l) => l.includes('answering again'));
      expect(back).toHaveLength(2);
      for (const what of ['site store', 'site trackers']) {
        const line = back.find((l) => l.startsWith(`${what}: `));
        expect(line).toMatch(new RegExp(`^${what}: answering again after \\d+ s away$`));
        const away = Number(/after (\d+) s/.exec(line!)![1]);
        expect(away).toBeGreaterThanOrEqual(1);
        expect(away).toBeLessThanOrEqual(Math.ceil((Date.now() - stoppedAt) / 1000) + 1);
      }
      expect(lines.map((l) => l.line).join('\n')).not.toContain(STATION_PASSWORD);
    } finally {
      await elected.stop();
      await link.close();
      db.close();
      await site.owner.close();
    }
  }, 60_000);

  it('says an outage in seconds, minutes or hours', () => {
    expect(outageDuration(4_200)).toBe('4 s');
    expect(outageDuration(192_000)).toBe('3 min 12 s');
    expect(outageDuration(2 * 3600_000 + 5 * 60_000 + 9_000)).toBe('2 h 5 min');
  });
});
