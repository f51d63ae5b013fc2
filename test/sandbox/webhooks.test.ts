import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope, labelBody } from './helpers.js';
import { startReceiver } from './receiver.js';
import {
  type KeyName,
  conformanceSandbox,
  envelope,
  fields,
  http,
  labelRequest,
  receiver as specReceiver,
} from './spec-world.js';

const sbx = useSandbox({ allowHttpWebhooks: true });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const SECRET = 'whsec_demo_0123456789';

async function subscribe(clientId: string, body: Record<string, unknown>, tenantId?: string) {
  const token = await sbx.token(clientId);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (tenantId) headers['x-tenant-id'] = tenantId;
  return call(sbx.url, 'POST', '/api/v1/webhooks', {
    headers,
    body: { email: 'ops@example.com', registeredEvents: ['tracking.updated'], ...body },
  });
}

/** Buys a label for the direct brand (or a Harbor brand) and returns its tracking number. */
async function buyLabel(kind: 'lumen' | 'driftwood' = 'lumen'): Promise<string> {
  const headers =
    kind === 'lumen'
      ? await sbx.headers('demo-lumen-full')
      : await sbx.headers('demo-harbor-full', 'tnt_driftwood');
  const body =
    kind === 'lumen'
      ? labelBody('ca_lumen_usps', 'USPS_PRIORITY')
      : labelBody(
          'ca_driftwood_dhl',
          'DHL_PARCEL_GROUND',
          {},
          { shipFrom: { siteId: 'site_harbor_reno' } },
        );
  const res = await call(sbx.url, 'POST', '/api/v1/labels', { headers, body });
  expect(res.status).toBe(201);
  return res.body.trackingNumber as string;
}

const setStatus = (trackingNumber: string, status: string) =>
  call(sbx.url, 'POST', `/sandbox/trackers/${trackingNumber}/events`, { body: { status } });

