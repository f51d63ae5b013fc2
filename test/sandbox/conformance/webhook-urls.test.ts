/**
 * Conformance: webhook URLs (spec parts 2 and 6): one subscription per URL, its replacement
 * before expiry, and HTTPS only unless --allow-http-webhooks admits a loopback receiver.
 */
import { describe, expect, it } from 'vitest';
import { conformanceSandbox, envelope, fields } from './support.js';

const SECRET = 'whsec-conformance-urls';

describe('replacing a subscription before it expires', () => {
  const fresh = conformanceSandbox({ allowHttpWebhooks: true });
  it('one subscription per URL, but a replacement for the same URL may be created near expiry', async () => {
    const body = {
      uri: 'https://hooks.keel.example/tracking',
      email: 'ops@keel.example',
      registeredEvents: ['tracking.updated'],
      secret: SECRET,
    };
    const first = await fresh.api.as('keel', 'POST', '/api/v1/webhooks', body, null);
    expect(first.status).toBeLessThan(300);
    const twin = await fresh.api.as('keel', 'POST', '/api/v1/webhooks', body, null);
    expect(twin.status).toBeGreaterThanOrEqual(400);
    envelope(twin, twin.status);
    await fresh.api.advance(110 * 86_400);
    const replacement = await fresh.api.as('keel', 'POST', '/api/v1/webhooks', body, null);
    expect(replacement.status).toBeLessThan(300);
    expect(replacement.body.id).not.toBe(first.body.id);
    expect(Date.parse(replacement.body.expirationDate)).toBeGreaterThan(
      Date.parse(first.body.expirationDate),
    );
    const del = await fresh.api.as(
      'keel',
      'DELETE',
      `/api/v1/webhooks/${first.body.id}`,
      undefined,
      null,
    );
    expect(del.status).toBeLessThan(300);
    const list = await fresh.api.as('keel', 'GET', '/api/v1/webhooks', undefined, null);
    expect(JSON.stringify(list.body)).toContain(replacement.body.id);
    expect(JSON.stringify(list.body)).not.toContain(first.body.id);
  });
});

describe('without --allow-http-webhooks', () => {
  const strict = conformanceSandbox();
  it('http:// on loopback is refused', async () => {
    const res = await strict.api.as(
      'solo',
      'POST',
      '/api/v1/webhooks',
      {
        uri: 'http://127.0.0.1:9/events',
        email: 'a@solo.example',
        registeredEvents: ['tracking.updated'],
        secret: SECRET,
      },
      null,
    );
    expect(fields(envelope(res, 400) && res)).toContain('uri');
  });
});
