import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../../src/core/platform/errors.js';
import type { Exchange } from '../../../src/core/platform/exchange-errors.js';
import { HOLD_MAX_MS, RetryAfterHold } from '../../../src/core/platform/retry-after-hold.js';

const exchange = (operation: string, purchase = false): Exchange => ({
  operation,
  what: operation === 'getRates' ? 'the rate request' : 'the label',
  method: 'POST',
  path: operation === 'getRates' ? '/api/v1/rates' : '/api/v1/labels',
  tenantId: 'tnt_lumen',
  clientId: 'cli_lumen',
  host: '127.0.0.1',
  purchase,
});

const refused = (operation: string, status: number, retryAfterMs: number | null) =>
  new PlatformError({
    kind: 'retryable',
    message: 'busy',
    operation,
    method: 'POST',
    path: '/',
    tenantId: 'tnt_lumen',
    status,
    retryAfterMs,
  });

describe('RetryAfterHold', () => {
  it('holds the capability that heard a Retry-After, says how long is left, and lets go after it', () => {
    let now = 1_000_000;
    const hold = new RetryAfterHold(() => now);
    hold.heard('getRates', refused('getRates', 429, 30_000));
    now += 10_000;
    const held = hold.check('getRates', () => exchange('getRates'));
    expect(held).toMatchObject({ kind: 'retryable', status: null, retryAfterMs: 20_000 });
    expect(held!.message).toBe(
      'The platform asked the station to wait before asking for rates again (too many requests, HTTP 429): 20 s more. Nothing was sent',
    );
    // Purchases were not refused: not held.
    expect(hold.check('purchaseLabel', () => exchange('purchaseLabel', true))).toBeNull();
    now += 20_000;
    expect(hold.check('getRates', () => exchange('getRates'))).toBeNull();
  });

  it('a held purchase was never sent (network kind, so it may queue); no Retry-After holds nothing', () => {
    let now = 0;
    const hold = new RetryAfterHold(() => now);
    hold.heard('purchaseLabel', refused('purchaseLabel', 503, null));
    expect(hold.check('purchaseLabel', () => exchange('purchaseLabel', true))).toBeNull();
    hold.heard('purchaseLabel', refused('purchaseLabel', 503, 5_000));
    now = 1_000;
    expect(hold.check('purchaseLabel', () => exchange('purchaseLabel', true))).toMatchObject({
      kind: 'network',
      message: expect.stringMatching(/wait before buying labels again \(HTTP 503\): 4 s more/),
    });
    // The tracker list keeps its own handling (the poller's pause).
    hold.heard('listTrackers', refused('listTrackers', 429, 60_000));
    expect(hold.check('listTrackers', () => exchange('listTrackers'))).toBeNull();
  });

  it('an hour asked holds the packers for two minutes at most', () => {
    let now = 0;
    const hold = new RetryAfterHold(() => now);
    hold.heard('getRates', refused('getRates', 429, 3_600_000));
    now = HOLD_MAX_MS - 1_000;
    expect(hold.check('getRates', () => exchange('getRates'))).not.toBeNull();
    now = HOLD_MAX_MS;
    expect(hold.check('getRates', () => exchange('getRates'))).toBeNull();
  });
});
