import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import type { LookupFunction } from 'node:net';
import { WebhookPoster } from '../../src/sandbox/webhooks/http.js';
import { useSandbox } from '../support/sandbox.js';
import { call } from './helpers.js';
import { startReceiver } from './receiver.js';
import { type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { conformanceSandbox, envelope, fields, http, labelRequest } from './spec-world.js';

// --allow-http-webhooks is off: no subscription may reach this machine or its private network,
// however the address is spelled.
const sbx = useSandbox({ allowHttpWebhooks: false });

async function subscribe(uri: string) {
  const token = await sbx.token('demo-lumen-full');
  return call(sbx.url, 'POST', '/api/v1/webhooks', {
    headers: { authorization: `Bearer ${token}` },
    body: {
      uri,
      secret: 'whsec_demo_0123456789',
      email: 'ops@example.com',
      registeredEvents: ['tracking.updated'],
    },
  });
}

describe('webhook URIs are judged by the address they reach, not their spelling', () => {
  const loopbackSpellings = [
    'https://[::ffff:127.0.0.1]:9443/',
    'https://[::ffff:7f00:1]:9443/',
    'https://[::]:9443/',
    'https://[0:0:0:0:0:0:0:1]:9443/',
    'https://[::127.0.0.1]:9443/',
    'https://localhost.:9443/',
    'https://api.localhost.:9443/',
    'https://127.0.0.1.:9443/',
    'https://0.0.0.0:9443/',
    'https://2130706433:9443/',
    'https://0x7f.1:9443/',
    'https://[::ffff:10.1.2.3]/',
    'https://[::ffff:192.168.0.10]/',
    'https://[fe80::1]/',
    'https://169.254.169.254/',
    'https://100.64.0.1/',
  ];
  for (const uri of loopbackSpellings)
    it(`refuses ${uri}`, async () => {
      const res = await subscribe(uri);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('invalid_uri');
    });

  it('still accepts a public https address', async () => {
    const res = await subscribe('https://hooks.example.com/station');
    expect(res.status).toBe(201);
  });
});

describe('the delivery checks the address it actually connects to', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  // A public-looking name whose DNS answer is loopback (DNS rebinding): the text passes, the
  // address must not.
  const rebinding: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
      ]);
    else callback(null, '127.0.0.1', 4);
  };

  it('refuses a name that resolves to loopback and sends nothing', async () => {
    const port = new URL(receiver.url('/x')).port;
    const poster = new WebhookPoster({ allowLoopback: false, lookup: rebinding });
    const before = receiver.received.length;
    const result = await poster.post(`http://hooks.example.com:${port}/rebound`, '{}', {});
    poster.close();
    expect(result.statusCode).toBeNull();
    expect(result.error).toContain('127.0.0.1');
    expect(receiver.received.length).toBe(before);
  });

  it('refuses a loopback literal at delivery too', async () => {
    const port = new URL(receiver.url('/x')).port;
    const poster = new WebhookPoster({ allowLoopback: false });
    const before = receiver.received.length;
    const result = await poster.post(`http://[::ffff:127.0.0.1]:${port}/literal`, '{}', {});
    poster.close();
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/loopback|private/);
    expect(receiver.received.length).toBe(before);
  });

  it('delivers to loopback when loopback receivers are allowed (tests, --allow-http-webhooks)', async () => {
    const poster = new WebhookPoster({ allowLoopback: true, lookup: rebinding });
    const port = new URL(receiver.url('/x')).port;
    const result = await poster.post(`http://hooks.example.com:${port}/allowed`, '{}', {});
    poster.close();
    expect(result.statusCode).toBe(200);
    expect(receiver.received.some((r) => r.path === '/allowed')).toBe(true);
  });
});

/**
 * Conformance: webhook URLs (spec parts 2 and 6): one subscription per URL, its replacement
 * before expiry, HTTPS only unless --allow-http-webhooks admits a loopback receiver, and a
 * receiver that never answers.
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
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
        const deliveries = (await http(quiet.sandbox.url, 'GET', '/sandbox/webhook-deliveries'))
          .body.deliveries as { outcome: string }[];
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
});
