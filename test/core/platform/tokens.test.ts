import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../../src/core/platform/index.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { clientFor } from './support.js';

// Short tokens (2 minutes) so a shift of several token lifetimes fits in a test; the client
// reads token lifetimes on the sandbox clock, which the test advances.
const sb = useSandbox({ tokenTtlSeconds: 120 });

describe('token manager', () => {
  it('caches the token: one token request for many calls, only the first call waits', async () => {
    const { client, events } = clientFor(sb, DEMO.directBrand);
    for (let i = 0; i < 5; i++) await client.listShippingSites();
    expect(client.stats()).toMatchObject({ tokenFetches: 1, requestsWaitedForToken: 1 });
    const calls = events.filter((e) => e.operation === 'listShippingSites');
    expect(calls.map((e) => e.waitedForToken)).toEqual([true, false, false, false, false]);
  });

  it('forgets the token when told (a new secret): the next call asks for a new one', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    await client.listShippingSites();
    client.tokens.forget();
    await client.listShippingSites();
    expect(client.stats()).toMatchObject({ tokenFetches: 2, requestsWaitedForToken: 2 });
  });

  it('asks for one token when many calls start at once (single-flight)', async () => {
    const { client, events } = clientFor(sb, DEMO.directBrand);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.listCarrierAccounts()),
    );
    expect(results).toHaveLength(10);
    expect(client.stats().tokenFetches).toBe(1);
    expect(events.filter((e) => e.operation === 'issueToken')).toHaveLength(1);
  });

  it('renews in the background through a shift of several lifetimes: no call waits or fails', async () => {
    const { client, events } = clientFor(sb, DEMO.directBrand);
    await client.listShippingSites();
    for (let minute = 0; minute < 10; minute++) {
      await sb.advance(50);
      await client.listShippingSites();
      await client.tokens.settled();
    }
    const stats = client.stats();
    expect(stats.requestsWaitedForToken).toBe(1);
    expect(stats.backgroundRefreshes).toBeGreaterThanOrEqual(4);
    expect(stats.tokenFetches).toBe(stats.backgroundRefreshes + 1);
    expect(stats.reauthenticatedRetries).toBe(0);
    const calls = events.filter((e) => e.operation === 'listShippingSites');
    expect(calls).toHaveLength(11);
    expect(calls.every((e) => e.status === 200)).toBe(true);
    expect(calls.slice(1).every((e) => !e.waitedForToken)).toBe(true);
  });

  it('keeps using the old token for calls made while the renewal is in flight', async () => {
    const { client, events } = clientFor(sb, DEMO.directBrand);
    await client.listShippingSites();
    await sb.advance(70); // inside the renewal window, before expiry
    sb.fault({ method: 'POST', path: '/api/v1/tokens/m2m', kind: 'delay', delayMs: 300, times: 1 });
    const during = await Promise.all(Array.from({ length: 5 }, () => client.listShippingSites()));
    expect(during).toHaveLength(5);
    await client.tokens.settled();
    expect(client.stats()).toMatchObject({ tokenFetches: 2, requestsWaitedForToken: 1 });
    const calls = events.filter((e) => e.operation === 'listShippingSites').slice(1);
    expect(calls.map((e) => [e.status, e.waitedForToken])).toEqual(
      Array.from({ length: 5 }, () => [200, false]),
    );
  });

  it('on a 401 renews once and sends once more (concurrent calls share the renewal)', async () => {
    // This client reads real time, so it cannot see that the sandbox clock made its token expire.
    const { client, events } = clientFor(sb, DEMO.directBrand, { now: Date.now });
    await client.listShippingSites();
    await sb.advance(121);
    const results = await Promise.all(Array.from({ length: 4 }, () => client.listShippingSites()));
    expect(results).toHaveLength(4);
    expect(client.stats().tokenFetches).toBe(2);
    expect(client.stats().reauthenticatedRetries).toBe(4);
    const statuses = events.filter((e) => e.operation === 'listShippingSites').map((e) => e.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  });

  it('a second 401 is an auth error: re-authenticates once, never loops', async () => {
    const realFetch = globalThis.fetch;
    const rejectAll: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith('/tokens/m2m')) return realFetch(input, init);
      return new Response(JSON.stringify({ message: 'nope', errorCode: 'UNAUTHORIZED' }), {
        status: 401,
        headers: { 'content-type': 'application/json', 'x-correlation-id': 'cor_test401' },
      });
    };
    const { client, events } = clientFor(sb, DEMO.directBrand, { fetch: rejectAll });
    const error = await client.listWebhooks().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).kind).toBe('auth');
    expect((error as PlatformError).correlationId).toBe('cor_test401');
    expect(events.filter((e) => e.operation === 'listWebhooks')).toHaveLength(2);
    expect(client.stats().tokenFetches).toBe(2);
  });

  it('a token request that fails in the background leaves calls on the old token', async () => {
    const { client } = clientFor(sb, DEMO.directBrand);
    await client.listShippingSites();
    await sb.advance(70);
    sb.fault({ method: 'POST', path: '/api/v1/tokens/m2m', kind: 'status', status: 500, times: 3 });
    await client.listShippingSites();
    await client.tokens.settled();
    expect(client.stats().tokenFetchFailures).toBe(1);
    // Still before expiry: the old token serves, nobody waits.
    await client.listShippingSites();
    expect(client.stats().requestsWaitedForToken).toBe(1);
    sb.clearFaults();
  });
});
