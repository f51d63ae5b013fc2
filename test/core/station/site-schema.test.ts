import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { consoleSnapshot } from '../../../src/core/site/console.js';
import { tenantsOf } from '../../../src/core/profiles/profile-schema.js';
import { SITE_SCHEMA_VERSION, siteMigrations } from '../../../src/core/site/schema.js';
import type { Station } from '../../../src/core/station/index.js';
import { SUPERUSER_PASSWORD } from '../../support/postgres.js';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase } from '../site/support.js';
import { siteStations, synced } from './site-stations.js';
import { call, packOrder, until } from './support.js';

// A site upgraded station by station: a store at the schema of the version before (4) is not
// upgraded by a station, even one allowed to (the stations not yet updated would refuse it);
// every station works on it, and says what waits for site IT's migrate. Once migrated, the
// console shows each station's platform state (site migration 5): a refused key stands out.

const { pgc, sandbox, siteStation, harborStation, linkToSite } = siteStations();
const root = join(import.meta.dirname, '../../..');

describe('a site store at the schema of the version before', () => {
  it('is worked with, not upgraded, and said; migrated by site IT, the console shows each station platform state', async () => {
    expect(SITE_SCHEMA_VERSION).toBe(9);
    const site = await siteDatabase(pgc.cluster, { schema: 4 });
    // A: linked as the site's owner (it could migrate); B: the stations' role, packing for
    // another brand, whose key is rotated on the platform below (B keeps the old one).
    const harbor = sandbox().fixtures.apiClients.find((c) => c.clientId === 'demo-harbor-full')!;
    const logA: string[] = [];
    const a = siteStation(tempDir(), { log: (line) => logA.push(line) });
    const b = harborStation(tempDir());
    await Promise.all([a.start(), b.start()]);
    try {
      const saved = await call(a, 'site.configure', {
        siteStore: { url: site.ownerUrl, stationId: 'st-a', stationName: 'Station A' },
        password: SUPERUSER_PASSWORD,
      });
      expect(saved.saveWarning).toBeNull();
      await linkToSite(b, site.stationUrl, 'st-b', 'Station B');
      await Promise.all([synced(a), synced(b)]);

      // A buys as ever, its label in the site store; the store is still at 4.
      expect((await packOrder(a, 'LUM-10421')).label?.trackingNumber).toBeTruthy();
      await synced(a);
      const { rows } = await site.owner.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM site_labels WHERE station_id = 'st-a'`,
      );
      expect(rows[0]!.n).toBe(1);
      expect(await site.owner.schemaVersion()).toBe(4);

      // A lead marks it voided at the carrier: a store at 4 cannot keep the mark (it is sent
      // with the label and ignored there), so the console counts the label as before.
      const mine = (await call(a, 'labels.search', { limit: 10, offset: 0 })).labels[0]!;
      await call(a, 'labels.markVoided', { id: mine.id, voided: true, reason: 'relabelled' });
      await synced(a);
      expect((await call(a, 'console.snapshot', {})).snapshot?.costToday).toEqual([
        expect.objectContaining({ labels: 1, voided: 0 }),
      ]);

      // Settings → Site store says what waits, and who mends it.
      const note = (await call(a, 'site.status', {})).schemaNote;
      expect(note).toBe(
        "The site store is at schema 4; this version of Shipping Station knows 9. Everything works but the console's platform state of each station (an API key refused, the platform away); labels voided at the carrier left out of the console's labels and cost, and marked in Site History; a retired station's name kept on its labels; the Whole site order list read through indexes of its own (a second or more per read at a million orders without them); End of day for the whole site (each label's packages, and return labels kept off the site's manifests); End of day's close-out question counting the labels another station's close-out put on a manifest already. Site IT runs npm run site -- migrate as the site's owner once every station is updated (npm run site -- status lists each station's site schema). A station of schema 5 or later that cannot follow a store migrated past it stops using it and buys nothing until it is updated; one of schema 4 follows no later schema: update those first (site.md, Upgrading a site).",
      );

      // The whole site's End of day waits for site migration 8, and says who mends it.
      const today = new Date().toISOString().slice(0, 10);
      expect(
        await a.dispatch('endOfDay.summary', { from: today, to: today, scope: 'site' }),
      ).toMatchObject({
        ok: false,
        error: {
          code: 'not-available',
          message: expect.stringMatching(
            /^The site store is at schema 4: the whole site's End of day needs site migration 8\. Site IT runs npm run site -- migrate/,
          ),
        },
      });

      // B's key is refused: nothing bought there, its header says so.
      sandbox().setClientSecret(harbor.clientId, 'rotated-elsewhere');
      expect(await b.dispatch('carriers.list', { refresh: true })).toMatchObject({ ok: false });
      expect((await call(b, 'station.status', {})).connectivity).toBe('refused');

      // npm run site -- status says it to site IT too.
      const status = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', join(root, 'src/core/site/cli.ts'), 'status', '--url', site.ownerUrl],
        { env: { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD } },
      );
      expect(status.stdout).toContain(', schema 4\n');
      expect(status.stdout).toContain(note!);
      // Which stations are updated: each one's version with the site schema it knows.
      expect(status.stdout).toMatch(/^Station A \(st-a\): .+ · site schema 9; last seen /m);

      // Site IT migrates; the next check-ins see it (no restart) and publish the platform.
      expect(await site.owner.migrate()).toEqual({ from: 4, to: 9 });
      // Each station's console (A packs for Lumen, B for Harbor: each lists its own tenant's).
      const seenAt = (s: Station) =>
        until(async () => {
          const snap = await consoleSnapshot(
            site.owner.pool,
            s.context.runtime().scope,
            new Date(0).toISOString(),
            0,
            true,
            tenantsOf(s.context.runtime().profile),
          );
          return snap.stations.length > 0 && snap.stations.every((x) => x.platform) ? snap : null;
        });
      const [atA, atB] = [await seenAt(a), await seenAt(b)];
      expect(
        [...atA.stations, ...atB.stations].map((s) => [s.stationId, s.platform?.state]),
      ).toEqual([
        ['st-a', 'online'],
        ['st-b', 'refused'],
      ]);
      expect(atB.stations[0]!.platform!.detail).toMatch(
        /Nothing can be bought until site IT mends it\.$/,
      );
      await until(async () => (await call(a, 'site.status', {})).schemaNote === null);
      // The voided mark made while the store could not keep it is sent again, and kept now.
      const mark = await until(async () => {
        const voided = await site.owner.pool.query<{ voided: { reason: string } | null }>(
          `SELECT voided FROM site_labels WHERE station_id = 'st-a'`,
        );
        return voided.rows[0]?.voided ?? null;
      });
      expect(mark.reason).toBe('relabelled');
      // So is the label sent before the store kept packages (site migration 8): its one package,
      // not a return label, for the whole site's End of day.
      const packages = await until(async () => {
        const r = await site.owner.pool.query<{ packages: number | null; return_label: boolean }>(
          `SELECT packages, return_label FROM site_labels WHERE station_id = 'st-a'`,
        );
        return r.rows[0]?.packages ? r.rows[0] : null;
      });
      expect(packages).toEqual({ packages: 1, return_label: false });
      expect((await call(a, 'console.snapshot', {})).snapshot?.costToday).toEqual([
        expect.objectContaining({ labels: 0, voided: 1 }),
      ]);
      // The station's log says both, once each: the older schema, then the migrate.
      const log = await until(() => {
        const text = logA.join('\n');
        return text.includes('now at schema 9') ? text : null;
      });
      expect(log.split('The site store is at schema 4;').length - 1).toBe(1);
      expect(log).toContain(
        'The site store is now at schema 9: everything of this version works with it.',
      );
      // And through the contract, as the Site view reads it (B's own console: A's lists
      // Lumen's stations, not Harbor's).
      const view = await call(b, 'console.snapshot', {});
      expect(view.snapshot?.stations.find((s) => s.stationId === 'st-b')?.platform?.state).toBe(
        'refused',
      );
    } finally {
      sandbox().setClientSecret(harbor.clientId, harbor.clientSecret);
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a store migrated past this version is used on while its migrations allow it; one that does not is refused, nothing bought', async () => {
    const later = (version: number, readersFrom: number) => ({
      version,
      name: `later-${version}`,
      sql: `CREATE TABLE later_${version} (a int)`,
      readersFrom,
    });
    const site = await siteDatabase(pgc.cluster);
    // A newer version's migration that keeps stations of this schema working (a table added).
    const V = SITE_SCHEMA_VERSION;
    await site.owner.migrate([...siteMigrations, later(V + 1, V)]);
    const log: string[] = [];
    const a = siteStation(tempDir(), { log: (line) => log.push(line) });
    await a.start();
    try {
      await linkToSite(a, site.stationUrl, 'st-a', 'Station A');
      await synced(a);
      expect((await packOrder(a, 'LUM-10421')).label?.trackingNumber).toBeTruthy();
      await synced(a);
      const labels = await site.owner.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM site_labels WHERE station_id = 'st-a'`,
      );
      expect(labels.rows[0]!.n).toBe(1);
      expect(log.join('\n')).toContain(
        `The site store is at schema ${V + 1}, newer than this version of Shipping Station knows (${V}); its later migrations keep stations of schema ${V} working, so this one goes on using it.`,
      );

      // Then one it cannot follow (readers from V + 2), while it runs: the next check-in finds it,
      // the header says so, and nothing is bought (a claim taken here would never complete).
      await site.owner.migrate([...siteMigrations, later(V + 1, V), later(V + 2, V + 2)]);
      await until(async () =>
        (await call(a, 'station.status', {})).site?.text.includes(
          'store is newer than this station',
        ),
      );
      const before = sandbox().ledger().length;
      const scan = await call(a, 'pack.scan', { value: 'LUM-10422' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      const quote = await call(a, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      expect(await a.dispatch('pack.buy', { shipmentId: quote.shipmentId })).toMatchObject({
        ok: false,
        error: {
          message: expect.stringMatching(
            new RegExp(
              `newer version of Shipping Station \\(schema ${V + 2}, this station knows ${V}\\).* Nothing was bought: this station cannot record its labels in the site store until it is updated\\. Call site IT\\.$`,
            ),
          ),
        },
      });
      expect(sandbox().ledger().length).toBe(before);
    } finally {
      await a.stop();
    }
  });
});
