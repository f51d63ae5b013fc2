import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase, STATION_PASSWORD, type SiteDatabase } from '../site/support.js';
import { siteStations } from './site-stations.js';
import { call, until } from './support.js';

// Site IT's trial of 2026-11-29: station D, renamed "Station Delta" in Settings, was moved with
// its store (pg_dump, restored on a new server) and restarted with its provisioning file (still
// "Station D", the new address). The start was refused: "Station id st-d is in use by Station
// Delta", its own row in the restored store; and the file put the old name back in silence.

const { pgc, siteStation } = siteStations();

/** What pg_dump carries of a station: its row, as the old store had it. */
async function restoreStationRow(from: SiteDatabase, to: SiteDatabase, stationId: string) {
  const { rows } = await from.owner.pool.query<{ station_name: string; last_seen_at: Date }>(
    'SELECT station_name, last_seen_at FROM site_stations WHERE station_id = $1',
    [stationId],
  );
  await to.owner.pool.query(
    'INSERT INTO site_stations (station_id, station_name, last_seen_at) VALUES ($1, $2, $3)',
    [stationId, rows[0]!.station_name, rows[0]!.last_seen_at],
  );
}

const nameIn = async (site: SiteDatabase, stationId: string) =>
  (
    await site.owner.pool.query<{ station_name: string }>(
      'SELECT station_name FROM site_stations WHERE station_id = $1',
      [stationId],
    )
  ).rows[0]?.station_name;

describe('a station moved with its site store to a new server', () => {
  it('recognises its own row there and keeps the name it was given in Settings, saying so', async () => {
    const [old, moved, again] = [
      await siteDatabase(pgc.cluster),
      await siteDatabase(pgc.cluster),
      await siteDatabase(pgc.cluster),
    ];
    const dir = tempDir();
    const dataDir = tempDir();
    const env = { STATION_SECRET_SITE_STORE: STATION_PASSWORD };
    const lines: string[] = [];
    const demoStation = siteStation(tempDir());
    await demoStation.start();
    const demo = JSON.parse((await call(demoStation, 'profiles.export', { id: 'demo' })).json) as {
      profiles: Record<string, unknown>[];
    };
    await demoStation.stop();
    const fileWith = (siteStore: { url: string; stationId: string; stationName: string }) => {
      const file = join(dir, `provision-${Math.random().toString(36).slice(2)}.json`);
      const profile = { ...demo.profiles[0], id: 'dock-d', name: 'Dock D' };
      writeFileSync(file, JSON.stringify({ ...demo, profiles: [profile], siteStore }));
      return file;
    };
    const startWith = async (siteStore: {
      url: string;
      stationId: string;
      stationName: string;
    }) => {
      const s = siteStation(dataDir, {
        provisionFile: fileWith(siteStore),
        env,
        log: (line) => lines.push(line),
      });
      await s.start();
      return s;
    };
    const stored = () =>
      (
        JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as {
          siteStore: { url: string; stationName: string };
        }
      ).siteStore;

    // Provisioned as Station D, renamed Station Delta in Settings; its row says so.
    let d = await startWith({ url: old.stationUrl, stationId: 'st-d', stationName: 'Station D' });
    await call(d, 'site.configure', {
      siteStore: { url: old.stationUrl, stationId: 'st-d', stationName: 'Station Delta' },
    });
    await until(async () => (await nameIn(old, 'st-d')) === 'Station Delta');
    await d.stop();

    // The store restored on a new server; D started with its file, naming the new address.
    await restoreStationRow(old, moved, 'st-d');
    d = await startWith({ url: moved.stationUrl, stationId: 'st-d', stationName: 'Station D' });
    try {
      expect(stored()).toMatchObject({ url: moved.stationUrl, stationName: 'Station Delta' });
      expect(lines).toContainEqual(
        'provisioning file names this station "Station D" (st-d); it was renamed "Station Delta" in Settings → Site store and keeps that name. To name it from the file, put "stationName": "Station Delta" in the file, or rename it in Settings.',
      );
      await until(async () => (await call(d, 'station.status', {})).site?.text === 'Site: synced');
      expect(await nameIn(moved, 'st-d')).toBe('Station Delta');
    } finally {
      await d.stop();
    }

    // Moved once more, and site IT now names it in the file: the file's name, and the row under
    // the name it had is still its own.
    await restoreStationRow(moved, again, 'st-d');
    d = await startWith({ url: again.stationUrl, stationId: 'st-d', stationName: 'Dock Delta' });
    try {
      expect(stored()).toMatchObject({ url: again.stationUrl, stationName: 'Dock Delta' });
      expect(lines).toContainEqual(
        'provisioning file renames this station "Dock Delta" (st-d), replacing "Station Delta" it had in Settings → Site store',
      );
      await until(async () => (await nameIn(again, 'st-d')) === 'Dock Delta');
    } finally {
      await d.stop();
    }
  }, 60_000);
});
