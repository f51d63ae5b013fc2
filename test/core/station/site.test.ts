import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { Output } from '../../../src/shared/contract.js';
import { tempDir } from '../../support/tmp.js';
import { siteDatabase, STATION_PASSWORD } from '../site/support.js';
import { candleOrder, printed, siteStations } from './site-stations.js';
import { buyWithLostAnswer, call, scanOrder } from './support.js';

const { pgc, sandbox, siteStation, stationsAandB, startProvisioned, diskImageOf } = siteStations();

async function until(check: () => boolean | Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

async function buy(s: Station, orderNumber: string): Promise<Output<'pack.buy'>> {
  const scan = await call(s, 'pack.scan', { value: orderNumber });
  if (scan.kind !== 'order') throw new Error(`${orderNumber}: ${scan.kind}`);
  const quote = await call(s, 'pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs: 1.8, boxId: null }],
  });
  return call(s, 'pack.buy', { shipmentId: quote.shipmentId });
}

describe('Station facade with a site store', () => {
  it('a station without a site store has no site line and searches only itself', async () => {
    const s = siteStation(tempDir());
    await s.start();
    try {
      expect((await call(s, 'station.status', {})).site).toBeNull();
      const page = await call(s, 'site.labels', {});
      expect(page).toMatchObject({
        scope: 'station',
        note: 'This station has no site store: its own labels only.',
      });
      // Its own labels name who packed them, as the whole site's do.
      await call(s, 'settings.update', { userName: 'ana' });
      await buy(s, 'LUM-10421');
      expect((await call(s, 'site.labels', {})).labels.map((l) => l.packer)).toEqual(['ana']);
    } finally {
      await s.stop();
    }
  });

  it("this station's History through site.labels keeps the date range asked for", async () => {
    const s = siteStation(tempDir());
    await s.start();
    try {
      await buy(s, 'LUM-10421');
      const today = new Date().toISOString().slice(0, 10);
      const all = await call(s, 'site.labels', { scope: 'station', from: today, to: today });
      expect(all.labels.map((l) => l.orderNumber)).toEqual(['LUM-10421']);
      const later = await call(s, 'site.labels', { scope: 'station', from: '2999-01-01' });
      expect(later.labels).toEqual([]);
      const byTracking = await call(s, 'site.labels', {
        scope: 'station',
        query: all.labels[0]!.trackingNumber,
      });
      expect(byTracking.labels.map((l) => l.orderNumber)).toEqual(['LUM-10421']);
      expect(await s.dispatch('site.labels', { scope: 'station', from: 'yesterday' })).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'validation',
          message: 'from: not a date (use YYYY-MM-DD)',
        }),
      });
    } finally {
      await s.stop();
    }
  });

  it('a station id another station of the site is using is refused before anything is written under it', async () => {
    const { site, a, b } = await stationsAandB();
    try {
      // A checked in as st-a (Station A) just now: B may not take its id.
      await until(async () => (await site.owner.stations()).some((st) => st.stationId === 'st-a'));
      const taken = await b.dispatch('site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-a', stationName: 'Station B' },
      });
      expect(taken).toMatchObject({
        ok: false,
        error: {
          code: 'conflict',
          message: expect.stringMatching(
            /^Station id st-a is in use by Station A \(seen \d+ s ago\)\. Each station needs its own id/,
          ),
        },
      });
      // B keeps its own id, and A's row is A's.
      expect((await call(b, 'site.status', {})).stationId).toBe('st-b');
      const rows = (await site.owner.stations()).filter((st) => st.stationId === 'st-a');
      expect(rows.map((r) => r.stationName)).toEqual(['Station A']);
      // The same station saving its own settings again is not a conflict, nor a new name for it.
      await call(a, 'site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-a', stationName: 'Station A' },
      });
      const renamed = await call(a, 'site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-a', stationName: 'Dock 1' },
      });
      expect(renamed.stationId).toBe('st-a');
      await until(async () =>
        (await site.owner.stations()).some(
          (st) => st.stationId === 'st-a' && st.stationName === 'Dock 1',
        ),
      );
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a provisioning file is checked whole: a bad siteStore, or a station id in use, stores nothing of it', async () => {
    const { site, a, b } = await stationsAandB();
    const dir = tempDir();
    try {
      await until(async () => (await site.owner.stations()).some((st) => st.stationId === 'st-a'));
      const demo = JSON.parse((await call(a, 'profiles.export', { id: 'demo' })).json) as {
        profiles: Record<string, unknown>[];
      };
      const fileWith = (siteStore: unknown) => {
        const file = join(dir, `provision-${Math.random().toString(36).slice(2)}.json`);
        const profile = { ...demo.profiles[0], id: 'dock-7', name: 'Dock 7' };
        writeFileSync(file, JSON.stringify({ ...demo, profiles: [profile], siteStore }));
        return file;
      };
      const env = { STATION_SECRET_SITE_STORE: STATION_PASSWORD };
      const startWith = (provisionFile: string) => startProvisioned(provisionFile, env);
      // What the station kept (nothing at all: no settings file).
      const stored = (dataDir: string) => {
        const file = join(dataDir, 'settings.json');
        return (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}) as {
          profiles?: unknown[];
          siteStore?: unknown;
        };
      };

      // A station id Station A checked in with a moment ago.
      const taken = await startWith(
        fileWith({ url: site.stationUrl, stationId: 'st-a', stationName: 'Dock 7' }),
      );
      expect(taken.error?.message).toMatch(
        /^Station id st-a is in use by Station A \(seen \d+ s ago\)\. Each station needs its own id/,
      );
      expect(stored(taken.dataDir).profiles ?? []).toEqual([]);
      expect(stored(taken.dataDir).siteStore).toBeUndefined();

      // A siteStore that is not valid: the file's problem, in one sentence, and no profile kept.
      const bad = await startWith(
        fileWith({ url: site.stationUrl, stationId: 'dock 7/x', stationName: 'Dock 7' }),
      );
      expect(bad.error).toMatchObject({
        code: 'settings-invalid',
        message: expect.stringMatching(
          /^The provisioning file is not valid: siteStore\.stationId must be 1 to 63 letters/,
        ),
      });
      expect(stored(bad.dataDir).profiles ?? []).toEqual([]);

      // A file that is not there is said as such.
      const missing = await startWith(join(dir, 'nowhere.json'));
      expect(missing.error).toMatchObject({
        code: 'settings-invalid',
        message: `The provisioning file ${join(dir, 'nowhere.json')} does not exist.`,
      });

      // With an id of its own the same file is taken whole: the profile and the site store.
      const good = await startWith(
        fileWith({ url: site.stationUrl, stationId: 'st-7', stationName: 'Dock 7' }),
      );
      expect(good.error).toBeNull();
      expect(stored(good.dataDir).siteStore).toMatchObject({ stationId: 'st-7' });
      expect(stored(good.dataDir).profiles).toEqual([expect.objectContaining({ id: 'dock-7' })]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a bad address is refused in words; a wrong password is said in Settings and the header', async () => {
    const site = await siteDatabase(pgc.cluster);
    const s = siteStation(tempDir());
    await s.start();
    try {
      const bad = await s.dispatch('site.configure', {
        siteStore: { url: 'mysql://db/site', stationId: 'st-4', stationName: 'Station 4' },
      });
      expect(bad).toMatchObject({
        ok: false,
        error: {
          code: 'validation',
          message: 'The database address must start with postgres:// (it starts with mysql://).',
        },
      });
      const withPassword = await s.dispatch('site.configure', {
        siteStore: { url: 'postgres://u:pw@db/site', stationId: 'st-4', stationName: 'Station 4' },
      });
      expect(withPassword).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/contains a password; remove it/) },
      });

      await call(s, 'site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-4', stationName: 'Station 4' },
        password: 'wrong-password',
      });
      await until(async () => (await call(s, 'station.status', {})).site?.state === 'unreachable');
      const settings = await call(s, 'site.status', {});
      expect(settings.header?.problem).toMatch(/refused the station's user name or password/);
      // The header says the login was refused, not that the store is away.
      expect((await call(s, 'station.status', {})).site?.text).toMatch(/^Site: login refused\b/);
      expect(JSON.stringify(settings)).not.toContain('wrong-password');
      // Where the typed password is kept, in words: here a vault that forgets it at restart.
      expect(settings.passwordFrom).toBe('held in memory for this run only');
      expect(settings.where).toBe(`shipping_station@127.0.0.1:${pgc.cluster.port}/${site.name}`);

      // Refused, the station buys nothing (its site's offline rule is for outages): it cannot
      // check whether another station labelled the order.
      const scan = await scanOrder(s, 'LUM-10421');
      const quote = await call(s, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2.4, boxId: null }],
      });
      const refused = await s.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'site-store-unreachable',
          message: expect.stringMatching(
            /refused the station's user name or password\. .*Nothing was bought: this station cannot check with the site whether another station has labelled this order\./,
          ),
        },
      });

      // Put right, then a new password for the same address and station id (a rotation with a
      // typo): tried before it is kept, and said at saving, as a new address is.
      const right = await call(s, 'site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-4', stationName: 'Station 4' },
        password: STATION_PASSWORD,
      });
      expect(right.saveWarning).toBeNull();
      const typo = await call(s, 'site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-4', stationName: 'Station 4' },
        password: `${STATION_PASSWORD}x`,
      });
      expect(typo.saveWarning).toMatch(/refused the station's user name or password/);
      expect(JSON.stringify(typo)).not.toContain(`${STATION_PASSWORD}x`);
    } finally {
      await s.stop();
    }
  });

  it("the console names the station that polls the site's trackers", async () => {
    const { a, b } = await stationsAandB();
    try {
      const polling = await until(async () => {
        const view = await call(a, 'console.snapshot', {});
        return view.snapshot?.trackerPolling.some((t) => t.stationId !== null) ?? false;
      }).then(async () => (await call(a, 'console.snapshot', {})).snapshot!.trackerPolling);
      expect(polling).toEqual([
        expect.objectContaining({
          tenantId: 'tnt_lumen',
          stationId: expect.stringMatching(/^st-[ab]$/),
          lastPollAt: expect.any(String),
        }),
      ]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a second running station under the same id (a copied disk image) is found out: neither sends nor buys until it is gone', async () => {
    const { site, a, b } = await stationsAandB();
    // A disk image of Station A: its settings, so its site store, id and name (a copied
    // provisioning file on a new data directory is refused at the start: site-copied-file.test).
    const copy = await diskImageOf(site.stationUrl, 'st-a', 'Station A');
    try {
      const header = async (s: Station) => (await call(s, 'station.status', {})).site?.text ?? '';
      // Each finds the other's check-ins between its own.
      await until(async () => /station id in use elsewhere/.test(await header(copy)));
      await until(async () => /station id in use elsewhere/.test(await header(a)));
      const refused = await copy.dispatch('pack.buy', {
        shipmentId: (
          await call(copy, 'pack.rate', {
            orderId: (
              (await call(copy, 'pack.scan', { value: 'LUM-10421' })) as { order: { id: string } }
            ).order.id,
            packages: [{ weightLbs: 1.8, boxId: null }],
          })
        ).shipmentId,
      });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          message: expect.stringMatching(
            /^Another running station checks in to the site store as Station A \(st-a\).*buys nothing until each station has its own station id/,
          ),
        },
      });
      // The copy is closed: the first station finds its id its own again and goes on.
      await copy.stop();
      await until(async () => (await header(a)) === 'Site: synced');
      const { rows } = await site.owner.pool.query('SELECT count(*)::int AS n FROM site_labels');
      expect(rows[0]).toEqual({ n: 0 });
    } finally {
      await Promise.all([a.stop(), b.stop(), copy.stop()]);
    }
  });

  it('a station pointed at another site store sends its whole history there, so the new site knows its labelled orders', async () => {
    const { a, b } = await stationsAandB();
    try {
      const bought = await buy(a, 'LUM-10421');
      await until(async () => (await call(a, 'station.status', {})).site?.text === 'Site: synced');
      const other = await siteDatabase(pgc.cluster);
      await call(a, 'site.configure', {
        siteStore: { url: other.stationUrl, stationId: 'st-a', stationName: 'Station A' },
        password: STATION_PASSWORD,
      });
      await until(async () => {
        const { rows } = await other.owner.pool.query<{ tracking_number: string }>(
          'SELECT tracking_number FROM site_labels',
        );
        return rows.some((r) => r.tracking_number === bought.label!.trackingNumber);
      });
      // The new site's claims know the order: another station there is told, not sold a label.
      const { rows } = await other.owner.pool.query<{ order_number: string; state: string }>(
        'SELECT order_number, state FROM site_order_claims',
      );
      expect(rows).toContainEqual({ order_number: 'LUM-10421', state: 'purchased' });
      await other.owner.close();
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("a label bought at station A is found in station B's History (whole site) and reprinted there, audited site-wide", async () => {
    const { site, a, b, dirB } = await stationsAandB();
    try {
      await call(a, 'settings.update', { userName: 'ana' });
      const heardAtB: unknown[] = [];
      b.onEvent((name, payload) => {
        if (name === 'site-changed') heardAtB.push(payload);
      });
      const bought = await buy(a, 'LUM-10421');
      // B hears of A's commit through LISTEN/NOTIFY, without polling.
      await until(() => heardAtB.some((p) => (p as { stationId: string }).stationId === 'st-a'));
      await until(async () => (await call(a, 'station.status', {})).site?.text === 'Site: synced');

      const page = await call(b, 'site.labels', { query: 'LUM-10421' });
      expect(page.scope).toBe('site');
      expect(page.labels).toHaveLength(1);
      // Typed in lower case (a lead at a keyboard), found all the same.
      const lower = await call(b, 'site.labels', { query: 'lum-10421' });
      expect(lower.labels.map((l) => l.trackingNumber)).toEqual([bought.label?.trackingNumber]);
      expect(page.labels[0]).toMatchObject({
        stationName: 'Station A',
        trackingNumber: bought.label?.trackingNumber,
        here: false,
      });
      const mine = await call(b, 'site.labels', { query: 'LUM-10421', scope: 'station' });
      expect(mine.labels).toEqual([]);

      // B may not buy it again: the order is A's.
      const scan = await call(b, 'pack.scan', { value: 'LUM-10421' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      const quote = await call(b, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 1.8, boxId: null }],
      });
      const refused = await b.dispatch('pack.buy', { shipmentId: quote.shipmentId });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'order-claimed-elsewhere',
          message: expect.stringMatching(
            /^Order LUM-10421 was labelled at Station A at \d\d:\d\d by ana — reprint it here\?/,
          ),
        },
      });

      const before = printed(dirB).length;
      const job = await call(b, 'site.reprint', {
        stationId: page.labels[0]!.stationId,
        labelId: page.labels[0]!.labelId,
        reason: 'label torn at dock',
      });
      expect(job.description).toMatch(/reprint .*\(label torn at dock\)/);
      await until(() => printed(dirB).length === before + 1);
      await until(
        async () =>
          (await call(b, 'site.labels', { query: 'LUM-10421' })).labels[0]!.reprints === 1,
      );

      // A reprints its own label on B's printer (registered at the site by B's check-in).
      await until(async () =>
        (await call(a, 'site.status', {})).sitePrinters.some(
          (p) => p.id === 'site:st-b:virtual-printer',
        ),
      );
      const onB = await call(a, 'site.reprint', {
        stationId: 'st-a',
        labelId: page.labels[0]!.labelId,
        reason: 'box moved to station B',
        printerId: 'site:st-b:virtual-printer',
      });
      expect(onB.printerName).toMatch(/\(Station B\)$/);
      await until(() => printed(dirB).length === before + 2);
      await until(async () => (await call(a, 'station.status', {})).site?.text === 'Site: synced');
      const { rows } = await site.owner.pool.query(
        `SELECT station_id, source, label_station_id, station_user, reason FROM site_reprints ORDER BY reason DESC`,
      );
      expect(rows).toEqual([
        {
          station_id: 'st-b',
          source: 'site',
          label_station_id: 'st-a',
          station_user: 'packer',
          reason: 'label torn at dock',
        },
        {
          station_id: 'st-a',
          source: 'site',
          label_station_id: 'st-a',
          station_user: 'ana',
          reason: 'box moved to station B',
        },
      ]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('an order file is imported once for the site; every station can scan its orders', async () => {
    const { site, a, b } = await stationsAandB();
    try {
      const file = JSON.stringify([candleOrder('SITE-9001')]);
      const first = await call(a, 'orders.import', { fileName: 'wave-12.json', content: file });
      expect(first.imported).toBe(1);
      const second = await b.dispatch('orders.import', {
        fileName: 'wave-12-copy.json',
        content: file,
      });
      expect(second).toMatchObject({
        ok: false,
        error: {
          code: 'conflict',
          message: expect.stringMatching(
            /^wave-12-copy\.json was already imported for this site at Station A \(\d{4}-\d\d-\d\d \d\d:\d\d, as wave-12\.json\); its orders can be scanned at every station\.$/,
          ),
        },
      });
      await until(async () => (await call(a, 'station.status', {})).site?.text === 'Site: synced');
      const scanned = await call(b, 'pack.scan', { value: 'SITE-9001' });
      expect(scanned).toMatchObject({
        kind: 'order',
        order: { orderNumber: 'SITE-9001', shipTo: { name: 'Ada' } },
      });
      // Station B's copy is not sent back to the site as its own import.
      await until(async () => (await call(b, 'station.status', {})).site?.text === 'Site: synced');
      const { rows } = await site.owner.pool.query(
        `SELECT station_id FROM site_orders WHERE order_number = 'SITE-9001'`,
      );
      expect(rows).toEqual([{ station_id: 'st-a' }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('a file that brought in no order is not kept as imported for the site; its own station may import a file again', async () => {
    const { site, a, b } = await stationsAandB();
    try {
      const order = (orderNumber: string, tenantId?: string) => ({
        ...candleOrder(orderNumber),
        ...(tenantId ? { tenantId } : {}),
      });
      // Every row for a brand this profile does not ship for: nothing comes in.
      const refused = JSON.stringify([order('SITE-9101', 'tnt_driftwood')]);
      const first = await call(a, 'orders.import', { fileName: 'wave-13.json', content: refused });
      expect(first.imported).toBe(0);
      expect(first.errorCount).toBe(1);
      const claims = () =>
        site.owner.pool.query(`SELECT file_name, station_id FROM site_import_claims`);
      expect((await claims()).rows).toEqual([]);
      // So another station is not told it was imported (it refuses the rows for itself).
      const atB = await call(b, 'orders.import', { fileName: 'wave-13.json', content: refused });
      expect(atB).toMatchObject({ imported: 0, errorCount: 1 });

      // A file that did bring orders in stays claimed, and its own station may import it again.
      const good = JSON.stringify([order('SITE-9102')]);
      expect(
        (await call(a, 'orders.import', { fileName: 'wave-14.json', content: good })).imported,
      ).toBe(1);
      const again = await call(a, 'orders.import', { fileName: 'wave-14.json', content: good });
      // The same file again: its order is already here, unchanged (not a new version).
      expect(again).toMatchObject({ imported: 0, skipped: 0, alreadyImported: 1 });
      expect((await claims()).rows).toEqual([{ file_name: 'wave-14.json', station_id: 'st-a' }]);
      expect(
        await b.dispatch('orders.import', { fileName: 'wave-14.json', content: good }),
      ).toMatchObject({
        ok: false,
        error: { code: 'conflict' },
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("every station's queues and needs-attention counts are visible from any station", async () => {
    const { a, b } = await stationsAandB();
    try {
      // The platform is down for A's scan: the shipment waits in A's offline queue, and B sees
      // it there (the fault stays until then, so A cannot drain it first).
      sandbox().faults.add({ path: '/api/v1', kind: 'status', status: 503 });
      try {
        const scan = await call(a, 'pack.scan', { value: 'LUM-10422' });
        if (scan.kind !== 'order') throw new Error(scan.kind);
        await a.dispatch('pack.rate', {
          orderId: scan.order.id,
          packages: [{ weightLbs: 2, boxId: null }],
          queue: true,
        });
        await until(async () => (await call(a, 'station.status', {})).queue.shipments === 1);
        await until(async () => {
          const seen = (await call(b, 'site.status', {})).stations.find(
            (s) => s.stationId === 'st-a',
          );
          return seen?.queuedShipments === 1;
        });
      } finally {
        sandbox().faults.clear();
      }
      const view = await call(b, 'site.status', {});
      expect(view.stations.map((s) => s.stationName)).toEqual(['Station A', 'Station B']);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('buying again for a purchase of unknown outcome is refused once another station has labelled the order', async () => {
    const { a, b } = await stationsAandB();
    try {
      // A's purchase goes through at the platform, but the answer is lost: unknown at A.
      await buyWithLostAnswer(a, sandbox(), 'LUM-10423', 1.8);
      // B buys the order all the same (another label, confirmed).
      const scan = await call(b, 'pack.scan', { value: 'LUM-10423' });
      if (scan.kind !== 'order') throw new Error(scan.kind);
      const quote = await call(b, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 1.8, boxId: null }],
        confirmAnother: true,
      });
      const atB = await call(b, 'pack.buy', { shipmentId: quote.shipmentId, confirmAnother: true });
      await until(async () => (await call(b, 'station.status', {})).site?.text === 'Site: synced');

      // A's shift lead then presses "Buy again": refused, naming B's label.
      const item = (await call(a, 'attention.list', {})).find(
        (i) => i.kind === 'purchase-unknown',
      )!;
      const again = await a.dispatch('attention.resolve', { id: item.id, action: 'buy-again' });
      expect(again).toMatchObject({
        ok: false,
        error: {
          code: 'conflict',
          message: expect.stringMatching(
            new RegExp(
              `^Order LUM-10423 was labelled at Station B at .* \\(${atB.label!.trackingNumber}\\): nothing is bought again here\\.`,
            ),
          ),
        },
      });
      expect((await call(a, 'attention.list', {})).map((i) => i.id)).toContain(item.id);
    } finally {
      sandbox().faults.clear();
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
