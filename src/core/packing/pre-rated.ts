import type { StoredOrder } from '../orders/types.js';
import { buildShipment } from './build-shipment.js';
import type { PackingStepsDeps } from './packing-steps.js';
import type { PlatformShipment } from './platform-port.js';
import { hasLapsedAccount, ratesAreFresh } from './rate-choice.js';
import { selectRate } from './rate-rule.js';
import { carrierProblemsIn, rateShipment } from './rating.js';
import type { PackedPackage, PreRateOutcome, RateResult, Shipment } from './types.js';
import { inTransaction } from '../storage/database.js';

// Pre-rating's steps (issue 16.2): rating an order in the background, and a packer's rating
// taking those rates over. PreRater (pre-rating.ts) decides which orders and when.

/**
 * The order's newest shipment when it was rated in the background (pre-rating) and no packer
 * has taken it yet, for the very same platform shipment (tenant, addresses, packages as
 * packed), with rates still fresh (RATES_FRESH_MS) and the rule choosing as it did: its rates
 * stand, no round trip. Otherwise undefined (a packer's own rescan always asks again).
 */
export function reuseRates(
  d: PackingStepsDeps,
  order: StoredOrder,
  wanted: PlatformShipment,
  stationUser: string | null,
  existing: Shipment[] = d.shipments.forOrder(order.id),
): Extract<RateResult, { outcome: 'rated' }> | undefined {
  const { shipments } = d;
  const latest = existing.at(-1);
  if (
    !latest ||
    latest.state !== 'rated' ||
    latest.tenantId !== order.tenantId ||
    !latest.rates ||
    !latest.selection ||
    shipments.lastEvent(latest.id)?.kind !== 'pre-rated' ||
    JSON.stringify(latest.shipment) !== JSON.stringify(wanted)
  )
    return undefined;
  const ratedAt = shipments.ratedAt(latest.id);
  if (!ratesAreFresh(ratedAt, d.clock())) return undefined;
  // An account of these rates lapsed since (its connection expired): asked again, so the
  // packer never sees, or buys, a rate the platform now refuses.
  if (hasLapsedAccount(d.lapsedAccount, order.tenantId, latest.rates)) return undefined;
  const choice = selectRate(latest.rates.shipmentRates, d.profile().rateRule, order.serviceLevels);
  if (!choice.rate || choice.rate.rateQuoteId !== latest.selection.rate.rateQuoteId)
    return undefined;
  shipments.reuseRates(latest.id, stationUser);
  return {
    outcome: 'rated',
    shipment: shipments.get(latest.id)!,
    rates: latest.rates,
    selection: latest.selection,
    carrierProblems: carrierProblemsIn(latest.rates),
    ratedAt: ratedAt!,
    preRated: true,
  };
}

/**
 * Rates an order in the background (pre-rating): no hold on the order, nothing queued when
 * the platform is away, nothing stored unless rates came back and the rule found one. The
 * rates are kept on a `rated` shipment (a fresh one, or the same one refreshed in place) that
 * a packer's rate() of the same packages then takes over (reuseRates).
 */
export async function preRateOrder(
  d: PackingStepsDeps,
  orderId: number,
  packages: PackedPackage[] | undefined,
): Promise<PreRateOutcome> {
  const { shipments, scope } = d;
  const order = d.orders.get(orderId);
  if (!order || order.profileId !== scope.profileId || order.environment !== scope.environment)
    return { kind: 'skipped', why: 'order gone' };
  const open = () => openForPreRating(d, order);
  const before = open();
  if (!before.ok) return { kind: 'skipped', why: 'order not open' };
  // A packer's own rating gone stale is asked again as the packer packed it (never replaced by
  // the file's packages under a packer's screen); anything else, as the order file has it.
  let shipment: PlatformShipment;
  if (before.packers) shipment = before.rated!.shipment;
  else {
    const built = buildShipment(d.profile(), order, packages);
    if ('failure' in built) return { kind: 'skipped', why: built.failure.message };
    shipment = built.shipment;
  }
  const rated = await rateShipment(
    d.platform,
    d.classify,
    d.profile(),
    { tenantId: order.tenantId, shipment },
    order,
  );
  if (rated.kind === 'unreachable') return { kind: 'unreachable', failure: rated.failure };
  if (rated.kind === 'failed') return { kind: 'failed', failure: rated.failure };
  // Stored only if nothing happened to the order meanwhile (a packer's scan, a purchase).
  return inTransaction(shipments.db, (): PreRateOutcome => {
    const now = open();
    if (!now.ok) return { kind: 'skipped', why: 'order taken meanwhile' };
    let target = now.rated;
    if (target && JSON.stringify(target.shipment) !== JSON.stringify(shipment)) {
      // Only a pre-rated shipment is ever replaced: a packer's is refreshed as it is or left.
      if (now.packers) return { kind: 'skipped', why: 'order taken meanwhile' };
      shipments.setState(target.id, 'cancelled', { why: 'superseded by a new rating' });
      target = undefined;
    }
    const id =
      target?.id ??
      shipments.create(scope, {
        tenantId: order.tenantId,
        orderId: order.id,
        state: 'ready',
        shipment,
        stationUser: null,
      }).id;
    shipments.setRated(id, rated.rates, rated.selection);
    // `asPacked`: a packer's own shipment, refreshed as it was packed (see openForPreRating).
    shipments.event(id, 'pre-rated', {
      refreshed: target !== undefined,
      ...(now.packers ? { asPacked: true } : {}),
    });
    return { kind: 'rated', shipmentId: id };
  });
}

/**
 * No label, no purchase or queue entry, no rating under way: only `rated`/`cancelled` shipments.
 * A latest rating that is a packer's own (`packers`) is left alone while it is fresh: the
 * packer who weighed the order at Pack rated those packages, and replacing that rating would
 * cancel the shipment on the packer's screen between rating and Ctrl+Enter ("These rates …
 * were replaced"). Once stale (a buy would ask again anyway) it is refreshed in place, with the
 * packer's packages: the packer who left the order and scans it again gets rates at once.
 */
function openForPreRating(
  d: PackingStepsDeps,
  order: StoredOrder,
): { ok: boolean; rated?: Shipment; packers?: boolean } {
  if (d.labels.forOrder(order.id).length > 0) return { ok: false };
  const all = d.shipments.forOrder(order.id);
  if (all.some((s) => s.state !== 'rated' && s.state !== 'cancelled')) return { ok: false };
  const latest = all.at(-1);
  if (latest?.state !== 'rated') return { ok: true };
  const background = d.shipments.events(latest.id).filter((e) => e.kind === 'pre-rated');
  if (background.length === 0)
    return ratesAreFresh(d.shipments.ratedAt(latest.id), d.clock())
      ? { ok: false }
      : { ok: true, rated: latest, packers: true };
  // Refreshed in the background already: kept fresh from now on, with the packer's packages.
  const packers = background.some((e) => (e.detail as { asPacked?: boolean } | null)?.asPacked);
  return { ok: true, rated: latest, ...(packers ? { packers: true } : {}) };
}
