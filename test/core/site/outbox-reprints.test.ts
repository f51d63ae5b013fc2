import { describe, expect, it } from 'vitest';
import { SiteOutbox } from '../../../src/core/site/outbox.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from '../packing/support/station.js';
import { orderId, stationFor } from '../packing/support/harness.js';

// Site History's Reprints count: the reprints made here that the outbox has not sent yet are
// counted per label (this station's own labels and other stations'), until the store has them.

const sb = useSandbox();

describe("the outbox's unsent reprints", () => {
  it('counts each label reprinted here until the store has the reprint', async () => {
    const s = await stationFor((p) => lumenProfile(sb.url, p));
    s.importSamples();
    const outbox = new SiteOutbox(s.db, 'st-a');
    outbox.enable();
    const shipped = await s.workflow.ship(orderId(s, 'LUM-10421'), { stationUser: 'ana' });
    if (!('label' in shipped) || !shipped.label) throw new Error(shipped.outcome);
    const labelId = shipped.label.id;
    const sentBefore = outbox.next(1000)!.upTo;
    outbox.ack(sentBefore);
    expect(outbox.unsentReprints()).toEqual(new Map());

    // Two reprints of this station's own label, one of another station's label 17.
    const reprint = s.db.prepare(
      `INSERT INTO reprints (label_id, profile_id, environment, tenant_id, station_user, reason,
         printer_id, created_at)
       VALUES (?, 'lumen-chicago-1', 'sandbox', 'tnt_lumen', 'ana', 'torn', 'zd', ?)`,
    );
    reprint.run(labelId, new Date().toISOString());
    reprint.run(labelId, new Date().toISOString());
    outbox.recordSiteReprint({
      label_station_id: 'st-b',
      label_local_id: 17,
      profile_id: 'lumen-chicago-1',
      environment: 'sandbox',
      tenant_id: 'tnt_lumen',
      order_number: 'LUM-10422',
      station_user: 'ana',
      reason: 'smudged',
      printer_id: 'zd',
      print_job_id: null,
    });
    expect(outbox.unsentReprints()).toEqual(
      new Map([
        [`st-a:${labelId}`, 2],
        ['st-b:17', 1],
      ]),
    );
    // Sent and committed in the store: counted there, not here.
    outbox.ack(outbox.next(1000)!.upTo);
    expect(outbox.unsentReprints()).toEqual(new Map());
  });
});

describe('the whole history queued again', () => {
  it('once, however often a store address is saved before any store had it', async () => {
    const s = await stationFor((p) => lumenProfile(sb.url, p));
    s.importSamples();
    const depth = () =>
      (s.db.prepare('SELECT count(*) AS n FROM site_outbox').get() as { n: number }).n;
    const outbox = new SiteOutbox(s.db, 'st-a');
    outbox.enable();
    const once = depth();
    expect(once).toBeGreaterThan(0);
    // Site IT saves an address with a typo, then another, then the right one: each a "move".
    for (let i = 0; i < 3; i++) {
      SiteOutbox.disable(s.db);
      outbox.enable();
    }
    expect(depth()).toBe(once);
  });
});
