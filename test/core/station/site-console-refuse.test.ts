import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase } from '../site/support.js';
import { siteStations } from './site-stations.js';
import { call, until } from './support.js';

// Trial of 2026-11-29: the site's offline rule was "refuse" and the store was stopped for ten
// minutes. Every station refused to buy ("This site buys no label while the site store is
// away"), while the shift lead's console said "meanwhile every station packs on its own and
// sends its labels when the store is back".
// Trial of 2026-11-29 (night): the console's own row still said "(this station, packing on its
// own)", and the station's log "This station works on its own and catches up when it answers
// again", though it bought nothing.

const { pgc, siteStation, linkToSite } = siteStations();

describe("the console while the store is away, under the site's offline rule", () => {
  it('says that no station buys under "refuse" (under "allow": site-visibility.test.ts)', async () => {
    const site = await siteDatabase(pgc.cluster);
    await site.owner.setSetting('offlinePurchase', 'refuse');
    const lines: string[] = [];
    const s = siteStation(tempDir(), { log: (line) => lines.push(line) });
    await s.start();
    try {
      await linkToSite(s, site.stationUrl, 'st-a', 'Station A');
      await until(async () => (await call(s, 'console.snapshot', {})).reachable);
      await until(() => s.context.site?.outbox.offlinePurchase() === 'refuse');
      pgc.cluster.stop();
      try {
        const away = await call(s, 'console.snapshot', {});
        expect(away.reachable).toBe(false);
        expect(away.note).toMatch(
          /^The site store at .+ does not answer \(.+\)\. The console shows the site again as soon as it answers; meanwhile no station buys a label \(the site's offline rule is "refuse", site IT set it so\): packers can scan and reprint labels their station bought, and buy again when the store is back\.$/,
        );
        expect(away.note).not.toMatch(/packs on its own/);
        // The console's row of this station says what it does meanwhile.
        expect(away.thisStationAway).toBe('buying no label until the store answers');
        // And so does the log, which site IT reads.
        const said = await until(() =>
          lines.find((l) => /^site store: The site store at .+ does not answer/.test(l)),
        );
        expect(said).toMatch(
          / This site buys no label while the site store is away \(site IT set it so\): this station buys nothing until it answers, and sends what it has when it does\.$/,
        );
        expect(lines.filter((l) => /works on its own/.test(l))).toEqual([]);
      } finally {
        pgc.cluster.start();
      }
    } finally {
      await s.stop();
    }
  }, 60_000);
});
