import { describe, expect, it } from 'vitest';
import { addPackerAndLead, call, demoStationsPerTest, packOrder } from './support.js';

// History → Voided at the carrier…, through the station's contract: the mark, who and why on the
// label, End of day without it, no reprint, a lead's action once users are set up.

const stations = demoStationsPerTest();

describe('History: a label voided at the carrier', () => {
  it('is marked with who and why, left out of End of day, never reprinted, and taken back by a lead', async () => {
    const { s } = await stations.start();
    const first = (await packOrder(s, 'LUM-10421')).label!;
    await packOrder(s, 'LUM-10424');
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const q = { from: day, to: day, utcOffsetMinutes: -today.getTimezoneOffset() };
    const before = await call(s, 'endOfDay.summary', q);
    expect(before.labels).toBe(2);
    const row = (
      await call(s, 'labels.search', { query: first.trackingNumber, limit: 10, offset: 0 })
    ).labels[0]!;

    // A reason is asked for.
    expect(
      await s.dispatch('labels.markVoided', { id: row.id, voided: true, reason: '' }),
    ).toMatchObject({ ok: false, error: { code: 'validation' } });

    const marked = await call(s, 'labels.markVoided', {
      id: row.id,
      voided: true,
      reason: 'wrong address, relabelled',
    });
    expect(marked.voided).toMatchObject({ reason: 'wrong address, relabelled' });
    expect(Date.parse(marked.voided!.at)).not.toBeNaN();
    const found = await call(s, 'labels.search', {
      query: first.trackingNumber,
      limit: 10,
      offset: 0,
    });
    expect(found.labels[0]!.voided?.reason).toBe('wrong address, relabelled');
    expect((await call(s, 'labels.get', { id: row.id })).voided?.by).toBe(marked.voided!.by);

    const after = await call(s, 'endOfDay.summary', q);
    expect(after).toMatchObject({ labels: 1, voided: 1, cost: expect.any(Number) });
    expect(after.voidedCost).toBeCloseTo(first.cost, 2);
    expect(after.cost).toBeCloseTo(before.cost - first.cost, 2);

    // Orders says it on the order's row, with what to do; the other labelled order says nothing.
    const reasons = async () =>
      Object.fromEntries(
        (await call(s, 'orders.page', { statuses: ['labelled'] })).rows.map((o) => [
          o.orderNumber,
          o.reason,
        ]),
      );
    expect(await reasons()).toEqual({
      'LUM-10421':
        'its label was voided at the carrier (wrong address, relabelled): buy another at Pack (scan it, then Ctrl+Shift+A)',
      'LUM-10424': null,
    });

    const reprint = await s.dispatch('labels.reprint', { id: row.id, reason: 'smudged' });
    expect(reprint).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringContaining('marked voided at the carrier'),
      },
    });

    // With users set up it is a lead's: a packer is asked for one, the lead's approval kept.
    await addPackerAndLead(s);
    await s.context.session.signIn({ userId: 'ana', pin: '4821' });
    const undo = { id: row.id, voided: false, reason: 'marked by mistake' };
    expect(await s.dispatch('labels.markVoided', undo)).toMatchObject({
      ok: false,
      error: { code: 'lead-required', message: expect.stringContaining('voided mark') },
    });
    await s.context.session.approve({ badge: 'BADGE-0042' });
    expect((await call(s, 'labels.markVoided', undo)).voided).toBeUndefined();
    expect((await call(s, 'endOfDay.summary', q)).labels).toBe(2);
    expect((await reasons())['LUM-10421']).toBeNull();
  });
});
