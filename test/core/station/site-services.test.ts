import { execFile } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleSnapshot } from '../../../src/core/site/console.js';
import { connectionOf } from '../../../src/core/site/connection.js';
import { createStation, type Station } from '../../../src/core/station/index.js';
import { tenantsOf } from '../../../src/core/profiles/profile-schema.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { ConfSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { badgeDigest, hashPin } from '../../../src/core/users/pin.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { tempDir } from '../../support/tmp.js';
import { usePostgres } from '../../support/use-postgres.js';
import { siteDatabase, STATION_PASSWORD, type SiteDatabase } from '../site/support.js';
import { SUPERUSER_PASSWORD } from '../../support/postgres.js';
import { call, orderIdOf, scanOrder, until, type Sandbox } from './support.js';

// Issue 14 with real PostgreSQL: site users, site settings and the console's picture, with two
// stations (each its own SQLite) on one site store and one sandbox.

const root = join(import.meta.dirname, '../../..');
const pgc = usePostgres();
let shared: Sandbox;
beforeAll(async () => {
  shared = await startSandbox();
});
afterAll(() => shared.close());

function siteStation(dataDir: string): Station {
  const c = () => shared.fixtures.apiClients.find((x) => x.clientId === 'demo-lumen-full')!;
  return createStation({
    dataDir,
    host: 'web',
    version: '0.14.0',
    settings: new ConfSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
    resourcesDir: join(root, 'resources'),
    startSandbox: async () => ({
      baseUrl: shared.url,
      clientId: c().clientId,
      clientSecret: c().clientSecret,
      tenantId: c().tenantId,
      close: async () => {},
    }),
  });
}

/** A site user with a badge and a PIN, as `npm run site -- users add` stores one. */
async function addUser(
  site: SiteDatabase,
  userId: string,
  name: string,
  role: 'packer' | 'lead',
  badge: string,
  pin: string,
) {
  await site.owner.saveUser({
    userId,
    name,
    role,
    badgeSha256: badgeDigest(badge),
    pinHash: await hashPin(pin),
    active: true,
  });
}

async function twoStations(site: SiteDatabase) {
  const a = siteStation(tempDir());
  const b = siteStation(tempDir());
  await Promise.all([a.start(), b.start()]);
  for (const [s, id, name] of [
    [a, 'st-a', 'Station A'],
    [b, 'st-b', 'Station B'],
  ] as const)
    await call(s, 'site.configure', {
      siteStore: { url: site.stationUrl, stationId: id, stationName: name },
      password: STATION_PASSWORD,
    });
  return { a, b, stop: () => Promise.all([a.stop(), b.stop()]) };
}

const siteBoxes = [
  { id: 'site-10', name: 'Site 10×8×4', code: 'S10', lengthIn: 10, widthIn: 8, heightIn: 4 },
];

