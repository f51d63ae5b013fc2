import { describe, expect, it } from 'vitest';
import { RATES_FRESH_MS } from '../../../src/core/packing/rate-choice.js';
import type { RateResult, ShipResult } from '../../../src/core/packing/types.js';
import { useSandbox } from '../../support/sandbox.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, orderId, stationFor, type TestStation } from './support/harness.js';

const sb = useSandbox();

function rated(result: RateResult): Extract<RateResult, { outcome: 'rated' }> {
  if (result.outcome !== 'rated') throw new Error(JSON.stringify(result));
  return result;
}
function printed(result: ShipResult): Extract<ShipResult, { outcome: 'printed' }> {
  if (result.outcome !== 'printed') throw new Error(JSON.stringify(result));
  return result;
}

/** A station with a token and the PENDING account's link already in hand, recording calls. */
async function warmStation(clock?: () => Date): Promise<{ station: TestStation; calls: string[] }> {
  sb.clearFaults();
  const station = await stationFor(
    (printers) => lumenProfile(sb.url, printers),
    clock ? { clock } : {},
  );
  station.importSamples();
  printed(await station.workflow.ship(orderId(station, 'LUM-10425'), { stationUser: 'ana' }));
  const calls: string[] = [];
  station.client.observe((e) => calls.push(e.operation));
  return { station, calls };
}

