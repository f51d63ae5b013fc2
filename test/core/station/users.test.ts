import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalUsers } from '../../../src/core/users/local.js';
import { badgeDigest, hashPin, verifyPin } from '../../../src/core/users/pin.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import type { Station } from '../../../src/core/station/index.js';
import {
  allPrinted,
  call,
  demoStationsPerTest,
  labelsFor,
  ratedShipment,
  scanOrder,
  loseNextLabelAnswer,
} from './support.js';

const stations = demoStationsPerTest();
const repo = join(import.meta.dirname, '../../..');

const ANA = { userId: 'ana', name: 'Ana Ruiz', pin: '4821', badge: 'BADGE-0017' };
const BO = { userId: 'bo', name: 'Bo Lindqvist', pin: '7305', badge: 'BADGE-0042' };

async function addUsers(s: Station) {
  s.context.users.upsert({
    userId: ANA.userId,
    name: ANA.name,
    role: 'packer',
    badgeSha256: badgeDigest(ANA.badge),
    pinHash: await hashPin(ANA.pin),
    active: true,
  });
  s.context.users.upsert({
    userId: BO.userId,
    name: BO.name,
    role: 'lead',
    badgeSha256: badgeDigest(BO.badge),
    pinHash: await hashPin(BO.pin),
    active: true,
  });
}

const rated = ratedShipment;

describe('PINs', () => {
  it('are kept as scrypt with a salt of their own, and only the right PIN verifies', async () => {
    const a = await hashPin('4821');
    const b = await hashPin('4821');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('4821');
    expect(await verifyPin('4821', a)).toBe(true);
    expect(await verifyPin('4822', a)).toBe(false);
    await expect(hashPin('12')).rejects.toThrow('A PIN is 4 to 12 digits.');
  });
});

