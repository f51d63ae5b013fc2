import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/tmp.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { STATION_PASSWORD } from '../site/support.js';
import { siteStations, synced } from './site-stations.js';
import { call, labelsFor, packOrder, scanOrder, until } from './support.js';

// Trial of 2026-11-29: Station 4's computer was replaced and, as the docs said, the new one
// took id tac-04 once the old one had been off for two minutes (retired, then reused). Its local
// ids started again at 1: its first label wrote over Station 4's label in the store (the old
// order with the new tracking number; the new label missing from the site), and an order
// Station 4 had labelled was bought again there without a word (the claim was "this station's").

const { pgc, stationsAandB, siteStation, linkToSite, startProvisioned, sandbox } = siteStations();

describe('a station id that has labels of another station in the store', () => {
  it('is refused to a new data directory, in Settings and in a provisioning file', async () => {
    const { site, a, b } = await stationsAandB();
    const fresh = siteStation(tempDir());
    try {
      await packOrder(a, 'LUM-10421');
      await synced(a);
      const demo = JSON.parse((await call(a, 'profiles.export', { id: 'demo' })).json) as object;
      await a.stop();
      // Off for longer than the id checks wait, and retired by site IT.
      await site.owner.pool.query(
        "UPDATE site_stations SET last_seen_at = now() - interval '11 minutes' WHERE station_id = 'st-a'",
      );
      expect((await site.owner.retireStation('st-a')).outcome).toBe('retired');
      const before = await site.owner.pool.query(
        'SELECT station_id, local_id, order_number, tracking_number FROM site_labels ORDER BY 1, 2',
      );

      await fresh.start();
      const siteStore = { url: site.stationUrl, stationId: 'st-a', stationName: 'Station A' };
      const refused = await fresh.dispatch('site.configure', {
        siteStore,
        password: STATION_PASSWORD,
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
      if (refused.ok) throw new Error('taken');
      expect(refused.error.message).toMatch(
        /^Station id st-a was Station A's \(last seen .*\), and the site store keeps that station's labels under it\. .*Give this station an id never used at the site/,
      );
      // Under another name too (ten minutes quiet: the name check lets it through).
      const renamed = await fresh.dispatch('site.configure', {
        siteStore: { ...siteStore, stationName: 'Station A2' },
        password: STATION_PASSWORD,
      });
      expect(renamed).toMatchObject({ ok: false, error: { code: 'conflict' } });

      // A provisioning file naming the id does not start a new data directory either.
      const file = join(tempDir(), 'station-a.json');
      writeFileSync(file, JSON.stringify({ ...demo, siteStore }));
      const started = await startProvisioned(file, { STATION_SECRET_SITE_STORE: STATION_PASSWORD });
      expect(started.error?.message).toMatch(/^Station id st-a was Station A's/);

      // A new id is taken; the order Station A labelled is said so, not bought again.
      await linkToSite(fresh, site.stationUrl, 'st-a2', 'Station A');
      await synced(fresh);
      await packOrder(fresh, 'LUM-10422');
      await synced(fresh);
      const scan = await call(fresh, 'pack.scan', { value: 'LUM-10421' });
      expect(scan).toMatchObject({
        kind: 'order',
        labelledElsewhere: { stationId: 'st-a', stationName: 'Station A' },
      });
      expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);
      const after = await site.owner.pool.query(
        'SELECT station_id, local_id, order_number, tracking_number FROM site_labels ORDER BY 1, 2',
      );
      expect(after.rows.filter((r: { station_id: string }) => r.station_id === 'st-a')).toEqual(
        before.rows,
      );
    } finally {
      await Promise.all([a.stop(), b.stop(), fresh.stop()]);
    }
  }, 90_000);
});

// Trial of 2026-11-29 (night): site IT saved the old station's id on the new computer while the
// store was away (a switch being replaced). Nothing could refuse it then; at its first check-in
// the station released Station A's in-flight claims as its own orphans, listed itself under
// Station A's row, and an order Station A had labelled was granted to it ("this station's").
describe('a station id of another station saved while the store is away', () => {
  it('is refused at the first check-in: nothing of that station overwritten, no order bought twice', async () => {
    const { site, a, b } = await stationsAandB();
    const lines: string[] = [];
    const fresh = siteStation(tempDir(), { log: (line) => lines.push(line) });
    const proxy = await startTcpProxy(pgc.cluster.port);
    try {
      await packOrder(a, 'LUM-10421');
      await synced(a);
      await a.stop();
      await site.owner.pool.query(
        "UPDATE site_stations SET last_seen_at = now() - interval '11 minutes' WHERE station_id = 'st-a'",
      );
      expect((await site.owner.retireStation('st-a')).outcome).toBe('retired');
      // Station A died with a purchase in flight: its claim stays until that purchase is settled.
      await site.owner.pool.query(
        `INSERT INTO site_order_claims (profile_id, environment, tenant_id, order_number, station_id,
           station_name, purchase_id, packer, state, claimed_at, updated_at)
         SELECT profile_id, environment, tenant_id, 'LUM-10423', station_id, station_name,
                'pur-of-station-a', packer, 'in-flight', now(), now()
           FROM site_order_claims WHERE station_id = 'st-a' LIMIT 1`,
      );
      const snapshot = async () =>
        (
          await Promise.all(
            [
              'SELECT local_id, order_number, tracking_number FROM site_labels WHERE station_id = $1 ORDER BY 1',
              'SELECT order_number, purchase_id, state FROM site_order_claims WHERE station_id = $1 ORDER BY 1',
              'SELECT station_name, last_seen_at, retired_at FROM site_stations WHERE station_id = $1',
            ].map((q) => site.owner.pool.query(q, ['st-a'])),
          )
        ).map((r) => r.rows);
      const before = await snapshot();
      const labelled = labelsFor(sandbox, 'LUM-10421');

      await fresh.start();
      await proxy.cut();
      const url = site.stationUrl.replace(`:${pgc.cluster.port}/`, `:${proxy.port}/`);
      const saved = await call(fresh, 'site.configure', {
        siteStore: { url, stationId: 'st-a', stationName: 'Station A' },
        password: STATION_PASSWORD,
      });
      expect(saved.saveWarning).toMatch(/has never answered this station/);
      await proxy.heal();

      const words =
        /^Station id st-a was Station A's \(last seen .*\), and the site store keeps that station's labels under it\. This station does not have them \(a new data directory given the id while the store did not answer.* It sends nothing to the site and buys nothing until it has an id never used at the site/;
      // The store answers again: its first check-in there (synced, before the fix).
      const header = await until(async () => {
        const h = (await call(fresh, 'station.status', {})).site;
        return h && /^Site: (station id in use elsewhere|synced)/.test(h.text) ? h : null;
      });
      // What it has waits in its outbox, for when it has an id of its own.
      expect(header.text).toMatch(/^Site: station id in use elsewhere \(\d+ changes waiting/);
      expect(header.problem).toMatch(words);
      expect(lines.some((l) => l.startsWith('site store: Station id st-a was Station A'))).toBe(
        true,
      );
      // Another check-in or two: still nothing written.
      await new Promise((r) => setTimeout(r, 5000));

      const bought = await fresh.dispatch('pack.buy', {
        shipmentId: (
          await call(fresh, 'pack.rate', {
            orderId: (await scanOrder(fresh, 'LUM-10421')).order.id,
            packages: [{ weightLbs: 2, boxId: null }],
          })
        ).shipmentId,
      });
      expect(bought).toMatchObject({
        ok: false,
        error: { code: 'site-store-unreachable', message: expect.stringMatching(words) },
      });
      expect(labelsFor(sandbox, 'LUM-10421')).toBe(labelled);
      expect(await snapshot()).toEqual(before);

      // Given an id of its own, it goes on: what waited reaches the store under that id.
      await linkToSite(fresh, url, 'st-a2', 'Station A');
      await synced(fresh);
      expect(await snapshot()).toEqual(before);
    } finally {
      await Promise.all([a.stop(), b.stop(), fresh.stop()]);
      await proxy.close();
    }
  }, 90_000);
});