const verify = (raw: string, signature: string | undefined, secret: string) => {
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(signature ?? '', 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

describe('webhook subscriptions', () => {
  it('creates a subscription that never returns its secrets, expiring 120 days later', async () => {
    const res = await subscribe('demo-lumen-full', {
      uri: receiver.url('/create'),
      secret: SECRET,
      credentials: { username: 'hook', password: 'hook-pass-123' },
      customHeader: { key: 'X-Station', value: 'lumen-1' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      uri: receiver.url('/create'),
      isActive: true,
      hasSecret: true,
      hasCredentials: true,
      hasCustomHeader: true,
      registeredEvents: ['tracking.updated'],
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(JSON.stringify(res.body)).not.toContain('lumen-1');
    expect(JSON.stringify(res.body)).not.toContain('hook-pass-123');
    expect(res.body).not.toHaveProperty('secret');
    expect(Date.parse(res.body.expirationDate) - Date.parse(res.body.createdAt)).toBe(
      120 * 86_400_000,
    );

    const token = await sbx.token('demo-lumen-full');
    const list = await call(sbx.url, 'GET', '/api/v1/webhooks', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    const one = await call(sbx.url, 'GET', `/api/v1/webhooks/${res.body.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(one.body.hasSecret).toBe(true);
    // Another tenant does not see it.
    const other = await sbx.token('demo-harbor-full');
    expectEnvelope(
      await call(sbx.url, 'GET', `/api/v1/webhooks/${res.body.id}`, {
        headers: { authorization: `Bearer ${other}` },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('one subscription per URL, however the URL is spelled', async () => {
    const uri = 'https://hooks.example.com/orders-hook';
    expect((await subscribe('demo-lumen-full', { uri, secret: SECRET })).status).toBe(201);
    // The same URL: host names are case-insensitive, 443 is https's default port, and a
    // fragment never leaves the sender. Each would deliver every event a second time.
    for (const same of [
      'https://HOOKS.Example.COM/orders-hook',
      'https://hooks.example.com:443/orders-hook',
      'https://hooks.example.com/orders-hook#copy',
      'https://hooks.example.com./orders-hook',
    ])
      expectEnvelope(
        await subscribe('demo-lumen-full', { uri: same, secret: SECRET }),
        409,
        'WEBHOOK_URI_EXISTS',
      );
    // Another path is another URL.
    expect((await subscribe('demo-lumen-full', { uri: `${uri}/v2`, secret: SECRET })).status).toBe(
      201,
    );
  });

  it('enforces the rules: secret or credentials, one per URI, event names, full-access keys', async () => {
    const none = expectEnvelope(
      await subscribe('demo-lumen-full', { uri: receiver.url('/rules') }),
      400,
      'VALIDATION_ERROR',
    );
    expect(none.errors[0]?.field).toBe('secret');
    const bad = expectEnvelope(
      await subscribe('demo-lumen-full', {
        uri: receiver.url('/rules'),
        secret: SECRET,
        registeredEvents: ['label.created'],
        email: 'nope',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(bad.errors.map((e) => e.field).sort()).toEqual(['email', 'registeredEvents[0]']);
    expect(
      (await subscribe('demo-lumen-full', { uri: receiver.url('/rules'), secret: SECRET })).status,
    ).toBe(201);
    expectEnvelope(
      await subscribe('demo-lumen-full', { uri: receiver.url('/rules'), secret: SECRET }),
      409,
      'WEBHOOK_URI_EXISTS',
    );
    expectEnvelope(
      await subscribe('demo-lumen-readonly', { uri: receiver.url('/ro'), secret: SECRET }),
      403,
      'READ_ONLY_KEY',
    );
    const ro = await sbx.token('demo-lumen-readonly');
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/webhooks', {
        headers: { authorization: `Bearer ${ro}` },
      }),
      403,
      'READ_ONLY_KEY',
    );
    expectEnvelope(
      await subscribe('demo-lumen-full', { uri: receiver.url('/x'), secret: SECRET }, 'tnt_harbor'),
      403,
      'TENANT_FORBIDDEN',
    );
    const reserved = expectEnvelope(
      await subscribe('demo-lumen-full', {
        uri: receiver.url('/hdr'),
        secret: SECRET,
        customHeader: { key: 'X-Hmac-Sha256', value: 'x' },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(reserved.errors[0]?.field).toBe('customHeader.key');
  });

  it('accepts HTTPS only; http:// on loopback only with --allow-http-webhooks', async () => {
    for (const uri of [
      'http://example.com/hook',
      'ftp://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'not a url',
    ]) {
      const env = expectEnvelope(
        await subscribe('demo-lumen-full', { uri, secret: SECRET }),
        400,
        'VALIDATION_ERROR',
      );
      expect(env.errors[0]?.field).toBe('uri');
    }
    expect(
      (
        await subscribe('demo-lumen-full', {
          uri: 'https://hooks.example.com/lumen',
          secret: SECRET,
        })
      ).status,
    ).toBe(201);

    const strict = await startSandbox({ port: 0 });
    try {
      const tokenRes = await call(strict.url, 'POST', '/api/v1/tokens/m2m', {
        body: {
          grantType: 'clientCredentials',
          clientId: 'demo-lumen-full',
          clientSecret: 'demo-lumen-full-secret',
        },
      });
      const headers = { authorization: `Bearer ${tokenRes.body.accessToken}` };
      for (const uri of ['http://127.0.0.1:9/hook', 'https://localhost/hook']) {
        const env = expectEnvelope(
          await call(strict.url, 'POST', '/api/v1/webhooks', {
            headers,
            body: {
              uri,
              email: 'ops@example.com',
              registeredEvents: ['tracking.updated'],
              secret: SECRET,
            },
          }),
          400,
          'VALIDATION_ERROR',
        );
        expect(env.errors[0]?.field).toBe('uri');
      }
    } finally {
      await strict.close();
    }
  });

  it('PATCH changes stored secrets only with their update flags', async () => {
    const created = await subscribe('demo-lumen-full', {
      uri: receiver.url('/patch'),
      secret: SECRET,
    });
    const headers = { authorization: `Bearer ${await sbx.token('demo-lumen-full')}` };
    const path = `/api/v1/webhooks/${created.body.id}`;
    const noFlag = expectEnvelope(
      await call(sbx.url, 'PATCH', path, { headers, body: { secret: 'another-secret-1' } }),
      400,
      'VALIDATION_ERROR',
    );
    expect(noFlag.errors[0]?.field).toBe('updateSecret');
    const headerAdded = await call(sbx.url, 'PATCH', path, {
      headers,
      body: {
        customHeader: { key: 'X-Env', value: 'sandbox' },
        credentials: { username: 'u', password: 'p' },
      },
    });
    expect(headerAdded.body).toMatchObject({
      hasCustomHeader: true,
      hasCredentials: true,
      hasSecret: true,
    });
    const removeBoth = expectEnvelope(
      await call(sbx.url, 'PATCH', path, {
        headers,
        body: { updateSecret: true, secret: null, updateCredentials: true, credentials: null },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expect(removeBoth.errors[0]?.field).toBe('secret');
    const changed = await call(sbx.url, 'PATCH', path, {
      headers,
      body: {
        updateSecret: true,
        secret: 'rotated-secret-2',
        updateCustomHeader: true,
        customHeader: null,
      },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ hasSecret: true, hasCustomHeader: false });
    expect(JSON.stringify(changed.body)).not.toContain('rotated-secret-2');

    const tn = await buyLabel();
    await setStatus(tn, 'IN_TRANSIT');
    const got = receiver.at('/patch').at(-1)!;
    expect(verify(got.raw, got.headers['x-hmac-sha256'] as string, 'rotated-secret-2')).toBe(true);
    expect(verify(got.raw, got.headers['x-hmac-sha256'] as string, SECRET)).toBe(false);
    expect(got.headers['x-env']).toBeUndefined();
    expect(got.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);

    expect((await call(sbx.url, 'DELETE', path, { headers })).status).toBe(204);
    expectEnvelope(await call(sbx.url, 'GET', path, { headers }), 404, 'NOT_FOUND');
  });
});

describe('webhook delivery', () => {
  it('POSTs tracking.updated in the documented envelope with HMAC, Basic, custom header and event id', async () => {
    await subscribe('demo-lumen-full', {
      uri: receiver.url('/lumen'),
      secret: SECRET,
      credentials: { username: 'hook', password: 's3cret' },
      customHeader: { key: 'X-Station', value: 'lumen-1' },
    });
    const tn = await buyLabel();
    expect(receiver.at('/lumen')).toHaveLength(0); // creation is not a status change
    const res = await setStatus(tn, 'IN_TRANSIT');
    expect(res.status).toBe(200);
    const [got] = receiver.at('/lumen');
    expect(got).toBeDefined();
    expect(got!.method).toBe('POST');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(verify(got!.raw, got!.headers['x-hmac-sha256'] as string, SECRET)).toBe(true);
    expect(got!.headers.authorization).toBe(
      `Basic ${Buffer.from('hook:s3cret').toString('base64')}`,
    );
    expect(got!.headers['x-station']).toBe('lumen-1');
    const event = JSON.parse(got!.raw);
    expect(got!.headers['x-service-event-id']).toBe(event.id);
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      eventType: 'tracking.updated',
      tenantId: 'tnt_lumen',
      payloadType: 'TrackerV1',
      payload: { trackingNumber: tn, status: 'IN_TRANSIT' },
    });
    expect(Date.parse(event.createdDate)).not.toBeNaN();
    expect(event.payload.updatedAt).toBe(event.createdDate);

    const token = await sbx.token('demo-lumen-full');
    const events = await call(sbx.url, 'GET', '/api/v1/webhookEvents', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(events.body.webhookEvents).toContainEqual(
      expect.objectContaining({ id: event.id, deliveryStatus: 'DELIVERED', attempts: 1 }),
    );
    expect(events.body).toMatchObject({ hasMore: false, nextCursor: null });
  });

  it('sends a 3PL subscription the events of every merchant below it, naming the merchant', async () => {
    await subscribe('demo-harbor-full', { uri: receiver.url('/harbor'), secret: SECRET });
    const mine = await buyLabel('driftwood');
    const other = await buyLabel('lumen');
    await setStatus(mine, 'IN_TRANSIT');
    await setStatus(other, 'IN_TRANSIT');
    const got = receiver.at('/harbor').map((r) => JSON.parse(r.raw));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ tenantId: 'tnt_driftwood', payload: { trackingNumber: mine } });
  });

  it('retries after 30, 60, 120 and 240 s of sandbox time', async () => {
    await subscribe('demo-lumen-full', { uri: receiver.url('/flaky'), secret: SECRET });
    receiver.plan('/flaky', { status: 500 }, { status: 503 }, { status: 200 });
    const tn = await buyLabel();
    await setStatus(tn, 'IN_TRANSIT');
    expect(receiver.at('/flaky')).toHaveLength(1);
    await sbx.advance(29);
    expect(receiver.at('/flaky')).toHaveLength(1);
    await sbx.advance(1);
    expect(receiver.at('/flaky')).toHaveLength(2);
    await sbx.advance(59);
    expect(receiver.at('/flaky')).toHaveLength(2);
    await sbx.advance(1);
    const calls = receiver.at('/flaky');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers['x-service-event-id'])).size).toBe(1);
    expect(new Set(calls.map((c) => c.raw)).size).toBe(1);
    await sbx.advance(600);
    expect(receiver.at('/flaky')).toHaveLength(3);
    const log = (await call(sbx.url, 'GET', '/sandbox/webhook-deliveries')).body.deliveries.filter(
      (d: { uri: string }) => d.uri === receiver.url('/flaky'),
    );
    expect(log.map((d: { statusCode: number }) => d.statusCode)).toEqual([500, 503, 200]);
    const gaps = log
      .slice(1)
      .map((d: { attemptedAt: string }, i: number) =>
        Math.round((Date.parse(d.attemptedAt) - Date.parse(log[i].attemptedAt)) / 1000),
      );
    expect(gaps).toEqual([30, 60]);
  });

  it('counts a slow answer (over 500 ms) and a redirect as failures, and stops after 5 attempts', async () => {
    await subscribe('demo-lumen-full', { uri: receiver.url('/slow'), secret: SECRET });
    receiver.setDefault('/slow', { status: 200, delayMs: 800 });
    await subscribe('demo-lumen-full', { uri: receiver.url('/moved'), secret: SECRET });
    receiver.setDefault('/moved', { status: 302, headers: { location: receiver.url('/lumen') } });
    const tn = await buyLabel();
    const before = receiver.at('/lumen').length;
    await setStatus(tn, 'OUT_FOR_DELIVERY');
    await sbx.advance(30 + 60 + 120 + 240);
    await sbx.advance(3600);
    expect(receiver.at('/slow')).toHaveLength(5);
    expect(receiver.at('/moved')).toHaveLength(5);
    // The redirect was not followed (only the /lumen subscription's own event arrived there).
    expect(receiver.at('/lumen').length - before).toBe(1);
    const log = (await call(sbx.url, 'GET', '/sandbox/webhook-deliveries')).body.deliveries;
    const slow = log.filter((d: { uri: string }) => d.uri === receiver.url('/slow'));
    expect(
      slow.every(
        (d: { outcome: string; error: string }) => d.outcome === 'failed' && /500 ms/.test(d.error),
      ),
    ).toBe(true);
    const moved = log.filter((d: { uri: string }) => d.uri === receiver.url('/moved'));
    expect(moved[0].error).toMatch(/redirect 302/);
    const token = await sbx.token('demo-lumen-full');
    const events = await call(sbx.url, 'GET', '/api/v1/webhookEvents?limit=1000', {
      headers: { authorization: `Bearer ${token}` },
    });
    const slowEvent = events.body.webhookEvents.find(
      (e: { payload: { trackingNumber: string }; deliveryStatus: string; attempts: number }) =>
        e.payload.trackingNumber === tn && e.attempts === 5,
    );
    expect(slowEvent.deliveryStatus).toBe('FAILED');
    // Stop these two from failing later tests' events.
    const headers = { authorization: `Bearer ${token}` };
    const subs = (await call(sbx.url, 'GET', '/api/v1/webhooks', { headers })).body.webhooks;
    for (const sub of subs.filter((s: { uri: string }) => /\/(slow|moved)$/.test(s.uri))) {
      await call(sbx.url, 'DELETE', `/api/v1/webhooks/${sub.id}`, { headers });
    }
  });
});

/**
 * Conformance: webhook subscriptions and tracking.updated delivery (spec parts 2-3, 5-6, 8;
 * issue 2 "Webhooks"), against a real local receiver.
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  const sb = conformanceSandbox({ allowHttpWebhooks: true, startTime: '2031-05-10T08:00:00.000Z' });

  let rx: Awaited<ReturnType<typeof specReceiver>>;
  beforeAll(async () => {
    rx = await specReceiver((path) => {
      if (path.startsWith('/fail')) return { status: 500 };
      return { status: 200 };
    });
  });
  afterAll(async () => {
    await rx.close();
  });

  const SECRET = 'whsec-conformance-1';

  function subscribe(key: KeyName, path: string, extra: object = {}, tenant?: string | null) {
    return sb.api.as(
      key,
      'POST',
      '/api/v1/webhooks',
      {
        uri: rx.url(path),
        email: `alerts+${path.replace(/\W/g, '')}@example.com`,
        registeredEvents: ['tracking.updated'],
        secret: SECRET,
        ...extra,
      },
      tenant === undefined ? null : tenant,
    );
  }

  async function label(key: KeyName, account: string, level: string, tenant?: string) {
    const res = await sb.api.as(
      key,
      'POST',
      '/api/v1/labels',
      labelRequest(account, level),
      tenant,
    );
    expect(res.status).toBeLessThan(300);
    return res.body.trackingNumber as string;
  }

  const soloLabel = () => label('solo', 'cw-ca-solo-zippy', 'ZIPPY_GROUND');

  async function setStatus(trackingNumber: string, status: string) {
    const res = await http(sb.sandbox.url, 'POST', `/sandbox/trackers/${trackingNumber}/events`, {
      json: { status },
    });
    expect(res.status).toBe(200);
  }

  describe('subscriptions', () => {
    it('secret or credentials is required; a 400 lists every bad field', async () => {
      const res = await sb.api.as(
        'solo',
        'POST',
        '/api/v1/webhooks',
        {
          uri: 'http://hooks.solo.example/x',
          email: 'not-an-email',
          registeredEvents: ['order.created'],
        },
        null,
      );
      envelope(res, 400);
      const f = fields(res);
      expect(f).toEqual(expect.arrayContaining(['uri', 'email']));
      expect(f.some((x) => x.startsWith('registeredEvents'))).toBe(true);
      expect(f.some((x) => x === 'secret' || x === 'credentials')).toBe(true);
    });

    it('any non-empty secret is accepted (the spec sets no minimum length)', async () => {
      const res = await subscribe('solo', '/short-secret', { secret: 's3cret' });
      expect(res.status).toBeLessThan(300);
      expect(res.body.hasSecret).toBe(true);
      const empty = await subscribe('solo', '/empty-secret', { secret: '' });
      envelope(empty, 400);
      await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${res.body.id}`, undefined, null);
    });

    it('a PATCH 400 lists every bad field at once', async () => {
      const created = await subscribe('solo', '/patch-400');
      const res = await sb.api.as(
        'solo',
        'PATCH',
        `/api/v1/webhooks/${created.body.id}`,
        { email: 'nope', secret: 'another-secret', uri: 'http://hooks.solo.example/x' },
        null,
      );
      envelope(res, 400);
      expect(fields(res)).toEqual(expect.arrayContaining(['email', 'updateSecret', 'uri']));
      await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${created.body.id}`, undefined, null);
    });
  });

  describe('delivery', () => {
    it('retries after 30, 60, 120 and 240 s of sandbox time: 5 attempts with the same event id', async () => {
      const sub = await subscribe('solo', '/fail-retry');
      const tn = await soloLabel();
      await setStatus(tn, 'IN_TRANSIT');
      const count = () => rx.at('/fail-retry').length;
      expect(count()).toBe(1);
      for (const [wait, expected] of [
        [29, 1],
        [1, 2],
        [59, 2],
        [1, 3],
        [119, 3],
        [1, 4],
        [239, 4],
        [1, 5],
        [3600, 5],
      ] as const) {
        await sb.api.advance(wait);
        expect(count()).toBe(expected);
      }
      const ids = new Set(rx.at('/fail-retry').map((h) => h.headers['x-service-event-id']));
      expect(ids.size).toBe(1);
      const bodies = new Set(rx.at('/fail-retry').map((h) => h.raw));
      expect(bodies.size).toBe(1);
      await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${sub.body.id}`, undefined, null);
    });
  });
});
