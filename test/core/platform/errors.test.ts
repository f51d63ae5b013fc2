import { describe, expect, it } from 'vitest';
import { fieldSentence, kindForStatus } from '../../../src/core/platform/errors.js';
import { RETRY_AFTER_MAX_MS, retryAfterMs } from '../../../src/core/platform/retry.js';

describe('messages for the station', () => {
  it('names the field a relative message is about', () => {
    const f = (field: string | null, message: string) =>
      fieldSentence({ field, message, code: null });
    expect(f('shipment.packages[0].weightLbs', 'must be greater than 0')).toBe(
      'Package 1 weight must be greater than 0',
    );
    expect(f('shipment.shipTo.postalCode', 'is required')).toBe('Ship-to postal code is required');
    expect(f('name', 'must be 2 to 100 characters')).toBe('Name must be 2 to 100 characters');
    expect(f('carrierAccountId', 'the connection of carrier account "X" is PENDING')).toBe(
      'the connection of carrier account "X" is PENDING',
    );
    expect(f(null, 'is wrong')).toBe('is wrong');
  });

  it('classifies statuses; a purchase never reads a 5xx as a plain failure', () => {
    expect(kindForStatus(500, 'INTERNAL_ERROR', false)).toBe('retryable');
    expect(kindForStatus(500, 'INTERNAL_ERROR', true)).toBe('unknown-outcome');
    expect(kindForStatus(502, null, true)).toBe('unknown-outcome');
    expect(kindForStatus(429, null, false)).toBe('retryable');
    expect(kindForStatus(400, 'CONNECTION_NOT_AUTHORIZED', true)).toBe('connection-not-authorized');
    expect(kindForStatus(400, 'VALIDATION_ERROR', true)).toBe('validation');
    expect(kindForStatus(403, 'TENANT_FORBIDDEN', false)).toBe('wrong-tenant');
    expect(kindForStatus(403, 'READ_ONLY_KEY', false)).toBe('auth');
    expect(kindForStatus(401, 'TOKEN_EXPIRED', false)).toBe('auth');
    expect(kindForStatus(404, 'NOT_FOUND', false)).toBe('not-found');
    expect(kindForStatus(409, 'WEBHOOK_URI_EXISTS', false)).toBe('validation');
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('reads delay-seconds and an HTTP date, at most an hour, never below zero', () => {
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sat, 28 Nov 2026 12:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('86400', now)).toBe(RETRY_AFTER_MAX_MS);
  });
  it('ignores what it cannot read: the station keeps its own backoff', () => {
    for (const value of [null, undefined, '', 'soon', '-5', '1.5', 'in 5 minutes']) {
      expect(retryAfterMs(value, now)).toBeNull();
    }
  });
});
