/* eslint-disable @typescript-eslint/no-explicit-any -- black-box responses */
/**
 * Conformance: webhook subscriptions and tracking.updated delivery (spec parts 2-3, 5-6, 8;
 * issue 2 "Webhooks"), against a real local receiver.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type KeyName,
  conformanceSandbox,
  envelope,
  fields,
  http,
  labelRequest,
  receiver,
} from './support.js';

const sb = conformanceSandbox({ allowHttpWebhooks: true, startTime: '2031-05-10T08:00:00.000Z' });

const failing = new Set<string>();
let rx: Awaited<ReturnType<typeof receiver>>;
beforeAll(async () => {
  rx = await receiver((path) => {
    if (path.startsWith('/slow')) return { status: 200, delayMs: 800 };
    if (path.startsWith('/redirect') && !path.endsWith('/moved')) return { status: 302 };
    if (path.startsWith('/fail') || failing.has(path)) return { status: 500 };
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
  const res = await sb.api.as(key, 'POST', '/api/v1/labels', labelRequest(account, level), tenant);
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

async function deliveriesTo(path: string): Promise<any[]> {
  const res = await http(sb.sandbox.url, 'GET', '/sandbox/webhook-deliveries');
  expect(res.status).toBe(200);
  return res.body.deliveries.filter((d: { uri: string }) => d.uri === rx.url(path));
}

describe('subscriptions', () => {
  it('creates a subscription: write-only secrets, has* flags, isActive, expirationDate = +120 days', async () => {
    const before = Date.parse((await http(sb.sandbox.url, 'GET', '/sandbox/clock')).body.now);
    const res = await subscribe('solo', '/crud', {
      credentials: { username: 'hook-user', password: 'hook-pass-123' },
      customHeader: { key: 'X-Solo-Route', value: 'pack-line-2' },
    });
    expect(res.status).toBeLessThan(300);
    const after = Date.parse((await http(sb.sandbox.url, 'GET', '/sandbox/clock')).body.now);
    const w = res.body;
    expect(w).toMatchObject({
      uri: rx.url('/crud'),
      registeredEvents: ['tracking.updated'],
      isActive: true,
      hasSecret: true,
      hasCredentials: true,
      hasCustomHeader: true,
    });
    const text = JSON.stringify(w);
    for (const secret of [SECRET, 'hook-pass-123', 'pack-line-2'])
      expect(text).not.toContain(secret);
    const expires = Date.parse(w.expirationDate);
    const days120 = 120 * 86_400_000;
    expect(expires).toBeGreaterThanOrEqual(before + days120);
    expect(expires).toBeLessThanOrEqual(after + days120);
    const id = w.webhookId ?? w.id;
    const one = await sb.api.as('solo', 'GET', `/api/v1/webhooks/${id}`, undefined, null);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).not.toContain(SECRET);
    const list = await sb.api.as('solo', 'GET', '/api/v1/webhooks', undefined, null);
    expect(JSON.stringify(list.body)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    const del = await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${id}`, undefined, null);
    expect(del.status).toBeLessThan(300);
    envelope(await sb.api.as('solo', 'GET', `/api/v1/webhooks/${id}`, undefined, null), 404);
  });

  it('HTTPS only (loopback http admitted by --allow-http-webhooks); one subscription per URI', async () => {
    for (const uri of [
      'http://hooks.solo.example/events',
      'ftp://hooks.solo.example/x',
      'not a url',
    ]) {
      const res = await sb.api.as(
        'solo',
        'POST',
        '/api/v1/webhooks',
        { uri, email: 'a@solo.example', registeredEvents: ['tracking.updated'], secret: SECRET },
        null,
      );
      expect(fields(envelope(res, 400) && res)).toContain('uri');
    }
    const https = await sb.api.as(
      'solo',
      'POST',
      '/api/v1/webhooks',
      {
        uri: 'https://hooks.solo.example/events',
        email: 'a@solo.example',
        registeredEvents: ['tracking.updated'],
        secret: SECRET,
      },
      null,
    );
    expect(https.status).toBeLessThan(300);
    const again = await sb.api.as(
      'solo',
      'POST',
      '/api/v1/webhooks',
      {
        uri: 'https://hooks.solo.example/events',
        email: 'b@solo.example',
        registeredEvents: ['tracking.updated'],
        credentials: { username: 'u', password: 'p' },
      },
      null,
    );
    expect(again.status).toBeGreaterThanOrEqual(400);
    envelope(again, again.status);
    await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${https.body.id}`, undefined, null);
  });

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

  it('a read-only key gets 403 on webhooks', async () => {
    envelope(await subscribe('soloViewer', '/ro'), 403);
    envelope(await sb.api.as('soloViewer', 'GET', '/api/v1/webhooks', undefined, null), 403);
  });

  it('PATCH changes a stored secret only with updateSecret: true', async () => {
    const created = await subscribe('fern', '/rotate');
    const id = created.body.id;
    const tn = await label('fern', 'cw-ca-fern-zippy', 'ZIPPY_GROUND');
    const patchNoFlag = await sb.api.as(
      'fern',
      'PATCH',
      `/api/v1/webhooks/${id}`,
      { secret: 'whsec-rotated-2' },
      null,
    );
    expect(patchNoFlag.status).not.toBe(500);
    await setStatus(tn, 'IN_TRANSIT');
    const first = rx.at('/rotate').at(-1)!;
    expect(first.headers['x-hmac-sha256']).toBe(
      createHmac('sha256', SECRET).update(first.raw).digest('base64'),
    );
    const patched = await sb.api.as(
      'fern',
      'PATCH',
      `/api/v1/webhooks/${id}`,
      { secret: 'whsec-rotated-2', updateSecret: true },
      null,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.hasSecret).toBe(true);
    expect(JSON.stringify(patched.body)).not.toContain('whsec-rotated-2');
    await setStatus(tn, 'OUT_FOR_DELIVERY');
    const second = rx.at('/rotate').at(-1)!;
    expect(second.headers['x-hmac-sha256']).toBe(
      createHmac('sha256', 'whsec-rotated-2').update(second.raw).digest('base64'),
    );
    await sb.api.as('fern', 'DELETE', `/api/v1/webhooks/${id}`, undefined, null);
  });
});

describe('delivery', () => {
  it('POSTs the documented envelope with X-Hmac-Sha256, Basic credentials, the custom header and x-service-event-id', async () => {
    const sub = await subscribe('solo', '/deliver', {
      credentials: { username: 'hook-user', password: 'hook-pass-123' },
      customHeader: { key: 'X-Solo-Route', value: 'pack-line-2' },
    });
    const tn = await soloLabel();
    await setStatus(tn, 'IN_TRANSIT');
    const hits = rx.at('/deliver');
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    const body = JSON.parse(hit.raw);
    expect(body).toMatchObject({
      eventType: 'tracking.updated',
      tenantId: 'cw-solo',
      payloadType: 'TrackerV1',
      payload: { trackingNumber: tn, status: 'IN_TRANSIT' },
    });
    expect(typeof body.id).toBe('string');
    expect(new Date(body.createdDate).toISOString()).toBe(body.createdDate);
    expect(typeof body.payload.updatedAt).toBe('string');
    expect(hit.headers['x-service-event-id']).toBe(body.id);
    expect(hit.headers['content-type']).toMatch(/application\/json/);
    expect(hit.headers['x-hmac-sha256']).toBe(
      createHmac('sha256', SECRET).update(hit.raw).digest('base64'),
    );
    expect(hit.headers.authorization).toBe(
      `Basic ${Buffer.from('hook-user:hook-pass-123').toString('base64')}`,
    );
    expect(hit.headers['x-solo-route']).toBe('pack-line-2');
    // GET /api/v1/webhookEvents lists what was sent
    const events = await sb.api.as('solo', 'GET', '/api/v1/webhookEvents', undefined, null);
    expect(events.status).toBe(200);
    expect(JSON.stringify(events.body)).toContain(body.id);
    await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${sub.body.id}`, undefined, null);
  });

  it('a 3PL subscription receives its merchants’ events, tenantId naming the merchant', async () => {
    const sub = await subscribe('keel', '/keel');
    const tn = await label('fern', 'cw-ca-fern-zippy', 'ZIPPY_GROUND');
    await setStatus(tn, 'IN_TRANSIT');
    const hit = rx.at('/keel').find((h) => JSON.parse(h.raw).payload.trackingNumber === tn);
    expect(hit).toBeDefined();
    expect(JSON.parse(hit!.raw).tenantId).toBe('cw-fern');
    // another 3PL does not
    const mast = await subscribe('mast', '/mast-quiet');
    await setStatus(tn, 'OUT_FOR_DELIVERY');
    expect(rx.at('/mast-quiet')).toHaveLength(0);
    for (const [key, s] of [
      ['keel', sub],
      ['mast', mast],
    ] as const)
      await sb.api.as(key, 'DELETE', `/api/v1/webhooks/${s.body.id}`, undefined, null);
  });

  it('an answer slower than 500 ms is a failure; a redirect is a failure and is not followed', async () => {
    const slow = await subscribe('solo', '/slow');
    const redirect = await subscribe('solo', '/redirect');
    const tn = await soloLabel();
    await setStatus(tn, 'IN_TRANSIT');
    const slowD = await deliveriesTo('/slow');
    expect(slowD).toHaveLength(1);
    expect(slowD[0].outcome).toBe('failed');
    const redirectD = await deliveriesTo('/redirect');
    expect(redirectD).toHaveLength(1);
    expect(redirectD[0].outcome).toBe('failed');
    expect(rx.at('/redirect/moved')).toHaveLength(0);
    for (const s of [slow, redirect])
      await sb.api.as('solo', 'DELETE', `/api/v1/webhooks/${s.body.id}`, undefined, null);
  });

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

  it('10 events in a row failing every attempt disable the subscription and e-mail its address; PATCH isActive re-enables', async () => {
    failing.add('/mast-down');
    const sub = await subscribe('mast', '/mast-down');
    const id = sub.body.id;
    const tn = await label('mast', 'cw-ca-tide-zippy', 'ZIPPY_GROUND', 'cw-tide');
    const statuses = ['IN_TRANSIT', 'EXCEPTION'];
    for (let i = 0; i < 9; i++) await setStatus(tn, statuses[i % 2]!);
    await sb.api.advance(30 + 60 + 120 + 240 + 5);
    let now = await sb.api.as('mast', 'GET', `/api/v1/webhooks/${id}`, undefined, null);
    expect(now.body.isActive).toBe(true);
    await setStatus(tn, 'IN_TRANSIT');
    await sb.api.advance(30 + 60 + 120 + 240 + 5);
    now = await sb.api.as('mast', 'GET', `/api/v1/webhooks/${id}`, undefined, null);
    expect(now.body.isActive).toBe(false);
    expect(rx.at('/mast-down')).toHaveLength(50);
    const outbox = await http(sb.sandbox.url, 'GET', '/sandbox/outbox');
    const mails = outbox.body.emails.filter(
      (m: { to: string }) => m.to === 'alerts+mastdown@example.com',
    );
    expect(mails).toHaveLength(1);
    // disabled: no more deliveries
    await setStatus(tn, 'DELIVERED');
    expect(rx.at('/mast-down')).toHaveLength(50);
    // fixed and re-enabled
    failing.delete('/mast-down');
    const on = await sb.api.as('mast', 'PATCH', `/api/v1/webhooks/${id}`, { isActive: true }, null);
    expect(on.status).toBe(200);
    expect(on.body.isActive).toBe(true);
    await setStatus(tn, 'RETURNED');
    expect(rx.at('/mast-down')).toHaveLength(51);
  });

  it('expires 120 days after creation: events stop, no e-mail is sent', async () => {
    const sub = await subscribe('fern', '/expiring');
    const id = sub.body.id;
    const tn = await label('fern', 'cw-ca-fern-zippy', 'ZIPPY_GROUND');
    await setStatus(tn, 'IN_TRANSIT');
    expect(rx.at('/expiring')).toHaveLength(1);
    const mailsBefore = (await http(sb.sandbox.url, 'GET', '/sandbox/outbox')).body.emails.length;
    await sb.api.advance(119 * 86_400);
    await setStatus(tn, 'OUT_FOR_DELIVERY');
    expect(rx.at('/expiring')).toHaveLength(2);
    await sb.api.advance(86_400 + 1);
    const after = await sb.api.as('fern', 'GET', `/api/v1/webhooks/${id}`, undefined, null);
    expect(after.status).toBe(200);
    expect(after.body.isActive).toBe(false);
    await setStatus(tn, 'DELIVERED');
    expect(rx.at('/expiring')).toHaveLength(2);
    const mailsAfter = (await http(sb.sandbox.url, 'GET', '/sandbox/outbox')).body.emails;
    expect(mailsAfter).toHaveLength(mailsBefore);
  });
});
