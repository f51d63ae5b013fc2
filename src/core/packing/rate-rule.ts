import type { RateRule } from '../profiles/profile-schema.js';
import type { ShipmentRate } from './platform-port.js';
import type { RateSelection } from './types.js';

export type RateChoice = RateSelection | { rate: null; reason: string };

/**
 * A service level or carrier as a person types it in the rule ("ups ground", "Ups-Ground")
 * matched against the platform's code (UPS_GROUND): case, spaces and dashes do not count.
 */
export const ruleKey = (v: string): string =>
  v
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

const money = (r: ShipmentRate) => `$${r.amount.toFixed(2)}`;
const days = (r: ShipmentRate) =>
  r.transitDays === undefined
    ? 'transit time not given'
    : `${r.transitDays} day${r.transitDays === 1 ? '' : 's'}`;
export const describeRate = (r: ShipmentRate): string =>
  `${r.serviceLevel} ${money(r)}, ${days(r)}`;

/**
 * Picks one rate by the profile's rule. Filters first (excluded carriers, maximum transit
 * days, the order's own service levels), then preferred service levels when any is offered,
 * then cheapest or fastest. Ties are broken by price, transit days, service level, carrier
 * account id and quote id, so the same rates always give the same choice.
 */
export function selectRate(
  rates: readonly ShipmentRate[],
  rule: RateRule,
  orderServiceLevels: readonly string[] | null = null,
): RateChoice {
  if (rates.length === 0) return { rate: null, reason: 'The platform returned no rates.' };
  const notes: string[] = [];
  const excluded = new Set(rule.excludedCarriers.map(ruleKey));
  let pool = rates.filter((r) => !excluded.has(ruleKey(r.carrier)));
  if (pool.length < rates.length) notes.push(`excluding ${[...excluded].join(', ')}`);
  if (rule.maxTransitDays !== undefined) {
    const max = rule.maxTransitDays;
    const before = pool.length;
    pool = pool.filter((r) => r.transitDays === undefined || r.transitDays <= max);
    if (pool.length < before) notes.push(`at most ${max} transit days`);
  }
  if (orderServiceLevels && orderServiceLevels.length > 0) {
    pool = pool.filter((r) => orderServiceLevels.includes(r.serviceLevel));
    notes.push(`order asks for ${orderServiceLevels.join(' or ')}`);
  }
  if (pool.length === 0)
    return {
      rate: null,
      reason: `${rates.length === 1 ? 'The only rate does not fit' : `None of the ${rates.length} rates fits`} the rule (${notes.join('; ')}).`,
    };
  if (rule.preferredServiceLevels.length > 0) {
    const wanted = new Set(rule.preferredServiceLevels.map(ruleKey));
    const preferred = pool.filter((r) => wanted.has(ruleKey(r.serviceLevel)));
    if (preferred.length > 0) {
      pool = preferred;
      notes.push(`preferred ${rule.preferredServiceLevels.join(', ')}`);
    } else notes.push(`no preferred service level offered`);
  }
  const sorted = [...pool].sort(compareBy(rule.strategy));
  const rate = sorted[0]!;
  const strategy = rule.strategy === 'cheapest' ? 'cheapest' : 'fastest';
  const tie =
    sorted.length > 1 && compareBy(rule.strategy)(rate, sorted[1]!, true) === 0
      ? ' (tie broken by service level and account)'
      : '';
  return {
    rate,
    reason: `${describeRate(rate)}: ${strategy} of ${pool.length} rate${pool.length === 1 ? '' : 's'}${
      notes.length ? ` (${notes.join('; ')})` : ''
    }${tie}.`,
  };
}

function compareBy(strategy: RateRule['strategy']) {
  const transit = (r: ShipmentRate) => r.transitDays ?? Number.POSITIVE_INFINITY;
  return (a: ShipmentRate, b: ShipmentRate, primaryOnly = false): number => {
    const price = Math.round(a.amount * 100) - Math.round(b.amount * 100);
    const speed = Math.sign(transit(a) - transit(b)) || 0;
    let order: number;
    switch (strategy) {
      case 'cheapest':
        order = price || speed;
        break;
      case 'fastest':
        order = speed || price;
        break;
      default: {
        const never: never = strategy;
        throw new Error(`unknown rate strategy ${String(never)}`);
      }
    }
    if (order !== 0 || primaryOnly) return order;
    return (
      a.serviceLevel.localeCompare(b.serviceLevel) ||
      a.carrierAccount.id.localeCompare(b.carrierAccount.id) ||
      (a.rateQuoteId ?? '').localeCompare(b.rateQuoteId ?? '')
    );
  };
}