describe('site services with a site store', () => {
  it('site settings set once are picked up by every station; an override is marked', async () => {
    const site = await siteDatabase(pgc.cluster);
    await site.owner.setSetting('boxPresets', JSON.stringify(siteBoxes));
    await site.owner.setSetting(
      'rateRule',
      JSON.stringify({ strategy: 'fastest', preferredServiceLevels: [], excludedCarriers: [] }),
    );
    const { a, b, stop } = await twoStations(site);
    try {
      for (const s of [a, b]) {
        await until(async () => (await call(s, 'settings.get', {})).boxes[0]?.id === 'site-10');
        await until(() => s.context.runtimeOrNull()?.profile.rateRule.strategy === 'fastest');
        expect(s.context.siteSettingSources()).toMatchObject({
          boxPresets: 'site',
          rateRule: 'site',
          packingSlip: 'station',
        });
      }
      // Station A keeps its own boxes: shown as an override; B still follows the site.
      a.context.options.settings.set('siteOverrides', ['boxPresets']);
      expect((await call(a, 'settings.get', {})).boxes.map((x) => x.id)).toEqual([
        'box-s',
        'box-m',
        'box-l',
      ]);
      expect(a.context.siteSettingSources().boxPresets).toBe('station-override');
      expect((await call(b, 'settings.get', {})).boxes.map((x) => x.id)).toEqual(['site-10']);
      // Settings → Site settings reads each value in use, not only where it comes from.
      expect((await call(b, 'siteSettings.get', {})).values).toMatchObject({
        boxPresets: '1 preset: Site 10×8×4',
        rateRule: 'fastest',
        offlinePurchase: expect.stringMatching(/^allowed/),
        reprintsWithoutLead: expect.stringMatching(/^\d+$/),
        packingSlip: 'none',
      });
      // A change made once reaches every station at its next check-in, and its page is told
      // (trial of 2026-11-29: Pack, open meanwhile, offered the old boxes, and every rating of
      // an order with the old box code failed "box box-s is not one of the station's box
      // presets"): the status event carries the presets' new fingerprint.
      const before = (await call(b, 'station.status', {})).boxPresets;
      expect(before).toMatch(/^[\w-]{16}$/);
      const stamps: (string | undefined)[] = [];
      const off = b.onEvent((name, payload) => {
        if (name === 'status') stamps.push((payload as { boxPresets?: string }).boxPresets);
      });
      await site.owner.setSetting(
        'boxPresets',
        JSON.stringify([{ ...siteBoxes[0], id: 'site-12', name: 'Site 12' }]),
      );
      await until(async () => (await call(b, 'settings.get', {})).boxes[0]?.id === 'site-12');
      await until(() => stamps.some((x) => x !== undefined && x !== before));
      off();
    } finally {
      await stop();
    }
  });

  it('a new site rate rule is taken by the running profile: a running batch goes on, the next rating uses it', async () => {
    const site = await siteDatabase(pgc.cluster);
    const s = siteStation(tempDir());
    await s.start();
    try {
      await call(s, 'site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'st-r', stationName: 'Station R' },
        password: STATION_PASSWORD,
      });
      await until(() => s.context.siteSettings());
      const runtime = s.context.runtime();
      expect(runtime.profile.rateRule.strategy).toBe('cheapest');
      // Each label takes 1.5 s: the batch is still buying when the site's rule arrives.
      shared.faults.add({
        method: 'POST',
        path: '/api/v1/labels',
        kind: 'delay',
        delayMs: 1500,
      });
      const ids = [];
      for (const n of ['LUM-10421', 'LUM-10422', 'LUM-10423', 'LUM-10425'])
        ids.push(await orderIdOf(s, n));
      const batch = await call(s, 'batch.start', { orderIds: ids, description: 'evening' });
      expect(batch.state).toBe('running');

      await site.owner.setSetting(
        'rateRule',
        JSON.stringify({ strategy: 'fastest', preferredServiceLevels: [], excludedCarriers: [] }),
      );
      await until(() => s.context.runtime().profile.rateRule.strategy === 'fastest');
      // The same runtime took it (its tracker leadership kept); the batch was not paused.
      expect(s.context.runtime()).toBe(runtime);
      const running = (await call(s, 'batch.list', {})).find((b) => b.id === batch.id)!;
      expect(running.state).toBe('running');
      expect(running.done).toBeLessThan(ids.length);
      shared.faults.clear();
      const done = await until(async () =>
        (await call(s, 'batch.list', {})).find((b) => b.id === batch.id && b.state === 'done'),
      );
      expect(done.bought).toBe(ids.length);

      // The next rating chooses by the site's rule.
      const scan = await scanOrder(s, 'LUM-10426');
      const quote = await call(s, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 8.5, boxId: null }],
      });
      expect(quote.reason).toMatch(/fastest/);
    } finally {
      shared.faults.clear();
      await s.stop();
    }
  });

  it("the site's users sign in at any station; a station's role cannot write users", async () => {
    const site = await siteDatabase(pgc.cluster);
    await addUser(site, 'bo', 'Bo Lindqvist', 'lead', 'BADGE-0042', '7305');
    const { a, b, stop } = await twoStations(site);
    try {
      for (const s of [a, b]) {
        await until(() => s.context.users.count() === 1);
        expect(await s.context.session.signIn({ badge: 'BADGE-0042' })).toMatchObject({
          name: 'Bo Lindqvist',
          role: 'lead',
        });
      }
      // Signed in: the purchase records the user, in the site store too.
      const scan = await scanOrder(b, 'LUM-10421');
      const quote = await call(b, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      await call(b, 'pack.buy', { shipmentId: quote.shipmentId });
      await until(async () => {
        const { rows } = await site.owner.pool.query<{ packer: string }>(
          'SELECT packer FROM site_labels',
        );
        return rows[0]?.packer === 'Bo Lindqvist';
      });

      // Site IT disables Bo: each station copies the change at its next check-in (every 2 s),
      // not at its full read of the site's users (every 30 s), signs Bo out and tells the page.
      const events: unknown[] = [];
      b.onEvent((name, payload) => {
        if (name === 'status')
          events.push((payload as { signedInUserId?: unknown }).signedInUserId);
      });
      const bo = (await site.owner.users()).find((u) => u.userId === 'bo')!;
      const disabledAt = Date.now();
      await site.owner.saveUser({ ...bo, active: false });
      await until(
        () => a.context.session.current() === null && b.context.session.current() === null,
      );
      expect(Date.now() - disabledAt).toBeLessThan(15_000);
      // The page hears it (the status event names nobody signed in) and turns to sign-in.
      await until(() => events.includes(null));
      expect((await call(b, 'users.session', {})).signedOut).toBe(
        'Bo Lindqvist was disabled by site IT and is signed out here.',
      );
      const c = new pg.Client(connectionOf(site.stationUrl, STATION_PASSWORD));
      await c.connect();
      await expect(
        c.query(`INSERT INTO site_users (user_id, name, role) VALUES ('x', 'x', 'lead')`),
      ).rejects.toThrow(/permission denied/);
      await c.end();
    } finally {
      await stop();
    }
  });

  it("a packer may not change the station's site store or resolve a possible double label; a lead's badge approves", async () => {
    const site = await siteDatabase(pgc.cluster);
    await addUser(site, 'dee', 'Dee Park', 'packer', 'BADGE-0007', '1111');
    await addUser(site, 'cy', 'Cy Okafor', 'lead', 'BADGE-0042', '7305');
    const { a, stop } = await twoStations(site);
    try {
      await until(() => a.context.users.count() === 2);
      await a.context.session.signIn({ badge: 'BADGE-0007' });
      const status = await call(a, 'site.status', {});
      // A field that cannot be is said first, in the form's words: no lead is asked for (an
      // approval would be spent on a form refused anyway).
      const typo = await a.dispatch('site.configure', {
        siteStore: { url: site.stationUrl, stationId: 'chi 01!', stationName: 'Station A' },
      });
      expect(typo).toMatchObject({
        ok: false,
        error: { code: 'validation', message: expect.stringMatching(/^The station id must be /) },
      });
      const moved = await a.dispatch('site.configure', {
        siteStore: {
          url: site.stationUrl.replace(/\/[^/]+$/, '/shipping_sitx'),
          stationId: status.stationId!,
          stationName: status.stationName!,
        },
      });
      expect(moved).toMatchObject({
        ok: false,
        error: {
          code: 'lead-required',
          message: expect.stringMatching(
            /^A shift lead must approve changing this station's site store or its password/,
          ),
        },
      });
      expect((await call(a, 'site.status', {})).stationId).toBe(status.stationId);
      const resolve = await a.dispatch('site.resolveAttention', {
        id: 'site-double-1',
        note: 'kept st1 label',
      });
      expect(resolve).toMatchObject({ ok: false, error: { code: 'lead-required' } });
      // A lead scans their badge: the next such action is allowed.
      await a.context.session.approve({ badge: 'BADGE-0042' });
      const again = await a.dispatch('site.resolveAttention', {
        id: 'site-double-1',
        note: 'kept st1 label',
      });
      expect(again).not.toMatchObject({ error: { code: 'lead-required' } });

      // Keeping the station's own rate rule instead of the site's is a lead's decision too;
      // following the site again is not.
      const own = await a.dispatch('siteSettings.override', { key: 'rateRule', override: true });
      expect(own).toMatchObject({
        ok: false,
        error: {
          code: 'lead-required',
          message: expect.stringMatching(
            /^A shift lead must approve keeping this station's own rate rule instead of the site's/,
          ),
        },
      });
      expect(a.context.siteOverrides()).toEqual([]);
      await a.context.session.approve({ badge: 'BADGE-0042' });
      await call(a, 'siteSettings.override', { key: 'rateRule', override: true });
      expect(a.context.siteOverrides()).toEqual(['rateRule']);
      await call(a, 'siteSettings.override', { key: 'rateRule', override: false });
      expect(a.context.siteOverrides()).toEqual([]);
    } finally {
      await stop();
    }
  });

  it("the console's picture: stations with heartbeat, labels per hour, cost, carriers not AUTHORIZED", async () => {
    const site = await siteDatabase(pgc.cluster);
    const { a, b } = await twoStations(site);
    let bStopped = false;
    try {
      const scan = await scanOrder(b, 'LUM-10422');
      const quote = await call(b, 'pack.rate', {
        orderId: scan.order.id,
        packages: [{ weightLbs: 2, boxId: null }],
      });
      await call(b, 'pack.buy', { shipmentId: quote.shipmentId });
      shared.setConnectionStatus('conn_lumen_fedex', 'EXPIRED');
      await call(a, 'carriers.list', { refresh: true });
      const scope = a.context.runtime().scope;
      const brands = tenantsOf(a.context.runtime().profile);
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      const offset = -new Date().getTimezoneOffset();
      const snap = await until(async () => {
        const s = await consoleSnapshot(
          site.owner.pool,
          scope,
          midnight.toISOString(),
          offset,
          true,
          brands,
        );
        return s.labelsPerHour.length === 1 &&
          s.carriersNotAuthorized.some((c) => c.authorizationStatus === 'EXPIRED') &&
          s.stations.every((x) => x.appVersion)
          ? s
          : null;
      });
      expect(snap.stations.map((s) => [s.stationId, s.online, s.appVersion])).toEqual([
        ['st-a', true, '0.14.0 · site schema 9'],
        ['st-b', true, '0.14.0 · site schema 9'],
      ]);
      expect(snap.labelsPerHour).toEqual([
        { hour: new Date().getHours(), stationId: 'st-b', packer: 'packer', labels: 1 },
      ]);
      expect(snap.costToday).toEqual([
        expect.objectContaining({ tenantId: 'tnt_lumen', labels: 1, currency: 'USD' }),
      ]);
      expect(snap.costToday[0]!.cents).toBeGreaterThan(0);
      expect(
        snap.carriersNotAuthorized.map((c) => [c.tenantId, c.carrier, c.authorizationStatus]),
      ).toContainEqual(['tnt_lumen', 'FEDEX', 'EXPIRED']);
      expect(snap.carriersNotAuthorized.every((c) => c.authorizationStatus !== 'AUTHORIZED')).toBe(
        true,
      );
      // A station that stopped checking in shows offline once its last heartbeat is 10 s old.
      await b.stop();
      bStopped = true;
      await site.owner.pool.query(
        `UPDATE site_stations SET last_seen_at = now() - interval '11 seconds' WHERE station_id = 'st-b'`,
      );
      const later = await consoleSnapshot(
        site.owner.pool,
        scope,
        midnight.toISOString(),
        offset,
        true,
        brands,
      );
      expect(later.stations.map((s) => [s.stationId, s.online])).toEqual([
        ['st-a', true],
        ['st-b', false],
      ]);
    } finally {
      shared.setConnectionStatus('conn_lumen_fedex', 'AUTHORIZED');
      await Promise.all([a.stop(), bStopped ? null : b.stop()]);
    }
  });

  it('a label voided at the carrier at its station is marked in the store: the console leaves it out, Site History says it, no station reprints it; taken back, it counts again', async () => {
    const site = await siteDatabase(pgc.cluster);
    const { a, b, stop } = await twoStations(site);
    try {
      const buy = async (s: Station, order: string) => {
        const scan = await scanOrder(s, order);
        const quote = await call(s, 'pack.rate', {
          orderId: scan.order.id,
          packages: [{ weightLbs: 2, boxId: null }],
        });
        return (await call(s, 'pack.buy', { shipmentId: quote.shipmentId })).label!;
      };
      const kept = await buy(a, 'LUM-10421');
      const voided = await buy(a, 'LUM-10422');
      const scope = a.context.runtime().scope;
      const brands = tenantsOf(a.context.runtime().profile);
      const midnight = new Date();
      midnight.setHours(0, 0, 0, 0);
      const offset = -new Date().getTimezoneOffset();
      const snapshot = () =>
        consoleSnapshot(site.owner.pool, scope, midnight.toISOString(), offset, true, brands);
      const labelsToday = (s: Awaited<ReturnType<typeof snapshot>>) =>
        s.labelsPerHour.reduce((n, r) => n + r.labels, 0);
      await until(async () => {
        const s = await snapshot();
        return labelsToday(s) === 2 && s.costToday[0]?.labels === 2 ? true : null;
      });

      const row = (
        await call(a, 'labels.search', { query: voided.trackingNumber, limit: 10, offset: 0 })
      ).labels[0]!;
      await call(a, 'labels.markVoided', { id: row.id, voided: true, reason: 'wrong address' });
      // The picture's queries run side by side: both sides have the mark once both say so.
      const snap = await until(async () => {
        const s = await snapshot();
        return labelsToday(s) === 1 && s.costToday[0]?.voided === 1 ? s : null;
      });
      expect(snap.costToday).toEqual([
        expect.objectContaining({ tenantId: 'tnt_lumen', labels: 1, voided: 1 }),
      ]);
      expect(snap.costToday[0]!.cents).toBe(Math.round(kept.cost * 100));
      expect(snap.costToday[0]!.voidedCents).toBe(Math.round(voided.cost * 100));
      // Through the contract too, as the Site view reads it.
      const view = await call(b, 'console.snapshot', {});
      expect(view.snapshot?.costToday[0]).toMatchObject({ labels: 1, voided: 1 });

      // Site History at B says it, with who and why; B's reprint of it is refused, nothing printed.
      const history = await call(b, 'site.labels', { query: 'LUM-10422', scope: 'site' });
      const there = history.labels.find((l) => l.trackingNumber === voided.trackingNumber)!;
      expect(there).toMatchObject({ stationId: 'st-a', voided: { reason: 'wrong address' } });
      const jobs = (await call(b, 'queue.list', {})).printJobs.length;
      expect(
        await b.dispatch('site.reprint', {
          stationId: 'st-a',
          labelId: there.labelId,
          reason: 'smudged',
        }),
      ).toMatchObject({
        ok: false,
        error: {
          code: 'conflict',
          message: expect.stringMatching(
            new RegExp(
              `^${voided.trackingNumber} was marked voided at the carrier at Station A by .+ \\(wrong address\\): it must not go on a parcel`,
            ),
          ),
        },
      });
      expect((await call(b, 'queue.list', {})).printJobs.length).toBe(jobs);
      // The label kept is not marked.
      const other = (await call(b, 'site.labels', { query: 'LUM-10421', scope: 'site' })).labels;
      expect(other.find((l) => l.trackingNumber === kept.trackingNumber)?.voided).toBeUndefined();

      // Taken back: it counts again, and the store's mark goes.
      await call(a, 'labels.markVoided', {
        id: row.id,
        voided: false,
        reason: 'marked by mistake',
      });
      const back = await until(async () => {
        const s = await snapshot();
        return labelsToday(s) === 2 && s.costToday[0]?.voided === 0 ? s : null;
      });
      expect(back.costToday[0]).toMatchObject({ labels: 2, voided: 0, voidedCents: 0 });
      const { rows } = await site.owner.pool.query<{ voided: unknown }>(
        `SELECT voided FROM site_labels WHERE station_id = 'st-a' ORDER BY local_id`,
      );
      expect(rows.map((r) => r.voided)).toEqual([null, null]);
    } finally {
      await stop();
    }
  });

  it('site IT sets site settings and adds site users with npm run site (checked before stored)', async () => {
    const site = await siteDatabase(pgc.cluster);
    const run = (args: string[], input = '') =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', 'src/core/site/cli.ts', ...args, '--url', site.ownerUrl],
          { cwd: root, env: { ...process.env, PGPASSWORD: SUPERUSER_PASSWORD } },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
        child.stdin!.end(input);
      });
    expect(await run(['setting', 'rateRule', '{"strategy":"slowest"}'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('rateRule: strategy must be one of "cheapest", "fastest"'),
    });
    // A negative number is said as a value, not taken for an option.
    expect(await run(['setting', 'reprintsWithoutLead', '-1'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^-1 is not a value here: numbers below 0 are not accepted/),
    });
    expect(await run(['offline-purchase', 'maybe'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^offline-purchase is allow or refuse, not "maybe"\n\nusage: /),
    });
    // No users yet: said, not an empty answer.
    expect((await run(['users', 'list'])).stdout).toMatch(/^No users yet: nobody signs in/);
    expect(
      await run(['users', 'add', 'eve', '--name', 'Eve', '--role', 'boss', '--badge'], 'B-1\n'),
    ).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^"boss" is not a role: a user is a packer or a lead\./),
    });
    expect(await run(['setting', 'reprintsWithoutLead', '3'])).toMatchObject({
      code: 0,
      stdout: 'reprintsWithoutLead is now 3 for every station of the site.\n',
    });
    expect(
      await run(
        ['users', 'add', 'bo', '--name', 'Bo Lindqvist', '--role', 'lead', '--badge'],
        'BADGE-0042\n',
      ),
    ).toMatchObject({ code: 0, stdout: 'Bo Lindqvist (bo) is a shift lead.\n' });
    expect((await site.owner.settings()).reprintsWithoutLead).toBe('3');
    const users = await site.owner.users();
    expect(users).toEqual([
      expect.objectContaining({
        userId: 'bo',
        role: 'lead',
        badgeSha256: badgeDigest('BADGE-0042'),
      }),
    ]);
    expect(JSON.stringify(users)).not.toContain('BADGE-0042');
    expect((await run(['users', 'list'])).stdout).toBe(
      'id\tname\trole\tbadge\tPIN\tstate\nbo\tBo Lindqvist\tlead\tbadge\t-\tactive\n',
    );
  });
});
