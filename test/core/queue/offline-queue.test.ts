import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { OfflineQueueDrainer } from '../../../src/core/packing/offline-drainer.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { waitForLabels, waitUntil } from '../../support/virtual-printer.js';
import { RATES_FRESH_MS } from '../../../src/core/packing/rate-choice.js';
import { lumenProfile } from '../packing/support/station.js';
import { ledger, ledgerFor, orderId, stationFor } from '../packing/support/harness.js';

const sb = useSandbox();

describe('offline queue', () => {
  it('queues shipments during an outage, keeps them over a restart, and drains them in order when the platform is back', async () => {
    sb.clearFaults();
    const dbFile = join(tempDir(), 'station.db');
    const first = await stationFor((p) => lumenProfile(sb.url, p), { dbFile });
    first.importSamples();
    const orders = ['LUM-10421', 'LUM-10422', 'LUM-10425'];
    const outage = sb.fault({ path: '/api/v1/rates', kind: 'reset' });
    const before = (await ledger(sb.url)).length;

    const queued = [];
    for (const number of orders) {
      const result = await first.workflow.ship(orderId(first, number), { stationUser: 'ana' });
      expect(result).toMatchObject({
        outcome: 'queued',
        failure: { code: 'platform-unreachable' },
      });
      queued.push(result);
    }
    // A rescan of a queued order does not queue it twice.
    const rescan = await first.workflow.ship(orderId(first, 'LUM-10421'), { stationUser: 'ana' });
    expect(rescan).toMatchObject({ outcome: 'queued', failure: { code: 'already-queued' } });
    // After a streak of failures the station stops trying and queues at once, saying why.
    expect(first.client.connectivity.reachable).toBe(false);
    expect(queued[2]).toMatchObject({
      failure: {
        message: expect.stringMatching(/has not answered rate requests \d+ times in a row/),
      },
    });
    const drainer = new OfflineQueueDrainer(first.workflow, { baseDelayMs: 10, maxDelayMs: 50 });
    expect(drainer.counts()).toEqual({ waiting: 3, failed: 0, needsAttention: 0, done: 0 });

    // Still down: the head is tried, waits with backoff, and nothing overtakes it.
    const attempt = await drainer.drain(true);
    expect(attempt.map((o) => o.result)).toEqual(['queued']);
    const heads = first.workflow.queue.list(first.workflow.scope).sort((a, b) => a.id - b.id);
    expect(heads.map((e) => e.attempts)).toEqual([1, 0, 0]);
    expect(heads[0]!.lastError).toMatch(/could not be reached|ECONNRESET|reset/i);
    expect((await ledger(sb.url)).length).toBe(before);

    // Restart: a new station on the same database finds the queue as it was.
    await first.spool.stop();
    first.close();
    const second = await stationFor((p) => lumenProfile(sb.url, p), { dbFile });
    await second.workflow.recover();
    const restartedDrainer = new OfflineQueueDrainer(second.workflow, {
      baseDelayMs: 10,
      maxDelayMs: 50,
      pollMs: 10,
    });
    expect(restartedDrainer.counts().waiting).toBe(3);

    // The platform answers again.
    expect(outage.hits).toBeGreaterThan(0);
    sb.clearFaults();
    restartedDrainer.start();
    await waitUntil(() => restartedDrainer.counts().waiting === 0);
    await restartedDrainer.stop();
    expect(restartedDrainer.counts()).toEqual({
      waiting: 0,
      failed: 0,
      needsAttention: 0,
      done: 3,
    });

    const sold = (await ledger(sb.url)).slice(before);
    expect(sold.map((e) => e.orderReference!.replace(/-[A-Z0-9]+$/, ''))).toEqual(orders);
    for (const number of orders) {
      const labels = second.workflow.labels.forOrder(orderId(second, number));
      expect(labels).toHaveLength(1);
    }
    const printed = await waitForLabels(second.printer, 3);
    expect(printed.map((p) => sold.findIndex((e) => p.zpl.includes(e.trackingNumber)))).toEqual([
      0, 1, 2,
    ]);
    // Every step is in the shipment's history.
    const history = second.workflow.shipments.events(
      queued[0]!.outcome === 'queued' ? queued[0]!.shipment.id : 0,
    );
    expect(history.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        'created',
        'queued',
        'rated',
        'purchasing',
        'purchased',
        'print-queued',
      ]),
    );
  });

  it('records a queued shipment the platform refuses as failed and goes on with the next', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    sb.fault({ path: '/api/v1/rates', kind: 'reset', times: 4 });
    const a = await station.workflow.ship(orderId(station, 'LUM-10423'), {
      packages: [{ weightLbs: 2 }],
    });
    const b = await station.workflow.ship(orderId(station, 'LUM-10426'), {
      packages: [{ weightLbs: 8 }],
    });
    expect([a.outcome, b.outcome]).toEqual(['queued', 'queued']);
    // Back, but the platform refuses the first one's rate request (a 400): it fails, the next goes on.
    sb.clearFaults();
    sb.fault({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 400, times: 1 });
    const drainer = new OfflineQueueDrainer(station.workflow);
    const outcomes = await drainer.drain(true);
    expect(outcomes.map((o) => o.result)).toEqual(['failed', 'printed']);
    expect(drainer.counts()).toMatchObject({ waiting: 0, failed: 1, done: 1 });
    expect(
      station.workflow.queue.list(station.workflow.scope).find((e) => e.state === 'failed')!
        .lastError,
    ).toMatch(/No rates/);
  });

  it('a shift lead can take a shipment out of the queue; nothing is bought for it', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    sb.fault({ path: '/api/v1/rates', kind: 'reset', times: 2 });
    const queued = await station.workflow.ship(orderId(station, 'LUM-10424'), {
      packages: [{ weightLbs: 6 }, { weightLbs: 3 }],
    });
    if (queued.outcome !== 'queued') throw new Error(queued.outcome);
    expect(station.workflow.cancelQueued(queued.shipment.id, 'rosa')).toBe(true);
    sb.clearFaults();
    const drainer = new OfflineQueueDrainer(station.workflow);
    expect(await drainer.drain(true)).toEqual([]);
    expect(drainer.counts()).toMatchObject({ waiting: 0, failed: 1 });
    expect(await ledgerFor(sb.url, 'LUM-10424')).toEqual([]);
  });

  it('a streak of 5xx on rates queues the shipment too, and it drains once the platform recovers', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    sb.fault({ path: '/api/v1/rates', kind: 'status', status: 503 });
    const queued = await station.workflow.ship(orderId(station, 'LUM-10423'), {
      packages: [{ weightLbs: 2 }],
    });
    expect(queued).toMatchObject({ outcome: 'queued', failure: { code: 'platform-unreachable' } });
    sb.clearFaults();
    const drainer = new OfflineQueueDrainer(station.workflow);
    expect((await drainer.drain(true)).map((o) => o.result)).toEqual(['printed']);
    expect(await ledgerFor(sb.url, 'LUM-10423')).toHaveLength(1);
  });

  it('a 429 that says how long to wait (Retry-After) holds the queued shipment that long', async () => {
    sb.clearFaults();
    const clock = { now: new Date() };
    const station = await stationFor((p) => lumenProfile(sb.url, p), { clock: () => clock.now });
    station.importSamples();
    sb.fault({
      path: '/api/v1/rates',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 120,
      times: 1,
    });
    // Counts the rate requests that reach the platform after the 429 (faults: first match wins).
    const counter = sb.fault({ method: 'POST', path: '/api/v1/rates', kind: 'delay', delayMs: 0 });
    const rates = () => counter.hits;
    const bought = (await ledgerFor(sb.url, 'LUM-10423')).length;
    const before = clock.now.getTime();
    const queued = await station.workflow.ship(orderId(station, 'LUM-10423'), {
      packages: [{ weightLbs: 2 }],
    });
    expect(queued).toMatchObject({
      outcome: 'queued',
      failure: {
        code: 'platform-unreachable',
        retryAfterMs: 120_000,
        message: expect.stringMatching(
          /asked the station to wait 2 min before trying the rate request again/,
        ),
      },
    });
    const [entry] = station.workflow.queue.list(station.workflow.scope);
    expect(Date.parse(entry!.nextAttemptAt) - before).toBe(120_000);
    // The drainer leaves it until then.
    const drainer = new OfflineQueueDrainer(station.workflow, {
      baseDelayMs: 10,
      maxDelayMs: 50,
      now: () => clock.now,
    });
    expect(await drainer.drain()).toEqual([]);
    const asked = rates();
    // A shift lead's Retry now within the platform's wait sends nothing either: it says how
    // long is left, and the entry waits that long, though the drainer's own backoff is 50 ms.
    clock.now = new Date(before + 30_000);
    const forced = await drainer.drain(true);
    expect(forced).toMatchObject([
      {
        result: 'queued',
        message: expect.stringMatching(
          /wait before asking for rates again \(too many requests, HTTP 429\): 90 s more\. Nothing was sent/,
        ),
      },
    ]);
    expect(rates()).toBe(asked);
    const [again] = station.workflow.queue.list(station.workflow.scope);
    expect(Date.parse(again!.nextAttemptAt) - clock.now.getTime()).toBe(90_000);
    // Past the wait, the queue buys it, once.
    clock.now = new Date(before + 121_000);
    expect((await drainer.drain()).map((o) => o.result)).toEqual(['printed']);
    expect(await ledgerFor(sb.url, 'LUM-10423')).toHaveLength(bought + 1);
  });

  it('does not fail a queued shipment whose order the packer is handling at that moment', async () => {
    sb.clearFaults();
    const station = await stationFor((p) => lumenProfile(sb.url, p));
    station.importSamples();
    sb.fault({ path: '/api/v1/rates', kind: 'reset', times: 2 });
    const id = orderId(station, 'LUM-10425');
    const sold = (await ledgerFor(sb.url, 'LUM-10425')).length;
    expect((await station.workflow.ship(id, { packages: [{ weightLbs: 1 }] })).outcome).toBe(
      'queued',
    );
    sb.clearFaults();
    const drainer = new OfflineQueueDrainer(station.workflow, { baseDelayMs: 1 });
    // The packer rescans while the drainer reaches the same order.
    const rescan = station.workflow.ship(id, { packages: [{ weightLbs: 1 }] });
    const first = await drainer.drain(true);
    expect((await rescan).outcome).toBe('queued');
    expect(first.map((o) => [o.result, o.message])).toEqual([
      ['queued', expect.stringMatching(/being shipped right now/)],
    ]);
    expect(drainer.counts()).toMatchObject({ waiting: 1, failed: 0 });
    expect((await drainer.drain(true)).map((o) => o.result)).toEqual(['printed']);
    expect(await ledgerFor(sb.url, 'LUM-10425')).toHaveLength(sold + 1);
  });

  it("a packer's pick that was queued is what the queue buys; one no longer offered is not bought and is said", async () => {
    sb.clearFaults();
    let now = Date.now();
    const station = await stationFor((p) => lumenProfile(sb.url, p), {
      clock: () => new Date(now),
    });
    station.importSamples();
    const pickOf = async (number: string) => {
      const r = await station.workflow.rate(orderId(station, number), { stationUser: 'ana' });
      if (r.outcome !== 'rated') throw new Error(r.outcome);
      // The dearest UPS rate: never the rule's (cheapest) choice.
      const ups = r.rates.shipmentRates.filter((x) => x.carrier === 'UPS');
      const pick = ups.sort((a, b) => b.amount - a.amount)[0]!;
      expect(pick.serviceLevel).not.toBe(r.selection.rate.serviceLevel);
      return { shipmentId: r.shipment.id, pick };
    };
    // The sandbox outlives each test: only what this test sells is looked at.
    const soldBefore = {
      a: (await ledgerFor(sb.url, 'LUM-10421')).length,
      b: (await ledgerFor(sb.url, 'LUM-10422')).length,
    };
    const a = await pickOf('LUM-10421');
    const b = await pickOf('LUM-10422');
    // The rates go stale and the platform is away when Ctrl+Enter asks for them again.
    now += RATES_FRESH_MS + 1;
    sb.fault({ path: '/api/v1/rates', kind: 'status', status: 503 });
    for (const { shipmentId, pick } of [a, b]) {
      const queued = await station.workflow.buy(shipmentId, {
        rate: { rateQuoteId: pick.rateQuoteId! },
        stationUser: 'ana',
      });
      expect(queued).toMatchObject({
        outcome: 'queued',
        failure: {
          message: expect.stringContaining(
            `When it answers, ${pick.serviceLevel} is bought, the rate picked at Pack by ana.`,
          ),
        },
      });
    }
    sb.clearFaults();
    const drainer = new OfflineQueueDrainer(station.workflow);
    // A's pick is bought as picked.
    const first = await drainer.drain(true);
    expect(first[0]?.result).toBe('printed');
    const soldA = (await ledgerFor(sb.url, 'LUM-10421')).slice(soldBefore.a);
    expect(soldA.map((e) => [e.serviceLevel, e.carrierAccountId])).toEqual([
      [a.pick.serviceLevel, a.pick.carrierAccount.id],
    ]);
    expect(station.workflow.labels.forOrder(orderId(station, 'LUM-10421'))[0]!.serviceLevel).toBe(
      a.pick.serviceLevel,
    );
    // B's carrier lapses before the queue gets to it: nothing is bought, and it says why.
    sb.sandbox.setConnectionStatus('conn_lumen_ups', 'EXPIRED');
    try {
      const rest = await drainer.drain(true);
      expect(rest.map((o) => o.result)).toEqual(['failed']);
      expect(await ledgerFor(sb.url, 'LUM-10422')).toHaveLength(soldBefore.b);
      const failed = station.workflow.queue
        .list(station.workflow.scope)
        .find((e) => e.state === 'failed')!;
      expect(failed.lastError).toMatch(
        new RegExp(
          `^${b.pick.serviceLevel} \\(.+\\), chosen by ana for order LUM-10422, is no longer offered now that the platform answers; nothing was bought\\. Scan the order to rate it again\\.$`,
        ),
      );
    } finally {
      sb.sandbox.setConnectionStatus('conn_lumen_ups', 'AUTHORIZED');
    }
  });
});
