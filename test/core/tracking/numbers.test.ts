import { describe, expect, it } from 'vitest';
import { looksLikeTrackingNumber } from '../../../src/core/tracking/numbers.js';

describe('looksLikeTrackingNumber', () => {
  it("takes the carriers' shapes for tracking numbers", () => {
    for (const n of ['1Z999AA10123456784', '9400111899223197428490', '123456', 'LX123456789US'])
      expect(looksLikeTrackingNumber(n), n).toBe(true);
  });
  it('takes order numbers for order numbers', () => {
    for (const n of ['LUM-10421', 'HB-1001', '12345', 'order 7', 'lx123'])
      expect(looksLikeTrackingNumber(n), n).toBe(false);
  });
});
