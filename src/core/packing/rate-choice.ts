import type { RateResponse, ShipmentRate } from './platform-port.js';
import { describeRate } from './rate-rule.js';
import { invalid } from './invalid.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { ChosenRate, Failure, RateSelection, Shipment, ShipResult } from './types.js';

/**
 * How long stored rates are bought without asking the platform again. A packer rates and buys
 * within seconds; ten minutes covers a phone call or a box being fetched. Past that, prices
 * and carrier connections (an EXPIRED authorization, a rate change) may have moved, and the
 * platform does not document how long a quote holds (the sandbox keeps them 24 h), so stale
 * rates are asked for again rather than bought at a price that may no longer apply.
 */
export const RATES_FRESH_MS = 10 * 60_000;

export function ratesAreFresh(ratedAt: string | null, now: Date): boolean {
  if (ratedAt === null) return false;
  const age = now.getTime() - Date.parse(ratedAt);
  return age >= 0 && age < RATES_FRESH_MS;
}

/** The same service on the same carrier account: how a choice survives a re-rating. */
export function sameService(
  a: Pick<ShipmentRate, 'serviceLevel'> & { carrierAccount: { id: string } },
  b: { carrierAccountId: string; serviceLevel: string },
): boolean {
  return a.carrierAccount.id === b.carrierAccountId && a.serviceLevel === b.serviceLevel;
}

/** The stored rate the packer named, by quote id or by account + service level. */
export function findRate(rates: RateResponse, chosen: ChosenRate): ShipmentRate | undefined {
  return 'rateQuoteId' in chosen
    ? rates.shipmentRates.find((r) => r.rateQuoteId === chosen.rateQuoteId)
    : rates.shipmentRates.find((r) => sameService(r, chosen));
}

/**
 * The selection to buy: the rule's own when the packer picked nothing (or picked the rule's
 * rate), otherwise the packer's rate with who chose it and what the rule would have bought.
 */
export function selectionFor(
  rates: RateResponse,
  rule: RateSelection,
  chosen: ChosenRate | undefined,
  stationUser: string | null,
): RateSelection | { failure: Failure } {
  if (!chosen) return rule;
  const rate = findRate(rates, chosen);
  if (!rate) {
    const named =
      'rateQuoteId' in chosen
        ? `quote ${chosen.rateQuoteId}`
        : `${chosen.serviceLevel} on account ${chosen.carrierAccountId}`;
    return {
      failure: {
        code: 'rate-not-offered',
        message: `The rates of this shipment do not include ${named}; pick one of the rates listed.`,
      },
    };
  }
  if (
    sameService(rule.rate, {
      carrierAccountId: rate.carrierAccount.id,
      serviceLevel: rate.serviceLevel,
    })
  )
    return rule;
  const who = stationUser ?? 'the packer';
  return {
    rate,
    chosenBy: who,
    reason: `${describeRate(rate)}: chosen by ${who} at the station instead of the rule's ${describeRate(rule.rate)}.`,
  };
}

/** Stored rates that name an account the station has since seen unusable (carrier health). */
export function hasLapsedAccount(
  lapsed: ((tenantId: string, carrierAccountId: string) => string | null) | undefined,
  tenantId: string,
  rates: Pick<RateResponse, 'shipmentRates'>,
): boolean {
  if (!lapsed) return false;
  const accounts = new Set(rates.shipmentRates.map((r) => r.carrierAccount.id));
  for (const id of accounts) if (lapsed(tenantId, id) !== null) return true;
  return false;
}

/**
 * A rate shown earlier whose account the station has since seen lapse (`status`: "EXPIRED"):
 * buying it would be refused, and buying the rule's next choice instead would spend money on a
 * carrier and price the packer never saw. Nothing is bought; the packer rates again.
 */
export function lapsedRateRefusal(
  rate: Pick<ShipmentRate, 'carrierAccount'> | undefined,
  accountId: string,
  status: string,
  orderNumber: string,
): Extract<ShipResult, { outcome: 'invalid' }> {
  const name = rate?.carrierAccount.name ?? rate?.carrierAccount.carrier ?? accountId;
  return invalid(
    'rate-account-lapsed',
    `Nothing was bought: carrier account "${name}" is ${status} since these rates were shown, so its rate cannot be bought. Press Enter to rate order ${orderNumber} again and see what the rule chooses now.`,
  );
}

/**
 * The rule turned down every rate that came back (`no-rate-fits-rule`); the Pack screen shows
 * them with none marked. Only a rate the packer picked is bought, as their choice: the shipment
 * is then rated at that pick (recorded with who chose it), and bought as any picked rate is.
 * Without a pick nothing is bought: a refused rule never buys a rate nobody chose. Any other
 * failed rating is rated again first, as before.
 */
export function pickDespiteRefusedRule(
  shipments: ShipmentRepository,
  shipment: Shipment,
  chosen: ChosenRate | undefined,
  stationUser: string | null,
  orderNumber: string,
  now: Date,
): Shipment | Extract<ShipResult, { outcome: 'invalid' }> {
  const rates = shipment.rates;
  if (shipment.failure?.code !== 'no-rate-fits-rule' || !rates?.shipmentRates.length)
    return invalid(
      'not-rated',
      `Order ${orderNumber} has no usable rate (${shipment.failure?.message ?? 'rating failed'}); rate it again.`,
    );
  if (!chosen)
    return invalid(
      'no-rate-picked',
      `No rate of order ${orderNumber} fits the profile's rate rule, so nothing was bought. Pick one with ↑/↓ (or click it) and Ctrl+Enter buys it as your choice, or ask a shift lead.`,
    );
  const rate = findRate(rates, chosen);
  if (!rate)
    return invalid(
      'rate-not-offered',
      `That rate is not among the rates of order ${orderNumber}; pick one of the rates listed.`,
    );
  // The failed rating's time is when its rates were stored (setFailed, then setRates).
  if (!ratesAreFresh(shipment.updatedAt, now))
    return invalid(
      'rates-superseded',
      `These rates of order ${orderNumber} are more than 10 minutes old, so nothing was bought: press Enter to rate it again, then pick a rate.`,
    );
  const who = stationUser ?? 'the packer';
  const selection: RateSelection = {
    rate,
    chosenBy: who,
    reason: `${describeRate(rate)}: chosen by ${who} at the station, as no rate fits the rule.`,
  };
  shipments.setRated(shipment.id, rates, selection, now.toISOString());
  shipments.setSelection(shipment.id, selection);
  return shipments.get(shipment.id)!;
}