describe('sign-in and roles at a station', () => {
  it('a station alone with no users: nobody signs in, buying another label works as before', async () => {
    const { s, sandbox } = await stations.start();
    expect(s.context.session.required()).toBe(false);
    await call(s, 'pack.buy', { shipmentId: await rated(s, 'LUM-10421') });
    const again = await call(s, 'pack.buy', {
      shipmentId: await rated(s, 'LUM-10421', true),
      confirmAnother: true,
    });
    expect(again.outcome).toMatch(/^print(ing|ed)$/);
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(2);
  });

  it("a packer's buy-another is refused until a lead's badge is scanned at the station", async () => {
    const { s, sandbox } = await stations.start();
    await addUsers(s);

    // Users are set up: nobody packs without signing in.
    const scan = await scanOrder(s, 'LUM-10421');
    const refused = await s.dispatch('pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 2, boxId: null }],
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
    await expect(s.context.session.signIn({ userId: 'ana', pin: '0000' })).rejects.toThrow(
      'That user name and PIN do not match.',
    );
    // A badge nobody has, and the badge of a user site IT disabled, are told apart.
    await expect(s.context.session.signIn({ badge: 'BADGE-9999' })).rejects.toThrow(
      /^That badge is not known at this site/,
    );
    s.context.users.upsert({
      userId: 'cy',
      name: 'Cy Former',
      role: 'packer',
      badgeSha256: badgeDigest('BADGE-0077'),
      pinHash: null,
      active: false,
    });
    await expect(s.context.session.signIn({ badge: 'BADGE-0077' })).rejects.toThrow(
      "That badge's user can no longer sign in here (disabled by site IT). Ask site IT or the shift lead.",
    );
    expect(await s.context.session.signIn({ userId: 'ana', pin: ANA.pin })).toEqual({
      userId: 'ana',
      name: ANA.name,
      role: 'packer',
    });
    const first = await call(s, 'pack.buy', { shipmentId: await rated(s, 'LUM-10421') });
    expect(first.outcome).toMatch(/^print(ing|ed)$/);
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);

    // Another label for the same order: refused, nothing bought.
    const shipmentId = await rated(s, 'LUM-10421', true);
    const noLead = await s.dispatch('pack.buy', { shipmentId, confirmAnother: true });
    expect(noLead).toEqual({
      ok: false,
      error: {
        code: 'lead-required',
        message:
          'A shift lead must approve buying another label for order LUM-10421 (lead, scan your badge at this station: it then goes ahead by itself). Nothing was done yet.',
      },
    });
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);

    // A packer's badge does not approve.
    await expect(s.context.session.approve({ badge: ANA.badge })).rejects.toThrow(
      'Ana Ruiz is not a shift lead; a shift lead must scan their badge.',
    );
    expect(await s.dispatch('pack.buy', { shipmentId, confirmAnother: true })).toMatchObject({
      ok: false,
      error: { code: 'lead-required' },
    });

    // The lead scans their badge at Ana's station: the next buy-another goes through.
    expect(await s.context.session.approve({ badge: ` ${BO.badge}\n` })).toMatchObject({
      name: BO.name,
      role: 'lead',
    });
    const approved = await call(s, 'pack.buy', { shipmentId, confirmAnother: true });
    expect(approved.outcome).toMatch(/^print(ing|ed)$/);
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(2);
    const rows = s.context.db
      .prepare<[], { confirmed_by: string | null; station_user: string | null }>(
        `SELECT p.confirmed_by, s.station_user FROM label_purchases p
           JOIN shipments s ON s.id = p.shipment_id ORDER BY p.created_at`,
      )
      .all();
    expect(rows).toEqual([
      { confirmed_by: null, station_user: ANA.name },
      { confirmed_by: BO.name, station_user: ANA.name },
    ]);

    // The approval was for one action: a third label needs the lead again.
    expect(
      await s.dispatch('pack.buy', {
        shipmentId: await rated(s, 'LUM-10421', true),
        confirmAnother: true,
      }),
    ).toMatchObject({ ok: false, error: { code: 'lead-required' } });
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(2);
  });

  it("a packer may not change the rate rule or turn off scanning every item; a lead's badge approves", async () => {
    const { s } = await stations.start();
    await addUsers(s);
    await s.context.session.signIn({ badge: ANA.badge });
    const profile = (await call(s, 'profiles.list', {})).find((p) => p.active)!;
    const rule = { ...profile.rateRule, strategy: 'fastest' as const };
    expect(await s.dispatch('profiles.update', { id: profile.id, rateRule: rule })).toMatchObject({
      ok: false,
      error: {
        code: 'lead-required',
        message: expect.stringMatching(
          /^A shift lead must approve changing the rate rule \(profile .+\)/,
        ),
      },
    });
    await call(s, 'profiles.update', { id: profile.id, requireItemVerification: true });
    expect(
      await s.dispatch('profiles.update', { id: profile.id, requireItemVerification: false }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'lead-required',
        message: expect.stringMatching(/turning off the scan of every item into the box/),
      },
    });
    // Nothing changed meanwhile; the same rule sent again (a form saved whole) asks nobody.
    const kept = (await call(s, 'profiles.list', {})).find((p) => p.active)!;
    expect(kept.rateRule.strategy).toBe(profile.rateRule.strategy);
    expect(kept.requireItemVerification).toBe(true);
    await call(s, 'profiles.update', { id: profile.id, rateRule: kept.rateRule });
    // Bo approves: the change goes through.
    await s.context.session.approve({ badge: BO.badge });
    await call(s, 'profiles.update', { id: profile.id, rateRule: rule });
    expect((await call(s, 'profiles.list', {})).find((p) => p.active)!.rateRule.strategy).toBe(
      'fastest',
    );
  });

  it('a packer disabled by site IT while signed in: the next buy says why nobody is signed in', async () => {
    const { s, sandbox } = await stations.start();
    await addUsers(s);
    await s.context.session.signIn({ badge: ANA.badge });
    const shipmentId = await rated(s, 'LUM-10421');
    // Site IT disables Ana (npm run site -- users disable ana; copied at the next check-in).
    const ana = s.context.users.list().find((u) => u.userId === 'ana')!;
    s.context.users.upsert({ ...ana, active: false });
    expect(await s.dispatch('pack.buy', { shipmentId })).toEqual({
      ok: false,
      error: {
        code: 'sign-in-required',
        message:
          'Ana Ruiz was disabled by site IT and is signed out here. Sign in first: scan your badge, or type your user name and PIN.',
      },
    });
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(0);
    // The sign-in screen says it too, until someone signs in.
    expect(await call(s, 'users.session', {})).toMatchObject({
      user: null,
      signedOut: 'Ana Ruiz was disabled by site IT and is signed out here.',
    });
    await s.context.session.signIn({ badge: BO.badge });
    expect((await call(s, 'users.session', {})).signedOut).toBeNull();
  });

  it('marking an unknown purchase as not bought needs a lead; the lead is recorded, in the log too', async () => {
    const logged: string[] = [];
    const { s, sandbox } = await stations.start({ log: (line) => logged.push(line) });
    await addUsers(s);
    await s.context.session.signIn({ userId: 'ana', pin: ANA.pin });
    const shipmentId = await rated(s, 'LUM-10422');
    // The platform sells the label and the connection drops before its answer: unknown.
    loseNextLabelAnswer(sandbox());
    const lost = await s.dispatch('pack.buy', { shipmentId });
    expect(lost).toMatchObject({ ok: false, error: { code: 'purchase-outcome-unknown' } });
    const [item] = await call(s, 'attention.list', {});
    const refused = await s.dispatch('attention.resolve', {
      id: item!.id,
      action: 'mark-not-bought',
      note: 'no label on the printer',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'lead-required',
        message: expect.stringContaining(
          'A shift lead must approve marking the purchase for order LUM-10422 as not bought',
        ),
      },
    });
    expect(await call(s, 'attention.list', {})).toHaveLength(1);
    await s.context.session.approve({ badge: BO.badge });
    await call(s, 'attention.resolve', {
      id: item!.id,
      action: 'mark-not-bought',
      note: 'no label on the printer',
    });
    expect(await call(s, 'attention.list', {})).toHaveLength(0);
    const row = s.context.db
      .prepare<[], { state: string; resolved_by: string }>(
        'SELECT state, resolved_by FROM label_purchases',
      )
      .get();
    expect(row).toEqual({ state: 'not-bought', resolved_by: `${BO.name} (for ${ANA.name})` });
    expect(logged.find((l) => l.startsWith('needs attention purchase:'))).toMatch(
      new RegExp(
        `: mark-not-bought by ${BO.name} \\(for ${ANA.name}\\): no label on the printer \\(Released as not bought`,
      ),
    );
  });

  it("cancelling an order needs a lead; who cancelled it and the lead's approval are kept", async () => {
    const { s, sandbox } = await stations.start();
    await addUsers(s);
    await s.context.session.signIn({ userId: 'ana', pin: ANA.pin });
    const scan = await scanOrder(s, 'LUM-10424');
    const ask = { orderIds: [scan.order.id], reason: 'customer cancelled' };
    expect(await s.dispatch('orders.cancel', ask)).toMatchObject({
      ok: false,
      error: {
        code: 'lead-required',
        message: expect.stringContaining('A shift lead must approve cancelling an order'),
      },
    });
    await s.context.session.approve({ badge: BO.badge });
    expect(await call(s, 'orders.cancel', ask)).toEqual({ done: ['LUM-10424'], left: [] });
    const page = await call(s, 'orders.page', { statuses: ['cancelled'] });
    expect(page.rows.map((r) => r.reason)).toEqual([
      `Cancelled by ${ANA.name} (approved by ${BO.name}): customer cancelled`,
    ]);
    // Nothing buys it now: the packer's rating is refused, saying so.
    const refused = await s.dispatch('pack.rate', {
      orderId: scan.order.id,
      packages: [{ weightLbs: 2, boxId: null }],
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Order LUM-10424 was cancelled by Ana Ruiz/) },
    });
    expect(labelsFor(sandbox, 'LUM-10424')).toBe(0);
    // Reopening is a lead's too.
    expect(
      await s.dispatch('orders.reopen', { orderIds: [scan.order.id], reason: 'Ships after all' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'lead-required' },
    });
    // And it says why: a reopen without a reason is refused before a lead is asked.
    expect(await s.dispatch('orders.reopen', { orderIds: [scan.order.id] })).toMatchObject({
      ok: false,
      error: { code: 'validation' },
    });
  });

  it('reprints beyond the allowed count need a lead; the approver is recorded', async () => {
    const { s } = await stations.start();
    await addUsers(s);
    await s.context.session.signIn({ badge: ANA.badge });
    const bought = await call(s, 'pack.buy', { shipmentId: await rated(s, 'LUM-10421') });
    if (bought.outcome !== 'printed' && bought.outcome !== 'printing')
      throw new Error(bought.outcome);
    const id = bought.label!.id;
    for (let i = 0; i < 2; i++) {
      await allPrinted(s);
      await call(s, 'labels.reprint', { id, reason: 'jammed' });
    }
    await allPrinted(s);
    expect(await s.dispatch('labels.reprint', { id, reason: 'jammed' })).toMatchObject({
      ok: false,
      error: {
        code: 'lead-required',
        message: expect.stringContaining(
          'reprint 3 of order LUM-10421 (the site allows 2 without a lead)',
        ),
      },
    });
    await s.context.session.approve({ userId: 'bo', pin: BO.pin });
    await call(s, 'labels.reprint', { id, reason: 'jammed' });
    const audit = await call(s, 'labels.audit', { labelId: id });
    expect(audit.map((a) => a.user)).toContain(`${ANA.name} (approved by ${BO.name})`);
  });

  it('site IT adds users to a station alone with the CLI; badge and PIN come from standard input', async () => {
    const { dataDir } = await stations.start();
    const run = (args: string[], input: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', 'src/core/site/cli.ts', 'users', ...args, '--station-dir', dataDir],
          { cwd: repo },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
        child.stdin!.end(input);
      });
    const added = await run(
      ['add', 'cam', '--name', 'Cam Ortiz', '--role', 'lead', '--badge', '--pin'],
      'BADGE-0099\n5150\n',
    );
    expect(added).toMatchObject({ code: 0, stdout: 'Cam Ortiz (cam) is a shift lead.\n' });
    const bad = await run(['add', 'dee', '--name', 'Dee', '--role', 'packer', '--pin'], '12\n');
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('A PIN is 4 to 12 digits.'),
    });
    // Cam's badge cannot be given to another user: said in words, nothing saved.
    const taken = await run(
      ['add', 'eve', '--name', 'Eve', '--role', 'packer', '--badge'],
      'BADGE-0099\n',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('That badge already belongs to Cam Ortiz (cam)');
    const db = openDatabase(join(dataDir, 'station.db'));
    const users = new LocalUsers(db);
    expect(users.byId('eve')).toBeNull();
    const cam = users.byBadge(badgeDigest('BADGE-0099'));
    expect(cam).toMatchObject({ userId: 'cam', role: 'lead' });
    expect(await verifyPin('5150', cam!.pinHash!)).toBe(true);
    expect(users.byId('dee')).toBeNull();
    db.close();
  });

  it('a mistyped station folder is said, not made into a new station database', async () => {
    const missing = join(tmpdir(), `no-station-${process.pid}-${Date.now()}`);
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/core/site/cli.ts', 'users', 'list', '--station-dir', missing],
        { cwd: repo },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`No station data in ${missing} (station.db not found)`);
    expect(existsSync(missing)).toBe(false);
  });
});
