import { describe, expect, it } from 'vitest';
import type { Station } from '../../../src/core/station/index.js';
import {
  call,
  demoStationsPerTest,
  labelsOf,
  online,
  packOrder,
  queued,
  until,
  weighAndRate,
} from './support.js';

// The offline queue through a refused API key and through refusals of its own entries: what
// waited is never dropped for a station-wide fault, and a failed entry can be taken back.

const stations = demoStationsPerTest();

const queueOrder = (s: Station, orderNumber: string) => weighAndRate(s, orderNumber, true);

describe('offline queue and the API key', () => {
  it('an order queued while the platform refuses the key waits (saying why), and is bought once site IT stores the right key', async () => {
    const { s, sandbox } = await stations.start();
    await online(s);
    // The key's owner rotates it on the platform; the station still has the old secret.
    sandbox().setClientSecret('demo-lumen-full', 'Rotated-Secret-77');

    const rated = await weighAndRate(s, 'LUM-10421');
    expect(rated).toMatchObject({
      unreachable: true,
      reason: expect.stringMatching(
        /^The platform did not accept the API key of client demo-lumen-full.* Nothing was bought or queued\. Ctrl\+Enter queues this order: it is labelled by the profile's rule once site IT has put the key right in Settings/,
      ),
    });
    // Queued, said as waiting for the key (the platform answers: not an outage).
    expect(await queueOrder(s, 'LUM-10421')).toMatchObject({
      queued: true,
      reason: expect.stringMatching(
        /Nothing was bought: the shipment waits in the offline queue and is labelled once site IT has put the API key right \(call the shift lead\)\.$/,
      ),
    });

    // The drainer tries, is refused again, and the entry keeps waiting (it used to fail).
    const waiting = await until(async () => {
      const q = await queued(s, 'LUM-10421');
      return q && q.attempts >= 1 ? q : null;
    });
    expect(waiting).toMatchObject({
      state: 'waiting',
      lastError: expect.stringMatching(/did not accept the API key/),
    });
    expect(labelsOf(sandbox(), 'LUM-10421')).toHaveLength(0);

    // Site IT stores the new secret: the queue goes on at once, not at its next backoff.
    await call(s, 'profiles.setSecret', { id: 'demo', clientSecret: 'Rotated-Secret-77' });
    await until(() => labelsOf(sandbox(), 'LUM-10421').length === 1);
    await until(async () => (await queued(s, 'LUM-10421')) === undefined);
  });

  it('Retry now takes a failed queue entry back; one whose order got its label since leaves the Queue', async () => {
    const { s, sandbox } = await stations.start();
    await online(s);
    // The platform is away for rates (the orders queue), then refuses their labels.
    const away = sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'reset' });
    expect((await queueOrder(s, 'LUM-10422')).queued).toBe(true);
    expect((await queueOrder(s, 'LUM-10423')).queued).toBe(true);
    expect(away.hits).toBeGreaterThan(0);
    sandbox().faults.clear();
    sandbox().faults.add({ method: 'POST', path: '/api/v1/labels', kind: 'status', status: 422 });
    // Retry now on a waiting entry drains at once (it did before, too).
    await call(s, 'queue.retry', { kind: 'shipment', id: (await queued(s, 'LUM-10422'))!.id });
    const failed = await until(async () => {
      const [a, b] = [await queued(s, 'LUM-10422'), await queued(s, 'LUM-10423')];
      return a?.state === 'failed' && b?.state === 'failed' ? ([a, b] as const) : null;
    });
    expect(labelsOf(sandbox(), 'LUM-10422')).toHaveLength(0);

    // The platform takes labels again. Retry now on the first: queued again, bought.
    sandbox().faults.clear();
    await call(s, 'queue.retry', { kind: 'shipment', id: failed[0].id });
    await until(() => labelsOf(sandbox(), 'LUM-10422').length === 1);
    await until(async () => (await queued(s, 'LUM-10422')) === undefined);

    // The second is scanned again and bought by hand: its failed entry is over, and Retry
    // now on it says so instead of queueing a second label.
    await packOrder(s, 'LUM-10423');
    expect(await queued(s, 'LUM-10423')).toBeUndefined();
    const again = await s.dispatch('queue.retry', { kind: 'shipment', id: failed[1].id });
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/has its label now/) },
    });
    expect(labelsOf(sandbox(), 'LUM-10423')).toHaveLength(1);
  });

  it('offline after failed ratings, the station comes back with the platform: a rating a few seconds later asks again', async () => {
    const { s, sandbox } = await stations.start();
    await online(s);
    const rateRequests = () =>
      sandbox()
        .requests()
        .filter((r) => r.method === 'POST' && r.path.startsWith('/api/v1/rates')).length;
    sandbox().faults.add({ method: 'POST', path: '/api/v1/rates', kind: 'reset' });
    for (const n of ['LUM-10421', 'LUM-10422', 'LUM-10423'])
      expect((await weighAndRate(s, n)).unreachable).toBe(true);
    await until(async () => (await call(s, 'station.status', {})).connectivity === 'offline');

    // The platform is back. Right after the failures a rating is told at once, unasked…
    sandbox().faults.clear();
    const asked = rateRequests();
    expect((await weighAndRate(s, 'LUM-10421')).unreachable).toBe(true);
    expect(rateRequests()).toBe(asked);
    // …a few seconds on, it asks: rates, and the header is online again (it used to stay
    // offline until something was queued and bought unseen).
    await new Promise((r) => setTimeout(r, 5100));
    const rated = await weighAndRate(s, 'LUM-10421');
    expect(rated.unreachable ?? false).toBe(false);
    expect(rated.rates.length).toBeGreaterThan(0);
    await online(s);
  });
});
