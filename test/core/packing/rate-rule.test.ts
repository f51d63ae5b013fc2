import { describe, expect, it } from 'vitest';
import { selectRate } from '../../../src/core/packing/rate-rule.js';
import type { ShipmentRate } from '../../../src/core/packing/platform-port.js';
import { rateRuleSchema } from '../../../src/core/profiles/profile-schema.js';

const rate = (
  serviceLevel: string,
  amount: number,
  transitDays: number | undefined,
  account = 'ca_1',
): ShipmentRate => ({
  carrierAccount: { id: account },
  carrier: serviceLevel.split('_')[0]!,
  serviceLevel,
  amount,
  currency: 'USD',
  transitDays,
  rateQuoteId: `rq_${serviceLevel}_${account}`,
});
const rule = (r: object = {}) => rateRuleSchema.parse(r);

const rates = [
  rate('UPS_GROUND', 9.8, 4),
  rate('USPS_PRIORITY', 9.8, 2),
  rate('FEDEX_2_DAY', 21.5, 2),
  rate('UPS_NEXT_DAY_AIR', 44, 1),
  rate('DHL_PARCEL_GROUND', 7.25, 6),
];

describe('rate rule', () => {
  it('cheapest picks the lowest price and explains why', () => {
    const choice = selectRate(rates, rule());
    expect(choice.rate?.serviceLevel).toBe('DHL_PARCEL_GROUND');
    expect(choice.reason).toBe('DHL_PARCEL_GROUND $7.25, 6 days: cheapest of 5 rates.');
  });

  it('breaks a price tie by transit days, then deterministically whatever the order of the rates', () => {
    const noDhl = rule({ excludedCarriers: ['dhl'] });
    expect(selectRate(rates, noDhl).rate?.serviceLevel).toBe('USPS_PRIORITY');
    const twins = [rate('UPS_GROUND', 9.8, 3, 'ca_b'), rate('UPS_GROUND', 9.8, 3, 'ca_a')];
    expect(selectRate(twins, rule()).rate?.carrierAccount.id).toBe('ca_a');
    expect(selectRate([...twins].reverse(), rule()).rate?.carrierAccount.id).toBe('ca_a');
    expect(selectRate(twins, rule()).reason).toMatch(/tie broken/);
  });

  it('fastest picks the fewest transit days, cheaper first on a tie', () => {
    expect(selectRate(rates, rule({ strategy: 'fastest' })).rate?.serviceLevel).toBe(
      'UPS_NEXT_DAY_AIR',
    );
    const noOvernight = rates.filter((r) => r.serviceLevel !== 'UPS_NEXT_DAY_AIR');
    expect(selectRate(noOvernight, rule({ strategy: 'fastest' })).rate?.serviceLevel).toBe(
      'USPS_PRIORITY',
    );
  });

  it('applies maximum transit days, excluded carriers and preferred service levels', () => {
    expect(selectRate(rates, rule({ maxTransitDays: 3 })).rate?.serviceLevel).toBe('USPS_PRIORITY');
    const preferred = selectRate(
      rates,
      rule({ preferredServiceLevels: ['FEDEX_2_DAY', 'UPS_GROUND'] }),
    );
    expect(preferred.rate?.serviceLevel).toBe('UPS_GROUND');
    expect(preferred.reason).toMatch(/preferred FEDEX_2_DAY, UPS_GROUND/);
    const none = selectRate(rates, rule({ preferredServiceLevels: ['ONTRAC_GROUND'] }));
    expect(none.rate?.serviceLevel).toBe('DHL_PARCEL_GROUND');
    expect(none.reason).toMatch(/no preferred service level offered/);
  });

  it('honours the service levels an order asks for, and says when nothing fits', () => {
    expect(selectRate(rates, rule(), ['FEDEX_2_DAY', 'UPS_NEXT_DAY_AIR']).rate?.serviceLevel).toBe(
      'FEDEX_2_DAY',
    );
    const nothing = selectRate(rates, rule({ maxTransitDays: 1, excludedCarriers: ['UPS'] }));
    expect(nothing.rate).toBeNull();
    expect(nothing.reason).toMatch(
      /None of the 5 rates fits the rule \(excluding UPS; at most 1 transit days\)/,
    );
    expect(selectRate([], rule()).rate).toBeNull();
  });
});
