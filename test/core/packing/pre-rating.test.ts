import { afterEach, describe, expect, it } from 'vitest';
import { buildShipment } from '../../../src/core/packing/build-shipment.js';
import { RATES_FRESH_MS } from '../../../src/core/packing/rate-choice.js';
import {
  PRE_RATE_CANDIDATES_SQL,
  PreRater,
  prePackedPackages,
} from '../../../src/core/packing/pre-rating.js';
import type { RateResult, ShipResult } from '../../../src/core/packing/types.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { orderId, stationFor, type TestStation } from './support/harness.js';

const sb = useSandbox();

function rated(result: RateResult): Extract<RateResult, { outcome: 'rated' }> {
  if (result.outcome !== 'rated') throw new Error(JSON.stringify(result));
  return result;
}
function printed(result: ShipResult): Extract<ShipResult, { outcome: 'printed' }> {
  if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
  return result;
}

/** Requests the sandbox received for a route, counted at the sandbox (a 0 ms delay fault). */
function countAtSandbox(method: string, path: string): () => number {
  const counter = sb.fault({ method, path, kind: 'delay', delayMs: 0 });
  return () => counter.hits;
}

const raters: PreRater[] = [];
afterEach(async () => {
  await Promise.all(raters.splice(0).map((r) => r.stop()));
  sb.clearFaults();
});

/** A Lumen station with the sample orders imported and a running pre-rater, on a test clock. */
async function preRatedStation(options: { clock?: { now: Date } } = {}) {
  sb.clearFaults();
  const clock = options.clock;
  const station = await stationFor(
    (printers) => lumenProfile(sb.url, printers),
    clock ? { clock: () => clock.now } : {},
  );
  station.importSamples();
  const rater = new PreRater({
    workflow: station.workflow,
    requestsPerSecond: 50,
    ...(clock ? { clock: () => clock.now } : {}),
  });
  raters.push(rater);
  return { station, rater };
}

/** The packages as the Pack view sends them for an order (its file's weights and sizes). */
function asPacked(station: TestStation, orderNumber: string) {
  const order = station.workflow.orders.get(orderId(station, orderNumber))!;
  return prePackedPackages(order, [])!;
}

