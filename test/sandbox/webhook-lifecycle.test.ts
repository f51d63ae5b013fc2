import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope, labelBody } from './helpers.js';
import { startReceiver } from './receiver.js';
import { type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { conformanceSandbox, envelope, http, labelRequest } from './spec-world.js';

const sbx = useSandbox({ allowHttpWebhooks: true });
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function auth() {
  return { authorization: `Bearer ${await sbx.token('demo-lumen-full')}` };
}

async function subscribe(path: string, email: string) {
  const res = await call(sbx.url, 'POST', '/api/v1/webhooks', {
    headers: await auth(),
    body: {
      uri: receiver.url(path),
      email,
      registeredEvents: ['tracking.updated'],
      secret: 'lifecycle-secret',
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function newTracker(): Promise<string> {
  const res = await call(sbx.url, 'POST', '/api/v1/labels', {
    headers: await sbx.headers('demo-lumen-full'),
    body: labelBody('ca_lumen_usps', 'USPS_PRIORITY'),
  });
  return res.body.trackingNumber as string;
}

const setStatus = (tn: string, status: string) =>
  call(sbx.url, 'POST', `/sandbox/trackers/${tn}/events`, { body: { status } });

const ALL_RETRIES_S = 30 + 60 + 120 + 240;

describe('webhook subscription lifecycle', () => {
  it('disables a subscription after 10 events in a row fail every attempt, with an e-mail', async () => {
    const id = await subscribe('/down', 'alerts@lumen.example');
    receiver.setDefault('/down', { status: 500 });
    const tn = await newTracker();
    const statuses = ['IN_TRANSIT', 'EXCEPTION', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'EXCEPTION'];
    // Nine events fail all five attempts: still active, no e-mail.
    for (let i = 0; i < 9; i++) await setStatus(tn, statuses[i % statuses.length]!);
    await sbx.advance(ALL_RETRIES_S);
    expect(receiver.at('/down')).toHaveLength(45);
    const path = `/api/v1/webhooks/${id}`;
    expect((await call(sbx.url, 'GET', path, { headers: await auth() })).body.isActive).toBe(true);
    expect((await call(sbx.url, 'GET', '/sandbox/outbox')).body.emails).toHaveLength(0);
    // The tenth does too: disabled, and the owner is told.
    await setStatus(tn, 'IN_TRANSIT');
    await sbx.advance(ALL_RETRIES_S);
    expect(receiver.at('/down')).toHaveLength(50);
    const sub = (await call(sbx.url, 'GET', path, { headers: await auth() })).body;
    expect(sub).toMatchObject({ isActive: false, status: 'DISABLED' });
    const emails = (await call(sbx.url, 'GET', '/sandbox/outbox')).body.emails;
    expect(emails).toEqual([
      expect.objectContaining({
        to: 'alerts@lumen.example',
        webhookId: id,
        subject: expect.stringContaining('disabled'),
      }),
    ]);
    // A disabled subscription gets nothing.
    await setStatus(tn, 'DELIVERED');
    await sbx.advance(ALL_RETRIES_S);
    expect(receiver.at('/down')).toHaveLength(50);
    // Re-enabled with PATCH isActive true, it receives again.
    receiver.setDefault('/down', { status: 204 });
    const patched = await call(sbx.url, 'PATCH', path, {
      headers: await auth(),
      body: { isActive: true },
    });
    expect(patched.body.isActive).toBe(true);
    await setStatus(tn, 'RETURNED');
    expect(receiver.at('/down')).toHaveLength(51);
  });

  it('a success resets the run of failed events', async () => {
    const id = await subscribe('/wobbly', 'wobbly@lumen.example');
    receiver.setDefault('/wobbly', { status: 500 });
    const tn = await newTracker();
    for (let i = 0; i < 9; i++) await setStatus(tn, i % 2 ? 'IN_TRANSIT' : 'EXCEPTION');
    await sbx.advance(ALL_RETRIES_S);
    receiver.plan('/wobbly', { status: 200 });
    await setStatus(tn, 'IN_TRANSIT');
    for (let i = 0; i < 9; i++) await setStatus(tn, i % 2 ? 'IN_TRANSIT' : 'EXCEPTION');
    await sbx.advance(ALL_RETRIES_S);
    const sub = (await call(sbx.url, 'GET', `/api/v1/webhooks/${id}`, { headers: await auth() }))
      .body;
    expect(sub.isActive).toBe(true);
    await call(sbx.url, 'DELETE', `/api/v1/webhooks/${id}`, { headers: await auth() });
  });

  it('expires 120 days after creation without an e-mail; events stop', async () => {
    const id = await subscribe('/expiring', 'expiry@lumen.example');
    const emailsBefore = (await call(sbx.url, 'GET', '/sandbox/outbox')).body.emails.length;
    const tn = await newTracker();
    await setStatus(tn, 'IN_TRANSIT');
    expect(receiver.at('/expiring')).toHaveLength(1);
    await sbx.advance(119 * 86_400);
    const path = `/api/v1/webhooks/${id}`;
    expect((await call(sbx.url, 'GET', path, { headers: await auth() })).body.isActive).toBe(true);
    await sbx.advance(86_400);
    const sub = (await call(sbx.url, 'GET', path, { headers: await auth() })).body;
    expect(sub).toMatchObject({ isActive: false, status: 'EXPIRED' });
    const count = receiver.at('/expiring').length;
    await setStatus(tn, 'DELIVERED');
    expect(receiver.at('/expiring')).toHaveLength(count);
    expect((await call(sbx.url, 'GET', '/sandbox/outbox')).body.emails).toHaveLength(emailsBefore);
    // It cannot be re-activated: the replacement is a new subscription with a new id.
    expectEnvelope(
      await call(sbx.url, 'PATCH', path, { headers: await auth(), body: { isActive: true } }),
      400,
      'VALIDATION_ERROR',
    );
    // An expired subscription does not hold its URL: the replacement may use the same one.
    const replacement = await subscribe('/expiring', 'expiry@lumen.example');
    expect(replacement).not.toBe(id);
    expect((await call(sbx.url, 'DELETE', path, { headers: await auth() })).status).toBe(204);
  });

  it('pages webhookEvents with a cursor', async () => {
    const headers = await auth();
    const all: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: {
        body: { webhookEvents: { id: string }[]; nextCursor: string | null; hasMore: boolean };
      } = await call(
        sbx.url,
        'GET',
        `/api/v1/webhookEvents?limit=7${cursor ? `&cursor=${cursor}` : ''}`,
        { headers },
      );
      all.push(...res.body.webhookEvents.map((e) => e.id));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(all).size).toBe(all.length);
    const one = await call(sbx.url, 'GET', '/api/v1/webhookEvents?limit=1000', { headers });
    expect(one.body.webhookEvents.map((e: { id: string }) => e.id)).toEqual(all);
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/webhookEvents?cursor=garbage', { headers }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await call(sbx.url, 'GET', '/api/v1/webhookEvents?limit=0', { headers }),
      400,
      'VALIDATION_ERROR',
    );
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
