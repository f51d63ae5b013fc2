import { describe, expect, it } from 'vitest';
import { serviceWords } from '../../src/shared/service-words';

describe('serviceWords: the carrier said once, as the Rates list says the service', () => {
  it('shows a service level that names its carrier alone', () => {
    expect(serviceWords('USPS', 'USPS_GROUND_ADVANTAGE')).toBe('USPS_GROUND_ADVANTAGE');
    expect(serviceWords('UPS', 'UPS_2ND_DAY_AIR')).toBe('UPS_2ND_DAY_AIR');
    expect(serviceWords('FedEx', 'FEDEX_GROUND')).toBe('FEDEX_GROUND');
  });
  it('keeps the carrier before a service level that does not name it', () => {
    expect(serviceWords('FEDEX', 'GROUND_HOME')).toBe('FEDEX GROUND_HOME');
    // "UPS" is not the carrier of "USPS_…": only a whole carrier name followed by "_" counts.
    expect(serviceWords('UPS', 'USPS_PRIORITY')).toBe('UPS USPS_PRIORITY');
  });
});
