import { describe, expect, it } from 'vitest';
import { endOfDay, endOfDayCsv, renderEndOfDay } from '../../../src/core/labels/end-of-day.js';
import { OrderList } from '../../../src/core/orders/order-list.js';
import { LabelReprints } from '../../../src/core/labels/reprint.js';
import { useSandbox } from '../../support/sandbox.js';
import { orderId, stationFor } from '../packing/support/harness.js';
import { lumenProfile } from '../packing/support/station.js';

const sb = useSandbox();

async function station() {
  sb.clearFaults();
  const s = await stationFor((printers) => lumenProfile(sb.url, printers));
  s.importSamples();
  return s;
}

describe('the Orders view (#15.2)', () => {
  it('pages on the station, counts each status and filters by status, search and single-item', async () => {
    const s = await station();
    const list = new OrderList(s.db);
    const scope = s.workflow.scope;
    expect((await s.workflow.ship(orderId(s, 'LUM-10421'), { stationUser: 'ana' })).outcome).toBe(
      'printed',
    );
    const o22 = s.workflow.orders.get(orderId(s, 'LUM-10422'))!;
    s.workflow.verification.scan(o22, 'CNDL-SEA-12', { quantity: 3 });

    const all = list.page(scope, { limit: 2 });
    expect(all.total).toBe(6);
    expect(all.rows.map((r) => r.orderNumber)).toEqual(['LUM-10426', 'LUM-10425']);
    expect(all.counts).toEqual({
      open: 4,
      verified: 1,
      labelled: 1,
      queued: 0,
      failed: 0,
      cancelled: 0,
    });
    const next = list.page(scope, { limit: 2, offset: 4 });
    expect(next.rows.map((r) => r.orderNumber)).toEqual(['LUM-10422', 'LUM-10421']);
    expect(next.rows[0]).toMatchObject({ status: 'verified', unitCount: 3, packageCount: 1 });
    expect(next.rows[1]).toMatchObject({ status: 'labelled', weightKnown: true });

    const labelled = list.page(scope, { statuses: ['labelled', 'verified'] });
    expect(labelled.total).toBe(2);
    expect(labelled.counts.open).toBe(4); // counts stay those of every status
    expect(list.page(scope, { search: 'portland' }).rows.map((r) => r.orderNumber)).toEqual([
      'LUM-10424',
    ]);
    expect(list.page(scope, { search: 'LUM-10424' }).rows[0]).toMatchObject({
      packageCount: 2,
      unitCount: 4,
    });
    // No single-item order in the sample (every one has quantity ≥ 2 or two packages).
    expect(list.page(scope, { singleItem: true }).total).toBe(0);
  });

  it('an order whose purchase the platform refused is failed; one waiting offline is queued', async () => {
    const s = await station();
    const list = new OrderList(s.db);
    sb.fault({ method: 'POST', path: '/api/v1/labels', times: 1, kind: 'status', status: 400 });
    const id = orderId(s, 'LUM-10423');
    expect((await s.workflow.ship(id, { stationUser: 'ana' })).outcome).toBe('failed');
    expect(list.statusOf([id]).get(id)).toBe('failed');
    expect(
      list.page(s.workflow.scope, { statuses: ['failed'] }).rows.map((r) => r.orderNumber),
    ).toEqual(['LUM-10423']);
    // Rated again and bought: no longer failed.
    expect((await s.workflow.ship(id, { stationUser: 'ana' })).outcome).toBe('printed');
    expect(list.statusOf([id]).get(id)).toBe('labelled');
  });
});

