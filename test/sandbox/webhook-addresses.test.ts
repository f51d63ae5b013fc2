import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import type { LookupFunction } from 'node:net';
import { WebhookPoster } from '../../src/sandbox/webhooks/http.js';
import { useSandbox } from '../support/sandbox.js';
import { call } from './helpers.js';
import { startReceiver } from './receiver.js';

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
