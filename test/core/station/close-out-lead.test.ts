import { describe, expect, it } from 'vitest';
import type { Sandbox } from './support.js';
import {
  addPackerAndLead,
  call,
  demoStationsPerTest,
  labelsFor,
  ratedShipment,
} from './support.js';

// Trial of 2026-11-29: a packer at a station of a site with users opened End of day, chose
// Whole site and pressed Alt+M, Enter: every station's labels went on the carriers' manifests,
// no shift lead asked. Closing out is now a lead's, as buying another label is.

const stations = demoStationsPerTest();

/** POST /api/v1/manifests requests the platform received. */
const manifestPosts = (sandbox: () => Sandbox): number =>
  sandbox()
    .requests()
    .filter((r) => r.method === 'POST' && r.path === '/api/v1/manifests').length;

describe('closing out the day where users are set up', () => {
  it("is refused to a packer until a shift lead's badge approves it, then goes ahead", async () => {
    const { s, sandbox } = await stations.start();
    await addPackerAndLead(s);
    await s.context.session.signIn({ userId: 'ana', pin: '4821' });
    await call(s, 'pack.buy', { shipmentId: await ratedShipment(s, 'LUM-10421') });
    expect(labelsFor(sandbox, 'LUM-10421')).toBe(1);
    const today = new Date().toISOString().slice(0, 10);

    expect(await s.dispatch('endOfDay.manifest', { from: today, to: today })).toEqual({
      ok: false,
      error: {
        code: 'lead-required',
        message: `A shift lead must approve closing out ${today} with the carriers (lead, scan your badge at this station: it then goes ahead by itself). Nothing was done yet.`,
      },
    });
    expect(manifestPosts(sandbox)).toBe(0);

    // The lead scans their badge at the packer's station: the close-out goes ahead, once.
    await s.context.session.approve({ badge: 'BADGE-0042' });
    const made = await call(s, 'endOfDay.manifest', { from: today, to: today });
    expect(made.manifests.reduce((n, m) => n + m.labels, 0)).toBe(1);
    expect(manifestPosts(sandbox)).toBe(1);
    const again = await s.dispatch('endOfDay.manifest', { from: today, to: today });
    expect(again.ok ? 'ok' : again.error.code).toBe('lead-required');
  });

  it('needs no lead at a station with no users (as before)', async () => {
    const { s, sandbox } = await stations.start();
    await call(s, 'pack.buy', { shipmentId: await ratedShipment(s, 'LUM-10421') });
    const today = new Date().toISOString().slice(0, 10);
    const made = await call(s, 'endOfDay.manifest', { from: today, to: today });
    expect(made.manifests.reduce((n, m) => n + m.labels, 0)).toBe(1);
    expect(manifestPosts(sandbox)).toBe(1);
  });
});