describe('end of day (#15.9)', () => {
  it('per day and carrier: labels, packages, cost and brands; as CSV and as a receipt', async () => {
    const s = await station();
    for (const n of ['LUM-10421', 'LUM-10424', 'LUM-10425'])
      expect((await s.workflow.ship(orderId(s, n), { stationUser: 'ana' })).outcome).toBe(
        'printed',
      );
    const labels = s.workflow.labels.forOrder(orderId(s, 'LUM-10424'));
    const today = new Date().toISOString().slice(0, 10);
    const days = endOfDay(s.db, s.workflow.scope, { from: today, to: today }, () => 'Lumen');
    expect(days).toHaveLength(1);
    const day = days[0]!;
    expect(day).toMatchObject({ day: today, labels: 3, packages: 4, reprints: 0 });
    expect(day.costCents).toBe(day.carriers.reduce((n, c) => n + c.costCents, 0));
    expect(day.carriers.flatMap((c) => c.brands.map((b) => b.name))).toContain('Lumen');
    expect(labels[0]!.costCents).toBeGreaterThan(0);

    // The day before has nothing.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(endOfDay(s.db, s.workflow.scope, { from: yesterday, to: yesterday }, () => '')).toEqual(
      [],
    );

    const csv = endOfDayCsv(days);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'day,carrier,brand,tenant_id,labels,cost_usd,packages,return_labels,return_cost_usd,voided_labels,voided_cost_usd',
    );
    expect(lines.slice(1).reduce((n, l) => n + Number(l.split(',')[4]), 0)).toBe(3);
    // Packages as the view counts them; no return label among these three.
    expect(lines.slice(1).reduce((n, l) => n + Number(l.split(',')[6]), 0)).toBe(day.packages);
    expect(lines.slice(1).every((l) => l.split(',')[7] === '0')).toBe(true);
    expect(
      endOfDayCsv([
        {
          ...day,
          carriers: [
            {
              ...day.carriers[0]!,
              brands: [
                {
                  tenantId: 't',
                  name: '=HYPERLINK("x")',
                  labels: 1,
                  costCents: 100,
                  packages: 1,
                  returns: 0,
                  returnCostCents: 0,
                  voided: 0,
                  voidedCostCents: 0,
                },
              ],
            },
          ],
        },
      ]),
    ).toContain(`"'=HYPERLINK(""x"")"`);

    // Reprints today: counted on the day they were made (no cost), on the receipt too, as labels
    // printed: LUM-10424's two packages twice, then one of them alone (5).
    const reprints = new LabelReprints(s.db, s.workflow.labels, {
      enqueue: () => ({ id: 1 }),
    });
    for (const reason of ['label smudged', 'box re-taped'])
      await reprints.reprint(s.workflow.scope, {
        labelId: labels[0]!.id,
        printerId: s.printerConfig.id,
        stationUser: 'ana',
        reason,
      });
    expect(labels[0]!.packageTrackingNumbers).toHaveLength(2);
    await reprints.reprint(s.workflow.scope, {
      labelId: labels[0]!.id,
      printerId: s.printerConfig.id,
      stationUser: 'ana',
      reason: 'one box re-taped',
      packageIndex: 1,
    });
    const withReprints = endOfDay(
      s.db,
      s.workflow.scope,
      { from: today, to: today },
      () => 'Lumen',
    );
    expect(withReprints).toEqual([{ ...day, reprints: 5 }]);
    expect(
      renderEndOfDay(withReprints, { station: 'Lumen 1', printedAt: new Date() }).toString(
        'latin1',
      ),
    ).toMatch(/ {2}Reprints +5/);

    const receipt = renderEndOfDay(days, { station: 'Lumen 1', printedAt: new Date() }).toString(
      'latin1',
    );
    expect(receipt).toContain('END OF DAY');
    // Printed in the time its days are counted in, the offset said.
    expect(
      renderEndOfDay(days, {
        station: 'Lumen 1',
        printedAt: new Date('2026-11-28T12:40:00Z'),
        utcOffsetMinutes: -300,
      }).toString('latin1'),
    ).toContain('Printed 2026-11-28 07:40 (UTC-05:00)');
    expect(receipt).toContain(`${today}`);
    expect(receipt).toContain(`3 labels  $${(day.costCents / 100).toFixed(2)}`);
    expect(() =>
      endOfDay(s.db, s.workflow.scope, { from: 'yesterday', to: today }, () => ''),
    ).toThrow(/YYYY-MM-DD/);
  });
});
