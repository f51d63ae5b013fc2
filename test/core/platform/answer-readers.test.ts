import { describe, expect, it } from 'vitest';
import { readLabel, readRates } from '../../../src/core/platform/answer-readers.js';
import { LabelSchema, RatesResponseSchema } from '../../../src/core/platform/schemas.js';

const rate = (extra: Record<string, unknown> = {}) => ({
  rateQuoteId: 'rq_1',
  carrierAccount: { id: 'ca_ups', name: 'UPS', carrier: 'UPS', extra: 1 },
  carrier: 'UPS',
  serviceLevel: 'UPS_GROUND',
  serviceLevelName: 'Ground',
  amount: 9.8,
  currency: 'USD',
  transitDays: 3,
  estimatedDeliveryDate: '2026-11-27',
  billableWeightLbs: 2,
  surcharge: { fuel: 0.4 },
  ...extra,
});

const label = (extra: Record<string, unknown> = {}) => ({
  id: 'lbl_1',
  trackingNumber: '1Z999',
  trackerId: 'trk_1',
  carrier: 'UPS',
  serviceLevel: 'UPS_GROUND',
  carrierAccountId: 'ca_ups',
  orderReference: 'A-1',
  rateQuoteId: 'rq_1',
  cost: { amount: 9.8, currency: 'USD', taxes: [] },
  labelFormat: 'ZPL',
  labelSize: '4x6',
  labelData: 'XlhBXlha',
  labelUrl: null,
  mode: 'TEST',
  createdAt: '2026-11-24T10:00:00.000Z',
  packages: [{ trackingNumber: '1Z999', weightLbs: 2 }],
  somethingNew: [1, 2],
  ...extra,
});

describe('the rates and label answers read without the schemas', () => {
  it('give what the schemas give for every shape of a valid answer', () => {
    const rates: unknown[] = [
      { shipmentRates: [rate(), rate({ amount: null, carrier: undefined })] },
      { shipmentRates: [], rateErrors: null },
      {
        shipmentRates: [rate()],
        rateErrors: [
          { carrierAccount: { id: 'ca_fx' }, errorCode: 'CONNECTION_NOT_AUTHORIZED', message: 'x' },
          { carrierAccount: null, message: null },
        ],
        requestId: 'r1',
      },
    ];
    for (const body of rates) expect(readRates(body)).toEqual(RatesResponseSchema.parse(body));
    const labels: unknown[] = [
      label(),
      label({ cost: null, packages: null, labelData: undefined }),
      { id: 'lbl_2', trackingNumber: '1Z1' },
      label({ packages: [{}, { trackingNumber: null }] }),
    ];
    for (const body of labels) expect(readLabel(body)).toEqual(LabelSchema.parse(body));
  });

  it('leave every answer the schemas refuse to the schemas', () => {
    const rates: unknown[] = [
      null,
      [],
      'rates',
      {},
      { shipmentRates: null },
      { shipmentRates: [rate({ carrierAccount: null })] },
      { shipmentRates: [rate({ carrierAccount: { id: '' } })] },
      { shipmentRates: [rate({ amount: '9.80' })] },
      { shipmentRates: [rate({ serviceLevel: 3 })] },
      { shipmentRates: [rate()], rateErrors: {} },
      { shipmentRates: [rate()], rateErrors: [{ carrierAccount: { name: 'no id' } }] },
      { shipmentRates: [rate()], rateErrors: [{ message: 7 }] },
      { shipmentRates: [rate(), 'x'] },
    ];
    for (const body of rates) {
      expect(RatesResponseSchema.safeParse(body).success).toBe(false);
      expect(readRates(body)).toBeUndefined();
    }
    const labels: unknown[] = [
      null,
      [label()],
      label({ id: '' }),
      label({ trackingNumber: null }),
      label({ labelData: 42 }),
      label({ cost: 9.8 }),
      label({ cost: { amount: '9.80' } }),
      label({ packages: {} }),
      label({ packages: [{ trackingNumber: 1 }] }),
      label({ createdAt: false }),
    ];
    for (const body of labels) {
      expect(LabelSchema.safeParse(body).success).toBe(false);
      expect(readLabel(body)).toBeUndefined();
    }
  });
});
