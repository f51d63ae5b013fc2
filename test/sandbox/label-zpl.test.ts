import { describe, expect, it } from 'vitest';
import { LABEL_WIDTH_DOTS, zplForPackage } from '../../src/sandbox/labels/zpl.js';

const address = (name: string, line1: string) => ({
  name,
  addressLine1: line1,
  city: 'Austin',
  stateProvince: 'TX',
  postalCode: '78702',
  countryCode: 'US',
});

describe("the sandbox's 4x6 label", () => {
  it('prints a long name and street whole, in a smaller font, inside the label', () => {
    const name = 'Northwestern Regional Distribution Partners LLC';
    const street = '12500 Technology Boulevard Building 4, Suite 1200';
    const zpl = zplForPackage({
      shipFrom: address('Lumen Candle Works', '1 Main St'),
      shipTo: address(name, street),
      serviceName: 'UPS Ground',
      trackingNumber: '1Z999AA10123456784',
      weightLbs: 2,
      packageIndex: 1,
      packageCount: 1,
      orderReference: 'LUM-1-ABCDEF12',
      createdAt: '2026-11-29T10:00:00.000Z',
    });
    for (const text of [name, street]) {
      const field = new RegExp(`\\^FO(\\d+),\\d+\\^A0N,(\\d+),\\d+\\^FD${text}\\^FS`).exec(zpl);
      expect(field, text).not.toBeNull();
      const [x, height] = [Number(field![1]), Number(field![2])];
      // The widest characters of the scalable font are about 0.6 of its height.
      expect(x + 0.6 * height * text.length).toBeLessThanOrEqual(LABEL_WIDTH_DOTS - 20);
      expect(height).toBeGreaterThanOrEqual(16);
    }
    // A short line keeps the full size.
    expect(zpl).toMatch(/\^A0N,40,40\^FDAustin, TX 78702\^FS/);
  });
});