describe('pre-rating: orders rated in the background after import', () => {
  it('a scan shows the pre-rated quotes without asking the platform, and confirming costs one POST /labels', async () => {
    const { station, rater } = await preRatedStation();
    const rates = countAtSandbox('POST', '/api/v1/rates');
    const labels = countAtSandbox('POST', '/api/v1/labels');
    rater.start();
    await rater.settled();
    expect(rater.stats.rated).toBeGreaterThan(1);
    const background = rates();
    expect(background).toBe(rater.stats.rated + rater.stats.failed);

    const id = orderId(station, 'LUM-10421');
    const quote = rated(
      await station.workflow.rate(id, {
        packages: asPacked(station, 'LUM-10421'),
        stationUser: 'ana',
      }),
    );
    expect(rates()).toBe(background);
    expect(quote.shipment.stationUser).toBe('ana');
    expect(station.workflow.shipments.events(quote.shipment.id).map((e) => e.kind)).toContain(
      'pre-rated',
    );

    const bought = printed(await station.workflow.buy(quote.shipment.id, { stationUser: 'ana' }));
    expect(bought.selection.rate.rateQuoteId).toBe(quote.selection.rate.rateQuoteId);
    expect(rates()).toBe(background);
    expect(labels()).toBe(1);
  });

  it('pre-rated quotes naming a carrier account that has lapsed since are asked again, never shown', async () => {
    const { station, rater } = await preRatedStation();
    const rates = countAtSandbox('POST', '/api/v1/rates');
    rater.start();
    await rater.settled();
    await station.health.refresh();
    const id = orderId(station, 'LUM-10421');
    const pre = station.workflow.shipments.forOrder(id).at(-1)!;
    const accounts = pre.rates!.shipmentRates.map((r) => r.carrierAccount.id);
    expect(accounts).toContain('ca_lumen_usps');
    const background = rates();

    sb.sandbox.setConnectionStatus('conn_lumen_usps', 'EXPIRED');
    try {
      await station.health.refresh();
      const quote = rated(
        await station.workflow.rate(id, {
          packages: asPacked(station, 'LUM-10421'),
          stationUser: 'ana',
        }),
      );
      expect(rates()).toBe(background + 1);
      expect(quote.rates.shipmentRates.map((r) => r.carrierAccount.id)).not.toContain(
        'ca_lumen_usps',
      );
    } finally {
      sb.sandbox.setConnectionStatus('conn_lumen_usps', 'AUTHORIZED');
    }
  });

  it('a packer who weighs differently gets rates for that weight, not the pre-rated ones', async () => {
    const { station, rater } = await preRatedStation();
    const rates = countAtSandbox('POST', '/api/v1/rates');
    rater.start();
    await rater.settled();
    const background = rates();
    const id = orderId(station, 'LUM-10422');
    const quote = rated(
      await station.workflow.rate(id, { packages: [{ weightLbs: 9.5 }], stationUser: 'ana' }),
    );
    expect(rates()).toBe(background + 1);
    expect(quote.shipment.shipment.packages[0]!.weightLbs).toBe(9.5);

    // The background comes round to the order again before the packer presses Ctrl+Enter: it
    // leaves the packer's rating alone (it used to replace it with the file's packages, and the
    // buy was refused: "These rates of order … were replaced").
    const again = await station.workflow.preRate(id, asPacked(station, 'LUM-10422'));
    expect(again).toMatchObject({ kind: 'skipped' });
    expect(station.workflow.shipments.get(quote.shipment.id)!.state).toBe('rated');
    expect(rates()).toBe(background + 1);
    const bought = printed(await station.workflow.buy(quote.shipment.id, { stationUser: 'ana' }));
    expect(bought.shipment.id).toBe(quote.shipment.id);
  });

  it("a packer's own rating, left on the station, is asked again as packed once stale: the next scan shows rates at once", async () => {
    const clock = { now: new Date('2026-11-24T09:00:00Z') };
    const { station } = await preRatedStation({ clock });
    const rates = countAtSandbox('POST', '/api/v1/rates');
    // Two orders the packer rated at Pack (the background had not come to them): one as the
    // file has it, one weighed differently. Then the packer moved on.
    const asFiled = orderId(station, 'LUM-10421');
    const weighed = orderId(station, 'LUM-10422');
    const first = rated(
      await station.workflow.rate(asFiled, {
        packages: asPacked(station, 'LUM-10421'),
        stationUser: 'ana',
      }),
    );
    const own = rated(
      await station.workflow.rate(weighed, { packages: [{ weightLbs: 9.5 }], stationUser: 'ana' }),
    );
    expect(rates()).toBe(2);

    // The background comes to both, with the file's packages, as the pre-rater does.
    const background = async () => [
      (await station.workflow.preRate(asFiled, asPacked(station, 'LUM-10421'))).kind,
      (await station.workflow.preRate(weighed, asPacked(station, 'LUM-10422'))).kind,
    ];
    // While fresh, it leaves both alone.
    clock.now = new Date(clock.now.getTime() + RATES_FRESH_MS - 60_000);
    expect(await background()).toEqual(['skipped', 'skipped']);
    expect(rates()).toBe(2);

    // Stale: each is asked again as the packer packed it, in place (never replaced by the file's).
    clock.now = new Date(clock.now.getTime() + 2 * 60_000);
    expect(await background()).toEqual(['rated', 'rated']);
    expect(rates()).toBe(4);
    const kept = station.workflow.shipments.get(own.shipment.id)!;
    expect(kept.state).toBe('rated');
    expect(kept.shipment.packages[0]!.weightLbs).toBe(9.5);
    expect(station.workflow.shipments.ratedAt(own.shipment.id)).toBe(clock.now.toISOString());

    // And kept so: the next refresh too keeps the packer's weight.
    clock.now = new Date(clock.now.getTime() + 9 * 60_000);
    expect(await background()).toEqual(['rated', 'rated']);
    expect(station.workflow.shipments.forOrder(weighed).at(-1)!.id).toBe(own.shipment.id);
    expect(station.workflow.shipments.get(own.shipment.id)!.shipment.packages[0]!.weightLbs).toBe(
      9.5,
    );
    const afterRefresh = rates();

    // The packer scans the first order again: its rates are there without asking.
    const again = rated(
      await station.workflow.rate(asFiled, {
        packages: asPacked(station, 'LUM-10421'),
        stationUser: 'bo',
      }),
    );
    expect(again.shipment.id).toBe(first.shipment.id);
    expect(rates()).toBe(afterRefresh);
    printed(await station.workflow.buy(again.shipment.id, { stationUser: 'bo' }));
    expect(rates()).toBe(afterRefresh);
  });

  it('quotes past their freshness are not shown; the background asks for them again before that', async () => {
    const clock = { now: new Date('2026-11-24T09:00:00Z') };
    const { station, rater } = await preRatedStation({ clock });
    const rates = countAtSandbox('POST', '/api/v1/rates');
    rater.start();
    await rater.settled();
    const first = rates();
    const id = orderId(station, 'LUM-10423');
    const before = station.workflow.shipments.forOrder(id).at(-1)!;

    // Past the refresh point (8 of the 10 fresh minutes): every order is rated again.
    clock.now = new Date(clock.now.getTime() + 8 * 60_000 + 1000);
    rater.wake();
    await rater.settled();
    expect(rates()).toBe(2 * first);
    const after = station.workflow.shipments.forOrder(id).at(-1)!;
    expect(after.id).toBe(before.id);
    expect(station.workflow.shipments.ratedAt(after.id)).toBe(clock.now.toISOString());

    // Stopped, and the clock passes the rates' freshness: the packer's scan asks the platform.
    await rater.stop();
    clock.now = new Date(clock.now.getTime() + RATES_FRESH_MS + 1000);
    const quote = rated(
      await station.workflow.rate(id, {
        packages: asPacked(station, 'LUM-10423'),
        stationUser: 'bo',
      }),
    );
    expect(rates()).toBe(2 * first + 1);
    expect(quote.ratedAt).toBe(clock.now.toISOString());
  });

  it('stops while the platform is unreachable, queues nothing, and goes on when woken', async () => {
    const { station, rater } = await preRatedStation();
    const reset = sb.fault({ method: 'POST', path: '/api/v1/rates', kind: 'reset' });
    rater.start();
    await rater.settled();
    // It stopped at the first answerless rating: no more than the requests already in flight.
    expect(rater.stats.unreachable).toBeGreaterThanOrEqual(1);
    expect(rater.stats.started).toBeLessThanOrEqual(2);
    expect(rater.stats.rated).toBe(0);
    const tried = reset.hits;
    expect(tried).toBeGreaterThan(0);
    // Nothing rated, nothing queued, nothing for a shift lead: the packer's scan will say.
    expect(station.workflow.queue.counts(station.workflow.scope).waiting).toBe(0);
    expect(station.workflow.shipments.inState(station.workflow.scope, 'rated')).toHaveLength(0);
    expect(station.workflow.shipments.inState(station.workflow.scope, 'failed')).toHaveLength(0);

    sb.clearFaults();
    // Still offline (until woken): no request goes out.
    await rater.settled();
    expect(reset.hits).toBe(tried);
    // The platform answers again (in the station, the drainer's or the poller's request finds
    // it and the connectivity change wakes the pre-rater).
    const order = station.workflow.orders.get(orderId(station, 'LUM-10424'))!;
    const built = buildShipment(station.workflow.profile, order, undefined);
    if ('failure' in built) throw new Error(built.failure.message);
    await station.workflow.dependencies.platform.rates(order.tenantId, built);
    rater.wake();
    await rater.settled();
    expect(rater.stats.rated).toBeGreaterThan(1);
    expect(station.workflow.shipments.inState(station.workflow.scope, 'rated').length).toBe(
      rater.stats.rated,
    );
  });

  it('a 429 that says how long to wait (Retry-After) pauses it that long, whatever wakes it', async () => {
    const clock = { now: new Date('2026-11-24T09:00:00Z') };
    const { station, rater } = await preRatedStation({ clock });
    const busy = sb.fault({
      method: 'POST',
      path: '/api/v1/rates',
      kind: 'status',
      status: 429,
      retryAfterSeconds: 30,
    });
    rater.start();
    await rater.settled();
    expect(rater.stats.unreachable).toBeGreaterThanOrEqual(1);
    expect(rater.stats.rated).toBe(0);
    const tried = busy.hits;
    sb.clearFaults();
    // An import or the connectivity signal wakes it: still within the 30 s, nothing is asked.
    rater.wake();
    await rater.settled();
    expect(busy.hits).toBe(tried);
    expect(rater.stats.started).toBe(tried);
    // Past the 30 s (the station's clock): it goes on.
    clock.now = new Date(clock.now.getTime() + 31_000);
    rater.wake();
    await rater.settled();
    expect(rater.stats.rated).toBeGreaterThan(1);
    expect(station.workflow.shipments.inState(station.workflow.scope, 'rated').length).toBe(
      rater.stats.rated,
    );
  });

  it("a packer's scan while the order's background rating is on its way waits for it instead of asking twice", async () => {
    const { station, rater } = await preRatedStation();
    const rates = countAtSandbox('POST', '/api/v1/rates');
    sb.fault({ method: 'POST', path: '/api/v1/rates', kind: 'delay', delayMs: 300, times: 1 });
    const id = orderId(station, 'LUM-10421');
    // Only this order, so the slow request is its rating.
    const pending = station.workflow.preRate(id, asPacked(station, 'LUM-10421'));
    const quote = rated(
      await station.workflow.rate(id, {
        packages: asPacked(station, 'LUM-10421'),
        stationUser: 'ana',
      }),
    );
    expect(await pending).toMatchObject({ kind: 'rated', shipmentId: quote.shipment.id });
    expect(rates()).toBe(1);
    expect(rater.stats.started).toBe(0);
  });

  it('looks for work among the recently changed orders only, through an index, never the whole history', async () => {
    // A start and every replan ran this; walking every order a station ever had took 10 s at
    // 10,000,000 orders (the benchmark's label cache) and stalled the station every 30 s.
    const { station } = await preRatedStation();
    const plan = (
      station.workflow.shipments.db
        .prepare(`EXPLAIN QUERY PLAN ${PRE_RATE_CANDIDATES_SQL}`)
        .all('p', 'sandbox', '2026-11-20T00:00:00.000Z', 1000) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    // The newest changed orders, in the index's order, at most RECENT_ORDERS_LOOKED_AT of them.
    expect(plan).toMatch(
      /SEARCH orders USING (COVERING )?INDEX orders_by_update \(profile_id=\? AND environment=\? AND updated_at>\?\)/,
    );
    expect(plan).not.toMatch(/SCAN orders\b/);
    expect(PRE_RATE_CANDIDATES_SQL).toMatch(/ORDER BY updated_at DESC LIMIT 5000/);
  });
});