describe('rate, then buy what was rated', () => {
  it('two platform round trips per label: the rates and the label, never a second rating', async () => {
    const { station, calls } = await warmStation();
    const id = orderId(station, 'LUM-10421');
    const quote = rated(
      await station.workflow.rate(id, { packages: [{ weightLbs: 1.8 }], stationUser: 'ana' }),
    );
    expect(quote.shipment.state).toBe('rated');
    expect(quote.selection.reason).toMatch(/cheapest/);
    expect(station.workflow.shipments.get(quote.shipment.id)?.selection).toEqual(quote.selection);

    const bought = printed(await station.workflow.buy(quote.shipment.id, { stationUser: 'ana' }));
    expect(calls).toEqual(['getRates', 'purchaseLabel']);
    const sold = await ledgerFor(sb.url, 'LUM-10421');
    expect(sold).toHaveLength(1);
    expect(sold[0]).toMatchObject({
      serviceLevel: quote.selection.rate.serviceLevel,
      carrierAccountId: quote.selection.rate.carrierAccount.id,
      trackingNumber: bought.label.trackingNumber,
    });
    // Bought once: the same rated shipment is not bought again.
    const again = await station.workflow.buy(quote.shipment.id, {
      stationUser: 'ana',
      confirmAnotherLabel: true,
    });
    expect(again).toMatchObject({ outcome: 'invalid', failure: { code: 'already-bought' } });
    expect(await ledgerFor(sb.url, 'LUM-10421')).toHaveLength(1);
  });

  it('buys the rate the packer picked instead of the rule, and records who chose it and why', async () => {
    const { station, calls } = await warmStation();
    const quote = rated(
      await station.workflow.rate(orderId(station, 'LUM-10422'), {
        packages: [{ weightLbs: 3.4 }],
        stationUser: 'ana',
      }),
    );
    const other = quote.rates.shipmentRates.find(
      (r) =>
        r.carrierAccount.id !== quote.selection.rate.carrierAccount.id ||
        r.serviceLevel !== quote.selection.rate.serviceLevel,
    )!;
    expect(other).toBeDefined();
    const bought = printed(
      await station.workflow.buy(quote.shipment.id, {
        rate: { carrierAccountId: other.carrierAccount.id, serviceLevel: other.serviceLevel },
        stationUser: 'ana',
      }),
    );
    expect(calls).toEqual(['getRates', 'purchaseLabel']);
    const sold = await ledgerFor(sb.url, 'LUM-10422');
    expect(sold).toHaveLength(1);
    expect(sold[0]).toMatchObject({
      serviceLevel: other.serviceLevel,
      carrierAccountId: other.carrierAccount.id,
    });
    expect(bought.label.serviceLevel).toBe(other.serviceLevel);
    expect(bought.selection.chosenBy).toBe('ana');
    expect(bought.selection.reason).toContain('chosen by ana at the station');
    expect(bought.selection.reason).toContain(
      `instead of the rule's ${quote.selection.rate.serviceLevel}`,
    );
    const stored = station.workflow.shipments.get(quote.shipment.id)!;
    expect(stored.selection?.rate.serviceLevel).toBe(other.serviceLevel);
    const chosen = station.workflow.shipments
      .events(quote.shipment.id)
      .find((e) => e.kind === 'rate-chosen');
    expect(chosen?.detail).toMatchObject({ by: 'ana', serviceLevel: other.serviceLevel });
  });

  it('a pick by quote id works; a rate that was never offered is refused and nothing is bought', async () => {
    const { station } = await warmStation();
    const quote = rated(
      await station.workflow.rate(orderId(station, 'LUM-10426'), { stationUser: 'ana' }),
    );
    const refused = await station.workflow.buy(quote.shipment.id, {
      rate: { carrierAccountId: 'ca_nobody', serviceLevel: 'TELEPORT' },
      stationUser: 'ana',
    });
    expect(refused).toMatchObject({ outcome: 'invalid', failure: { code: 'rate-not-offered' } });
    expect(await ledgerFor(sb.url, 'LUM-10426')).toHaveLength(0);

    const priciest = [...quote.rates.shipmentRates].sort((a, b) => b.amount - a.amount)[0]!;
    const bought = printed(
      await station.workflow.buy(quote.shipment.id, {
        rate: { rateQuoteId: priciest.rateQuoteId! },
        stationUser: 'ana',
      }),
    );
    expect(bought.label.serviceLevel).toBe(priciest.serviceLevel);
    expect((await ledgerFor(sb.url, 'LUM-10426'))[0]?.carrierAccountId).toBe(
      priciest.carrierAccount.id,
    );
  });

  it('stale rates are rated again before buying; fresh ones are not', async () => {
    let now = Date.parse('2026-11-20T14:00:00Z');
    const { station, calls } = await warmStation(() => new Date(now));

    const fresh = rated(await station.workflow.rate(orderId(station, 'LUM-10421'), {}));
    now += RATES_FRESH_MS - 60_000;
    printed(await station.workflow.buy(fresh.shipment.id, { stationUser: 'ana' }));
    expect(calls).toEqual(['getRates', 'purchaseLabel']);

    calls.length = 0;
    const stale = rated(await station.workflow.rate(orderId(station, 'LUM-10422'), {}));
    const pick = stale.rates.shipmentRates.find((r) => r !== stale.selection.rate)!;
    now += RATES_FRESH_MS + 1;
    const bought = printed(
      await station.workflow.buy(stale.shipment.id, {
        rate: { rateQuoteId: pick.rateQuoteId! },
        stationUser: 'ana',
      }),
    );
    expect(calls).toEqual(['getRates', 'getRates', 'purchaseLabel']);
    // The pick survives the new rating: same service on the same account, at today's quote.
    expect(bought.label.serviceLevel).toBe(pick.serviceLevel);
    expect(bought.label.carrierAccountId).toBe(pick.carrierAccount.id);
    const events = station.workflow.shipments.events(stale.shipment.id).map((e) => e.kind);
    expect(events.filter((k) => k === 'rated')).toHaveLength(2);
  });

  it('a rating while the platform is unreachable buys and queues nothing; asked to buy, it queues', async () => {
    const { station, calls } = await warmStation();
    const outage = sb.fault({ path: '/api/v1/rates', kind: 'reset' });
    const id = orderId(station, 'LUM-10423');
    // A scan's rating: said, nothing queued, nothing left to buy later.
    const said = await station.workflow.rate(id, { packages: [{ weightLbs: 2.9 }] });
    expect(said).toMatchObject({
      outcome: 'unreachable',
      failure: {
        code: 'platform-unreachable',
        message: expect.stringMatching(
          /Nothing was bought or queued\. Ctrl\+Enter queues this order: it is labelled by the profile's rule when the platform answers again\.$/,
        ),
      },
    });
    expect(station.workflow.queue.counts(station.workflow.scope).waiting).toBe(0);
    expect(station.workflow.shipments.forOrder(id).filter((s) => s.state !== 'cancelled')).toEqual(
      [],
    );
    // The packer asks to buy: queued, to be bought by the rule when the platform answers.
    const queued = await station.workflow.rate(id, {
      packages: [{ weightLbs: 2.9 }],
      queueIfUnreachable: true,
    });
    expect(queued).toMatchObject({ outcome: 'queued', failure: { code: 'platform-unreachable' } });
    // Re-weighed while queued: never queued twice, and it waits with the new weight.
    const again = await station.workflow.rate(id, { packages: [{ weightLbs: 3.3 }] });
    expect(again).toMatchObject({ outcome: 'queued', failure: { code: 'already-queued' } });
    if (again.outcome !== 'queued' || queued.outcome !== 'queued') throw new Error('not queued');
    expect(again.shipment.id).toBe(queued.shipment.id);
    expect(again.shipment.shipment.packages[0]?.weightLbs).toBe(3.3);
    expect(outage.hits).toBeGreaterThan(0);
    expect(calls.filter((c) => c === 'purchaseLabel')).toEqual([]);
    sb.clearFaults();
  });
});

