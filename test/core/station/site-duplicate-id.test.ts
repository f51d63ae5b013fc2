import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase } from '../site/support.js';
import { siteStations } from './site-stations.js';
import { call, until } from './support.js';

// Trial of 2026-11-29: with a second running station under Station 2's id, Station 2's header
// went back and forth between "Site: synced" and "station id in use elsewhere" every few
// seconds, and both logs said "site store: answering again after 1 s away" (the store had never
// gone) between each "Another running station checks in …".

const { pgc, siteStation, linkToSite, diskImageOf } = siteStations();

const header = async (s: Station) => (await call(s, 'station.status', {})).site?.text ?? '';

describe('two running stations under one station id', () => {
  it('both keep saying so, steadily, until one is gone; then the other is synced again', async () => {
    const site = await siteDatabase(pgc.cluster);
    const lines: string[] = [];
    const a = siteStation(tempDir(), { log: (line) => lines.push(line) });
    await a.start();
    await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
    // A disk image of Station A: its settings, so its site store, id and name.
    const copy = await diskImageOf(site.stationUrl, 'st-a', 'Station A');
    try {
      await until(async () => /station id in use elsewhere/.test(await header(a)));
      await until(async () => /station id in use elsewhere/.test(await header(copy)));
      const from = lines.length;
      const seen = new Set<string>();
      for (const end = Date.now() + 12_000; Date.now() < end;) {
        // A station at work: each commit of its own wakes its drainer (as a packer's scans,
        // the trackers it copies and its heartbeats do).
        a.context.site!.sync.wake();
        seen.add(`A: ${await header(a)}`);
        seen.add(`copy: ${await header(copy)}`);
        await new Promise((r) => setTimeout(r, 150));
      }
      expect([...seen].sort()).toEqual([
        'A: Site: station id in use elsewhere',
        'copy: Site: station id in use elsewhere',
      ]);
      expect(lines.slice(from).filter((l) => /answering again/.test(l))).toEqual([]);

      // The copy is closed: A goes on by itself.
      await copy.stop();
      await until(async () => (await header(a)) === 'Site: synced');
    } finally {
      await Promise.all([a.stop(), copy.stop()]);
    }
  }, 60_000);
});
