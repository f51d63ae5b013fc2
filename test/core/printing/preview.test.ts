import { describe, expect, it } from 'vitest';
import { renderLabelPreview } from '../../../src/core/printing/preview.js';
import { testLabel } from '../../../src/core/printing/zpl.js';
import { zplForPackage } from '../../../src/sandbox/labels/zpl.js';

const address = (name: string) => ({
  name,
  addressLine1: '1 Main St',
  city: 'Austin',
  stateProvince: 'TX',
  postalCode: '78701',
  countryCode: 'US',
});

describe('label preview (zpl-renderer-js, in Node)', () => {
  it('renders the platform label as a 4x6 PNG at 203 dpi', { timeout: 60_000 }, async () => {
    const zpl = zplForPackage({
      shipFrom: address('Warehouse'),
      shipTo: address('Dana Reyes'),
      serviceName: 'Ground',
      trackingNumber: '1Z999AA10123456784',
      weightLbs: 2.5,
      packageIndex: 1,
      packageCount: 1,
      orderReference: 'ORD-1001',
      createdAt: '2026-11-21T10:00:00.000Z',
    } as Parameters<typeof zplForPackage>[0]);
    const preview = await renderLabelPreview(zpl);
    expect(preview.png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    // 4 x 6 in at 8 dots/mm, give or take the renderer's rounding of millimetres to dots
    expect(Math.abs(preview.widthPx - 812)).toBeLessThanOrEqual(2);
    expect(Math.abs(preview.heightPx - 1218)).toBeLessThanOrEqual(2);

    const other = await renderLabelPreview(zpl.replace('Dana Reyes', 'Sam Okafor'));
    expect(other.png.equals(preview.png)).toBe(false); // it draws what the label says
  });

  it('renders the 300-dpi test label at 300 dpi', { timeout: 60_000 }, async () => {
    const zpl = testLabel({ id: 'p', name: 'ZT411', kind: 'network', host: '10.0.0.2', dpi: 300 });
    const preview = await renderLabelPreview(zpl, { dpi: 300 });
    expect(Math.abs(preview.widthPx - 1200)).toBeLessThanOrEqual(20); // 12 dots/mm ≈ 305 dpi
    expect(Math.abs(preview.heightPx - 1800)).toBeLessThanOrEqual(30);
  });
});
