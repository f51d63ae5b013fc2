import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { STATION_PASSWORD } from '../site/support.js';
import { siteStations } from './site-stations.js';
import { call } from './support.js';

// Trial of 2026-11-29: a new computer was started with a copy of Station 2's provisioning file
// (the same station id and name) while Station 2 was packing. The start was taken; both
// stations then found each other at check-in and stopped buying, so the packer at the real
// Station 2 was refused every label until the copy was closed.

const { stationsAandB, startProvisioned } = siteStations();

describe("a copy of a running station's provisioning file", () => {
  it('is refused at the start and in Settings; taken once that station has been off for two minutes', async () => {
    const { site, a, b } = await stationsAandB();
    const dir = tempDir();
    try {
      const demo = JSON.parse((await call(a, 'profiles.export', { id: 'demo' })).json) as {
        profiles: Record<string, unknown>[];
      };
      const file = join(dir, 'station-a.json');
      // Station A's own file: its id and the name it checks in under.
      const siteStore = { url: site.stationUrl, stationId: 'st-a', stationName: 'Station A' };
      writeFileSync(file, JSON.stringify({ ...demo, siteStore }));
      const env = { STATION_SECRET_SITE_STORE: STATION_PASSWORD };
      const startWithCopy = () => startProvisioned(file, env);
      const siteStoreKept = (dataDir: string) => {
        const settings = join(dataDir, 'settings.json');
        return existsSync(settings)
          ? (JSON.parse(readFileSync(settings, 'utf8')) as { siteStore?: unknown }).siteStore
          : undefined;
      };
      await call(a, 'station.status', {});
      const seen = await site.owner.stations();
      expect(seen.map((s) => s.stationId)).toContain('st-a');

      // While Station A runs, the copy does not start, and says why.
      const copy = await startWithCopy();
      expect(copy.error?.message).toMatch(
        /^Station id st-a is in use by Station A \(seen \d+ s ago\)\. Each station needs its own id: .* This station is not Station A: a copied provisioning file\? If Station A's computer was replaced, give this one an id of its own: the store keeps Station A's labels under that one\.$/,
      );
      expect(siteStoreKept(copy.dataDir)).toBeUndefined();

      // Settings → Connect at another station, with A's id and name: refused the same way.
      const typed = await b.dispatch('site.configure', { siteStore });
      expect(typed).toMatchObject({
        ok: false,
        error: { code: 'conflict', message: expect.stringMatching(/^Station id st-a is in use/) },
      });

      // A itself saving its own id and name again is not refused.
      await call(a, 'site.configure', { siteStore });

      // Station A's computer replaced: off for two minutes, the file starts the new one.
      await a.stop();
      await site.owner.pool.query(
        "UPDATE site_stations SET last_seen_at = now() - interval '3 minutes' WHERE station_id = 'st-a'",
      );
      const replacement = await startWithCopy();
      expect(replacement.error).toBeNull();
      expect(siteStoreKept(replacement.dataDir)).toMatchObject({ stationId: 'st-a' });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 60_000);
});
