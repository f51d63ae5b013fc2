import { describe, expect, it } from 'vitest';
import {
  endOfDay,
  endOfDayCsv,
  manifestGroups,
  renderEndOfDay,
} from '../../../src/core/labels/end-of-day.js';
import { LabelReprints } from '../../../src/core/labels/reprint.js';
import { LabelVoids } from '../../../src/core/labels/voids.js';
import { openDatabase } from '../../../src/core/storage/database.js';
import { useSandbox } from '../../support/sandbox.js';
import { orderId, stationFor } from '../packing/support/harness.js';
import { lumenProfile } from '../packing/support/station.js';

// A label a shift lead voided at the carrier's portal (the platform shows no void), marked in
// History: End of day leaves it out of the day's labels and cost and off the manifest, and it is
// never reprinted; the mark taken back counts it again.

const sb = useSandbox();

describe('a label marked voided at the carrier', () => {
  it('is left out of End of day and the manifest, refused a reprint, and counts again once the mark is taken back', async () => {
    sb.clearFaults();
    const s = await stationFor((printers) => lumenProfile(sb.url, printers));
    s.importSamples();
    for (const n of ['LUM-10421', 'LUM-10424', 'LUM-10425'])
      expect((await s.workflow.ship(orderId(s, n), { stationUser: 'ana' })).outcome).toBe(
        'printed',
      );
    const today = new Date().toISOString().slice(0, 10);
    const q = { from: today, to: today };
    const scope = s.workflow.scope;
    const [before] = endOfDay(s.db, scope, q, () => 'Lumen');
    const voided = s.workflow.labels.forOrder(orderId(s, 'LUM-10421'))[0]!;
    const voids = new LabelVoids(s.db);

    const mark = voids.mark(voided.id, 'lee', 'wrong address, relabelled');
    expect(mark).toMatchObject({
      labelId: voided.id,
      by: 'lee',
      reason: 'wrong address, relabelled',
    });
    // A second mark keeps the first (who and why).
    expect(voids.mark(voided.id, 'ana', 'again')).toEqual(mark);

    const [after] = endOfDay(s.db, scope, q, () => 'Lumen');
    expect(after).toMatchObject({
      labels: before!.labels - 1,
      costCents: before!.costCents - voided.costCents,
      voided: 1,
      voidedCostCents: voided.costCents,
    });
    const brandVoids = after!.carriers.flatMap((c) => c.brands).reduce((n, b) => n + b.voided, 0);
    expect(brandVoids).toBe(1);
    // The CSV: labels and cost without it, and the voided columns at the end.
    const rows = endOfDayCsv([after!])
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(rows.reduce((n, r) => n + Number(r[4]), 0)).toBe(before!.labels - 1);
    expect(rows.reduce((n, r) => n + Number(r[9]), 0)).toBe(1);
    expect(rows.reduce((n, r) => n + Number(r[10]), 0)).toBeCloseTo(voided.costCents / 100, 2);
    expect(
      renderEndOfDay([after!], { station: 'Lumen 1', printedAt: new Date() }).toString('latin1'),
    ).toMatch(/Voided \(not counted\) +1/);
    // Not on the manifest.
    const manifested = manifestGroups(s.db, scope, q).flatMap((g) =>
      g.labels.map((l) => l.labelId),
    );
    expect(manifested).not.toContain(voided.platformLabelId);
    expect(manifested).toHaveLength(before!.labels - 1);

    // Never reprinted: the refusal says why and what to do instead; nothing is queued.
    const queued: unknown[] = [];
    const reprints = new LabelReprints(
      s.db,
      s.workflow.labels,
      { enqueue: (job) => (queued.push(job), { id: 1 }) },
      {},
      voids,
    );
    await expect(
      reprints.reprint(scope, {
        labelId: voided.id,
        printerId: s.printerConfig.id,
        stationUser: 'ana',
        reason: 'smudged',
      }),
    ).rejects.toMatchObject({
      code: 'label-voided',
      message: expect.stringContaining('Ctrl+Shift+A'),
    });
    expect(queued).toEqual([]);

    // Kept in the file (as after a restart), then taken back: counted again.
    const again = openDatabase(s.dbFile);
    try {
      expect(new LabelVoids(again).of([voided.id]).get(voided.id)).toEqual(mark);
    } finally {
      again.close();
    }
    expect(voids.unmark(voided.id)).toBe(true);
    expect(voids.unmark(voided.id)).toBe(false);
    expect(endOfDay(s.db, scope, q, () => 'Lumen')).toEqual([before]);
  });
});
