import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import type { LabelledElsewhereView } from '../../../src/shared/views.js';
import { printed, siteStations, synced } from './site-stations.js';
import { addPackerAndLead, call, packOrder, scanOrder, until } from './support.js';

const root = join(import.meta.dirname, '../../..');

// "Reprint it here?": a packer scans an order another station of the site has labelled. The
// buy is refused (the order claim), and the refusal names that station's label, which this
// station reprints through History's site-wide reprint (site.reprint), with the reason audited.

const { pgc, sandbox, stationsAandB, bThroughRelay } = siteStations();

/** What the packer at B sees when buying an order A has labelled: the refusal as it comes. */
async function buyAtB(b: Station, orderNumber: string) {
  const scan = await scanOrder(b, orderNumber);
  const quote = await call(b, 'pack.rate', {
    orderId: scan.order.id,
    packages: [{ weightLbs: 1.8, boxId: null }],
  });
  const refused = await b.dispatch('pack.buy', { shipmentId: quote.shipmentId });
  if (refused.ok) throw new Error(`${orderNumber} was bought at B`);
  return refused.error;
}

describe('an order labelled at another station, scanned here', () => {
  it("the refusal names the other station's label, which reprints here, audited site-wide", async () => {
    const { site, a, b, dirA, dirB } = await stationsAandB();
    try {
      await call(a, 'settings.update', { userName: 'ana' });
      const bought = await packOrder(a, 'LUM-10421');
      await synced(a);
      await until(() => printed(dirA).length === 1);

      const error = await buyAtB(b, 'LUM-10421');
      expect(error).toMatchObject({
        code: 'order-claimed-elsewhere',
        message: expect.stringMatching(/^Order LUM-10421 was labelled at Station A .*by ana/),
      });
      const there = (error.details as { labelledElsewhere: LabelledElsewhereView })
        .labelledElsewhere;
      expect(there).toMatchObject({
        stationId: 'st-a',
        stationName: 'Station A',
        packer: 'ana',
        label: { trackingNumber: bought.label!.trackingNumber },
      });
      // The very label whole-site History lists for the order.
      const page = await call(b, 'site.labels', { query: 'LUM-10421' });
      expect(there.label!.labelId).toBe(page.labels[0]!.labelId);

      const job = await call(b, 'site.reprint', {
        stationId: there.stationId,
        labelId: there.label!.labelId,
        reason: 'label torn at the dock',
      });
      expect(job.description).toMatch(/reprint .*\(label torn at the dock\)/);
      // Listed at once, sent to the store or not yet (never twice).
      const listed = () =>
        call(b, 'site.labelReprints', { stationId: 'st-a', labelId: there.label!.labelId });
      expect(await listed()).toMatchObject([
        { reason: 'label torn at the dock', stationName: 'Station B' },
      ]);
      await until(() => printed(dirB).length === 1);
      // The same label A printed, on B's printer; nothing was bought twice.
      const zpl = (dir: string) =>
        readFileSync(join(dir, 'virtual-printer', printed(dir)[0]!), 'utf8');
      expect(zpl(dirB)).toBe(zpl(dirA));
      expect(
        sandbox()
          .ledger()
          .filter((e) => e.orderReference?.startsWith('LUM-10421')),
      ).toHaveLength(1);
      // B's End of day counts the reprint made at B (no label of its own bought).
      const today = new Date().toISOString().slice(0, 10);
      expect(await call(b, 'endOfDay.summary', { from: today, to: today })).toMatchObject({
        labels: 0,
        reprints: 1,
      });
      await synced(b);
      const { rows } = await site.owner.pool.query(
        `SELECT station_id, source, label_station_id, reason FROM site_reprints`,
      );
      expect(rows).toEqual([
        {
          station_id: 'st-b',
          source: 'site',
          label_station_id: 'st-a',
          reason: 'label torn at the dock',
        },
      ]);
      expect(await listed()).toHaveLength(1);
      // Each reprint's who, why and where: in whole-site History's detail at any station, and
      // in the buying station's own History detail (its label, reprinted at B).
      const atB = await call(b, 'site.labelReprints', {
        stationId: 'st-a',
        labelId: there.label!.labelId,
      });
      expect(atB).toMatchObject([
        { user: 'packer', reason: 'label torn at the dock', stationName: 'Station B' },
      ]);
      expect(await call(a, 'labels.audit', { labelId: there.label!.labelId })).toMatchObject([
        { user: 'packer', reason: 'label torn at the dock', stationName: 'Station B' },
      ]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("the site's reprint limit counts another station's label too: past it, a lead approves", async () => {
    const { site, a, b, dirB } = await stationsAandB();
    try {
      await packOrder(a, 'LUM-10426');
      await synced(a);
      // B has users: a packer signed in, and a lead who can scan a badge.
      await addPackerAndLead(b);
      await b.context.session.signIn({ userId: 'ana', pin: '4821' });
      const [label] = (await call(b, 'site.labels', { query: 'LUM-10426' })).labels;
      const reprint = (reason: string) =>
        b.dispatch('site.reprint', { stationId: 'st-a', labelId: label!.labelId, reason });
      // Two without a lead (the site's reprintsWithoutLead, 2), each counted by the store.
      for (const [i, reason] of ['label torn', 'label smudged'].entries()) {
        expect(await reprint(reason)).toMatchObject({ ok: true });
        await until(
          async () =>
            (await call(b, 'site.labels', { query: 'LUM-10426' })).labels[0]!.reprints === i + 1,
        );
      }
      expect(await reprint('third copy')).toMatchObject({
        ok: false,
        error: {
          code: 'lead-required',
          message: expect.stringContaining(
            'A shift lead must approve reprint 3 of order LUM-10426 (the site allows 2 without a lead)',
          ),
        },
      });
      await b.context.session.approve({ badge: 'BADGE-0042' });
      expect(await reprint('third copy')).toMatchObject({ ok: true });
      await until(() => printed(dirB).length === 3);
      await synced(b);
      const { rows } = await site.owner.pool.query(
        `SELECT station_user FROM site_reprints WHERE reason = 'third copy'`,
      );
      expect(rows).toEqual([{ station_user: 'Ana Ruiz (approved by Bo Lindqvist)' }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('when the label cannot be had (platform or site store away), the packer is told so in words', async () => {
    const { site, a, b, dirB } = await stationsAandB();
    try {
      await packOrder(a, 'LUM-10422');
      await synced(a);
      const there = (
        (await buyAtB(b, 'LUM-10422')).details as { labelledElsewhere: LabelledElsewhereView }
      ).labelledElsewhere;
      const reprint = () =>
        b.dispatch('site.reprint', {
          stationId: there.stationId,
          labelId: there.label!.labelId,
          reason: 'label torn at the dock',
        });

      // The platform, which keeps every label's ZPL, does not answer.
      const fault = sandbox().faults.add({ method: 'GET', path: '/api/v1/labels/', kind: 'reset' });
      try {
        expect(await reprint()).toMatchObject({
          ok: false,
          error: {
            code: 'platform-unreachable',
            message: expect.stringMatching(
              /could not be reached .*\. Nothing was printed: the label of order LUM-10422 was bought at Station A, .* Try again in a moment, or reprint it at Station A\.$/,
            ),
          },
        });
      } finally {
        sandbox().faults.clear();
      }
      expect(fault.hits).toBeGreaterThan(0);

      // The site store does not answer (B now looks for it where nothing listens): saved all
      // the same, and said at once (a typo in the port is seen at saving).
      const saved = await call(b, 'site.configure', {
        siteStore: {
          url: site.stationUrl.replace(`:${pgc.cluster.port}/`, ':1/'),
          stationId: 'st-b',
          stationName: 'Station B',
        },
      });
      expect(saved.configured).toBe(true);
      expect(saved.saveWarning).toMatch(
        /^The site store at .* has never answered this station: check its address in Settings → Site store \(host, port and database\) with site IT \(it does not answer \(connection refused\)\)\. Until it answers, this station buys no label\.$/,
      );
      expect(await reprint()).toMatchObject({
        ok: false,
        error: {
          code: 'site-store-unreachable',
          message: expect.stringMatching(
            /^The site store at .* does not answer \(connection refused\): nothing was printed\. .*reprint it at the station that bought it, or here once the site store answers again\.$/,
          ),
        },
      });
      expect(printed(dirB)).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('while the store is away, an order it said was labelled elsewhere is still refused, its file imported again or not', async () => {
    const { site, a, b } = await stationsAandB();
    // B reaches the store through a relay: cut, the store B has reached goes away (an outage).
    const proxy = await bThroughRelay(site, b);
    try {
      await call(a, 'settings.update', { userName: 'ana' });
      const bought = await packOrder(a, 'LUM-10423');
      await synced(a);
      expect((await buyAtB(b, 'LUM-10423')).code).toBe('order-claimed-elsewhere');

      // The store goes away (the relay is cut); the sample file, the order's phone number
      // changed, is imported again at B, which replaces its copy of the order.
      await proxy.cut();
      const report = await call(b, 'orders.import', {
        fileName: 'sample-orders.csv',
        content: readFileSync(join(root, 'resources/orders/sample-orders.csv'), 'utf8').replace(
          '617-555-0107',
          '617-555-0199',
        ),
      });
      expect(report).toMatchObject({ imported: 1, errorCount: 0 });

      const error = await buyAtB(b, 'LUM-10423');
      expect(error).toMatchObject({
        code: 'order-claimed-elsewhere',
        message: expect.stringMatching(
          new RegExp(
            String.raw`^Order LUM-10423 was labelled at Station A at \d\d:\d\d by ana \(${bought.label!.trackingNumber}\), as the site store said at \d\d:\d\d\. Nothing was bought\. The site store at .* does not answer \(connection refused\)\..*Ctrl\+Shift\+A buys another label all the same\.$`,
          ),
        ),
      });
      expect(
        (error.details as { labelledElsewhere: LabelledElsewhereView }).labelledElsewhere,
      ).toMatchObject({
        stationName: 'Station A',
        label: { trackingNumber: bought.label!.trackingNumber },
      });
      // One label for the order, A's: nothing was bought at B in the outage.
      expect(
        sandbox()
          .ledger()
          .filter((e) => e.orderReference?.startsWith('LUM-10423')),
      ).toHaveLength(1);
      // An order the store never said anything about is bought offline as before.
      expect((await packOrder(b, 'LUM-10424')).label).toBeTruthy();
    } finally {
      await proxy.close();
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('an order labelled at another station before the outage, never tried here, is refused offline too', async () => {
    const { site, a, b } = await stationsAandB();
    try {
      const bought = await packOrder(a, 'LUM-10425');
      await synced(a);
      // B reads what other stations labelled while the store answers (the check-in after A's
      // commit is heard); B itself never scans the order before the outage.
      const kept = () =>
        b.context.db
          .prepare(`SELECT tracking_number FROM site_labelled_elsewhere WHERE order_number = ?`)
          .get('LUM-10425') as { tracking_number: string } | undefined;
      await until(() => kept()?.tracking_number === bought.label!.trackingNumber);
      // A scan at B says so at once (no rates asked), while the store still answers.
      const scanned = await scanOrder(b, 'LUM-10425');
      expect(scanned.labelledElsewhere).toMatchObject({
        stationName: 'Station A',
        label: { trackingNumber: bought.label!.trackingNumber },
      });

      await call(b, 'site.configure', {
        siteStore: {
          url: site.stationUrl.replace(`:${pgc.cluster.port}/`, ':1/'),
          stationId: 'st-b',
          stationName: 'Station B',
        },
      });
      const error = await buyAtB(b, 'LUM-10425');
      expect(error).toMatchObject({
        code: 'order-claimed-elsewhere',
        message: expect.stringMatching(
          /^Order LUM-10425 was labelled at Station A at \d\d:\d\d .*as the site store said at \d\d:\d\d\. Nothing was bought\./,
        ),
      });
      expect(
        sandbox()
          .ledger()
          .filter((e) => e.orderReference?.startsWith('LUM-10425')),
      ).toHaveLength(1);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("a label voided at the carrier at its station is said so at another station's scan: not offered for reprint, another bought there with a lead", async () => {
    const { site, a, b } = await stationsAandB();
    try {
      await call(a, 'settings.update', { userName: 'ana' });
      const bought = await packOrder(a, 'LUM-10426');
      const tracking = bought.label!.trackingNumber;
      await synced(a);
      // B keeps A's label (read from the store while it answers), as in the test above.
      await until(
        () =>
          b.context.db
            .prepare(`SELECT 1 FROM site_labelled_elsewhere WHERE tracking_number = ?`)
            .get(tracking) !== undefined,
      );
      // A's shift lead voids it at the carrier (wrong address) and marks it in A's History.
      const row = (await call(a, 'labels.search', { query: tracking, limit: 10, offset: 0 }))
        .labels[0]!;
      await call(a, 'labels.markVoided', { id: row.id, voided: true, reason: 'wrong address' });
      await until(async () => {
        const { rows } = await site.owner.pool.query<{ voided: unknown }>(
          `SELECT voided FROM site_labels WHERE tracking_number = $1`,
          [tracking],
        );
        return rows[0]?.voided ?? null;
      });

      // B's scan says it (the store asked): the label is not one to reprint.
      const scanned = await scanOrder(b, 'LUM-10426');
      expect(scanned.labelledElsewhere).toMatchObject({
        stationName: 'Station A',
        label: { trackingNumber: tracking, voided: { reason: 'wrong address' } },
      });
      // A buy without asking for another is refused in the same words, nothing bought.
      const refused = await buyAtB(b, 'LUM-10426');
      expect(refused).toMatchObject({
        code: 'order-claimed-elsewhere',
        message: expect.stringMatching(
          new RegExp(
            String.raw`^Order LUM-10426 was labelled at Station A at \d\d:\d\d by ana, and that label \(${tracking}\) was voided at the carrier there \(wrong address\): it is not reprinted\. Nothing was bought\. Ctrl\+Shift\+A buys another label\.$`,
          ),
        ),
      });
      expect(
        (refused.details as { labelledElsewhere: LabelledElsewhereView }).labelledElsewhere.label,
      ).toMatchObject({ trackingNumber: tracking, voided: { reason: 'wrong address' } });

      // Another label, asked for: a packer at B needs a lead's badge, then it is bought at B.
      const labelsOf = () =>
        sandbox()
          .ledger()
          .filter((e) => e.orderReference?.startsWith('LUM-10426')).length;
      const before = labelsOf();
      await addPackerAndLead(b);
      await b.context.session.signIn({ userId: 'ana', pin: '4821' });
      await b.context.session.approve({ badge: 'BADGE-0042' });
      const quote = await call(b, 'pack.rate', {
        orderId: scanned.order.id,
        packages: [{ weightLbs: 1.8, boxId: null }],
        confirmAnother: true,
      });
      const another = await call(b, 'pack.buy', {
        shipmentId: quote.shipmentId,
        confirmAnother: true,
      });
      expect(another.label?.trackingNumber).toMatch(/\S/);
      expect(another.label?.trackingNumber).not.toBe(tracking);
      expect(labelsOf()).toBe(before + 1);

      // Back at A, once it keeps B's label: the order was labelled again there. The scan offers
      // B's label (not "buy another", which would be a second live label), and A's Orders row
      // names it.
      await until(
        () =>
          a.context.db
            .prepare(`SELECT 1 FROM site_labelled_elsewhere WHERE tracking_number = ?`)
            .get(another.label!.trackingNumber) !== undefined,
      );
      const atA = await scanOrder(a, 'LUM-10426');
      expect(atA.existingLabels).toMatchObject([
        { trackingNumber: tracking, voided: { reason: 'wrong address' } },
      ]);
      expect(atA.labelledElsewhere).toMatchObject({
        stationName: 'Station B',
        label: { trackingNumber: another.label!.trackingNumber },
      });
      expect(atA.labelledElsewhere!.label!.voided).toBeUndefined();
      const rowAtA = (await call(a, 'orders.page', { search: 'LUM-10426' })).rows[0]!;
      expect(rowAtA).toMatchObject({
        status: 'labelled',
        reason: `its label here was voided at the carrier (wrong address); labelled again at Station B (${another.label!.trackingNumber})`,
      });
      // History's note on A's voided label names B's label instead of asking for another.
      const history = await call(a, 'labels.search', { query: 'LUM-10426', limit: 10, offset: 0 });
      expect(history.labels.find((l) => l.trackingNumber === tracking)?.voided).toMatchObject({
        reason: 'wrong address',
        labelledAgain: `Station B (${another.label!.trackingNumber})`,
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
