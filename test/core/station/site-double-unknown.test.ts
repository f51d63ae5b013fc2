import { describe, expect, it } from 'vitest';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase } from '../site/support.js';
import { siteStations, synced } from './site-stations.js';
import { buyWithLostAnswer, call, packOrder, until } from './support.js';

// Trial of 2026-11-29: Station A was stopped while buying TF-008 (outcome unknown); Station B,
// cut off from the store, bought TF-008. The possible double label then said "order TF-008 was
// labelled at Station A and at Station B while the site store was unreachable. Keep one label
// and void the other." and listed one label: A had none (unknown), and bought before the
// outage. A lead told to void one of two labels could void the only real one.

const { pgc, sandbox, siteStation, linkToSite } = siteStations();

describe('a possible double label whose first purchase has no label (outcome unknown)', () => {
  it('says which station has a label and that the other purchase is unknown, not two labels', async () => {
    const site = await siteDatabase(pgc.cluster);
    const a = siteStation(tempDir());
    const b = siteStation(tempDir());
    await Promise.all([a.start(), b.start()]);
    const proxy = await startTcpProxy(pgc.cluster.port);
    try {
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      const throughProxy = site.stationUrl.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`);
      await linkToSite(b, throughProxy, 'st-b', 'Station B');
      await until(() => b.context.site?.hasReachedStore());

      // A buys LUM-10422 with the claim; the platform's answer is lost: outcome unknown.
      await buyWithLostAnswer(a, sandbox(), 'LUM-10422');
      await synced(a);

      // B, cut off from the store, buys it (offlinePurchase allow), then reaches the store.
      await proxy.cut();
      await until(async () => (await call(b, 'station.status', {})).site?.state === 'unreachable');
      expect((await packOrder(b, 'LUM-10422')).label).not.toBeNull();
      await linkToSite(b, site.stationUrl, 'st-b', 'Station B');

      const double = await until(async () =>
        (await call(b, 'site.attention', {})).items.find(
          (i) => i.kind === 'possible-double-label' && i.labels.length === 1,
        ),
      );
      expect(double.labels.map((l) => l.stationName)).toEqual(['Station B']);
      expect(double.message).toMatch(
        /^Possible double label: order LUM-10422 was labelled at Station B \(\d\d:\d\d\) without the site store's order claim \(it could not reach the store, or the store refused its login\), while Station A was buying it \(\d\d:\d\d\) and has no label for it in the site store: its outcome is unknown \(resolve it at Station A under Needs attention: look it up on the platform\)\. If Station A's label was bought, keep one label and void the other at the carrier; if not, Station B's is the only one: say so here and mark it resolved\.$/,
      );
      expect(double.message).not.toContain('while the site store was unreachable');
    } finally {
      await proxy.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
