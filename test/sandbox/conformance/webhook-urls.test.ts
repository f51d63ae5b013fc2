/**
 * Conformance: webhook URLs (spec parts 2 and 6): one subscription per URL, its replacement
 * before expiry, HTTPS only unless --allow-http-webhooks admits a loopback receiver, and a
 * receiver that never answers.
 */
import { type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { conformanceSandbox, envelope, fields, http, labelRequest } from './support.js';

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

describe('a receiver that never answers', () => {
  const quiet = conformanceSandbox({ allowHttpWebhooks: true });
  it('fails every attempt after 500 ms; 10 such events disable the subscription with an e-mail', async () => {
    const held: ServerResponse[] = [];
    const server = createServer((req, res) => {
      req.resume();
      held.push(res); // never answered
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const sub = await quiet.api.as(
        'solo',
        'POST',
        '/api/v1/webhooks',
        {
          uri: `http://127.0.0.1:${port}/silent`,
          email: 'silent@solo.example',
          registeredEvents: ['tracking.updated'],
          secret: SECRET,
        },
        null,
      );
      expect(sub.status).toBeLessThan(300);
      for (let i = 0; i < 10; i++) {
        const res = await quiet.api.as(
          'solo',
          'POST',
          '/api/v1/labels',
          labelRequest('cw-ca-solo-zippy', 'ZIPPY_GROUND', { orderReference: `CW-SILENT-${i}` }),
        );
        expect(res.status).toBeLessThan(300);
      }
      await quiet.api.advance(9 * 3600); // every tracker is picked up: 10 events
      await quiet.api.advance(30 + 60 + 120 + 240 + 10);
      const now = await quiet.api.as(
        'solo',
        'GET',
        `/api/v1/webhooks/${sub.body.id}`,
        undefined,
        null,
      );
      expect(now.body.isActive).toBe(false);
      const deliveries = (await http(quiet.sandbox.url, 'GET', '/sandbox/webhook-deliveries')).body
        .deliveries as { outcome: string }[];
      expect(deliveries).toHaveLength(50);
      expect(deliveries.every((d) => d.outcome === 'failed')).toBe(true);
      const mails = (await http(quiet.sandbox.url, 'GET', '/sandbox/outbox')).body.emails;
      expect(mails.map((m: { to: string }) => m.to)).toEqual(['silent@solo.example']);
    } finally {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
