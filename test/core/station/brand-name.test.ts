import { describe, expect, it } from 'vitest';
import { brandName } from '../../../src/core/station/map.js';
import { profileSchema } from '../../../src/core/profiles/profile-schema.js';

const base = {
  environment: 'sandbox',
  baseUrl: 'http://127.0.0.1:1',
  shipFrom: {
    company: 'Harbor Fulfillment',
    addressLine1: '100 Raritan Center Pkwy',
    city: 'Edison',
    stateProvince: 'NJ',
    postalCode: '08837',
    countryCode: 'US',
  },
} as const;

describe('brand names in History and on the Pack view', () => {
  it("names a 3PL's brands, its own tenant by its company, and nothing it does not know", () => {
    const harbor = profileSchema.parse({
      ...base,
      id: 'harbor',
      name: 'Harbor dock 4',
      clientId: 'demo-harbor-full',
      tenantId: 'tnt_harbor',
      tenantType: 'thirdPartyLogistic',
      brandTenants: [{ tenantId: 'tnt_driftwood', name: 'Driftwood Coffee Co.' }],
    });
    expect(brandName(harbor, 'tnt_driftwood')).toBe('Driftwood Coffee Co.');
    expect(brandName(harbor, 'tnt_harbor')).toBe('Harbor Fulfillment');
    expect(brandName(harbor, 'tnt_stranger')).toBeNull();
  });
});