describe('a weight over the limit', () => {
  it('is refused by package, "Package 1 of 1" on a one-package order as on Pack', async () => {
    const { station, calls } = await warmStation();
    const id = orderId(station, 'LUM-10421');
    const result = await station.workflow.rate(id, { packages: [{ weightLbs: 200 }] });
    expect(result).toMatchObject({
      outcome: 'invalid',
      failure: {
        code: 'invalid-weight',
        message: 'Package 1 of 1: weight 200 lb must be at most 150 lb for one parcel.',
      },
    });
    expect(calls).toEqual([]);
  });
});

describe('multi-package orders', () => {
  it('refuses a package without a weight, naming it, and buys nothing', async () => {
    const { station, calls } = await warmStation();
    const id = orderId(station, 'LUM-10424');
    for (const attempt of [
      () => station.workflow.rate(id, { packages: [{ weightLbs: 6.2 }, { weightLbs: null }] }),
      () => station.workflow.ship(id, { packages: [{ weightLbs: 6.2 }, { weightLbs: null }] }),
    ]) {
      const result = await attempt();
      expect(result).toMatchObject({
        outcome: 'invalid',
        failure: {
          code: 'invalid-weight',
          message: expect.stringContaining('Package 2 of 2 has no weight'),
          errors: [{ field: 'packages[1].weightLbs' }],
        },
      });
    }
    expect(calls).toEqual([]);
    expect(await ledgerFor(sb.url, 'LUM-10424')).toHaveLength(0);
    expect(station.workflow.shipments.forOrder(id)).toEqual([]);
  });

  it('rates and buys each package at its own weight', async () => {
    const { station } = await warmStation();
    const id = orderId(station, 'LUM-10424');
    const quote = rated(
      await station.workflow.rate(id, {
        packages: [
          { weightLbs: 7.1, box: 'BOX-L', lengthIn: 16, widthIn: 12, heightIn: 8 },
          { weightLbs: 2.4 },
        ],
      }),
    );
    expect(quote.shipment.shipment.packages.map((p) => p.weightLbs)).toEqual([7.1, 2.4]);
    const bought = printed(await station.workflow.buy(quote.shipment.id, { stationUser: 'ana' }));
    expect(bought.shipment.shipment.packages.map((p) => p.weightLbs)).toEqual([7.1, 2.4]);
    expect(await ledgerFor(sb.url, 'LUM-10424')).toHaveLength(1);
  });

  it('an order limited to a service level no account offers is refused naming that limit first, not only the other accounts', async () => {
    const { station } = await warmStation();
    const scope = station.workflow.scope;
    const order = (orderNumber: string, serviceLevels: string[]) => ({
      orderNumber,
      serviceLevels,
      shipTo: {
        name: 'Ana',
        addressLine1: '1 Main St',
        city: 'Austin',
        stateProvince: 'TX',
        postalCode: '78701',
        countryCode: 'US',
      },
      packages: [{ weightLbs: 2, items: [{ sku: 'MUG', name: 'Mug', quantity: 1 }] }],
    });
    station.workflow.orders.upsert(scope, 'tnt_lumen', order('SL-1', ['FOO_BAR']), 'test');
    station.workflow.orders.upsert(scope, 'tnt_lumen', order('SL-2', ['UPS_GROUND']), 'test');
    const refused = await station.workflow.rate(orderId(station, 'SL-1'), {
      packages: [{ weightLbs: 2 }],
      stationUser: 'ana',
    });
    expect(refused.outcome).toBe('failed');
    if (refused.outcome !== 'failed') return;
    expect(refused.failure.message).toMatch(
      /^No rates: order SL-1 may only ship FOO_BAR \(its order file says so\), and no carrier account of this brand rated it\. Check the service level in the order file and import it again, or ask the shift lead whether that service is set up\. The platform said: /,
    );
    expect(await ledgerFor(sb.url, 'SL-1')).toHaveLength(0);
    // A level an account offers rates as usual, limited to it.
    const ok = rated(
      await station.workflow.rate(orderId(station, 'SL-2'), {
        packages: [{ weightLbs: 2 }],
        stationUser: 'ana',
      }),
    );
    expect(ok.selection.rate.serviceLevel).toBe('UPS_GROUND');
  });
});
