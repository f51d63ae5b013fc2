/**
 * Conformance: the error envelope on every error (spec part 7, issue 2 "Errors") and the admin
 * routes under /sandbox exactly as issue 2 part 5 lists them.
 */
import { describe, expect, it } from 'vitest';
import { conformanceSandbox, envelope, fields, http, labelRequest, shipment } from './support.js';

const sb = conformanceSandbox();

async function bearer(): Promise<Record<string, string>> {
  return {
    authorization: `Bearer ${await sb.api.bearer('solo')}`,
    'x-tenant-id': 'cw-solo',
  };
}

describe('the error envelope', () => {
  it('malformed JSON is 400 in the envelope, with or without a token', async () => {
    envelope(
      await sb.api.req('POST', '/api/v1/tokens/m2m', {
        headers: { 'content-type': 'application/json' },
        raw: '{"grantType": "clientCredentials",',
      }),
      400,
    );
    envelope(
      await sb.api.req('POST', '/api/v1/rates', {
        headers: { ...(await bearer()), 'content-type': 'application/json' },
        raw: '{shipment: nope}',
      }),
      400,
    );
  });

  it('wrong types are 400 listing each bad field', async () => {
    const res = await sb.api.req('POST', '/api/v1/carrierAccounts', {
      headers: await bearer(),
      json: { name: 12, carrierAccountConnectionId: ['x'], isActive: 'true' },
    });
    envelope(res, 400);
    expect(fields(res)).toEqual(
      expect.arrayContaining(['name', 'carrierAccountConnectionId', 'isActive']),
    );
    for (const e of res.body.errors) expect(typeof e.message).toBe('string');
  });

  it('a body that is not an object is 400', async () => {
    envelope(
      await sb.api.req('POST', '/api/v1/rates', { headers: await bearer(), json: [1, 2, 3] }),
      400,
    );
    envelope(await sb.api.req('POST', '/api/v1/tokens/m2m', { json: 'clientCredentials' }), 400);
  });

  it('an oversized body gets the envelope', async () => {
    const huge = JSON.stringify({ shipment: { padding: 'x'.repeat(3 * 1024 * 1024) } });
    const res = await sb.api.req('POST', '/api/v1/rates', {
      headers: { ...(await bearer()), 'content-type': 'application/json' },
      raw: huge,
    });
    expect(res.status).toBe(413);
    envelope(res, 413);
  });

  it('a body that is not JSON gets the envelope', async () => {
    const res = await sb.api.req('POST', '/api/v1/tokens/m2m', {
      headers: { 'content-type': 'text/plain' },
      raw: 'grantType=clientCredentials',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    envelope(res, res.status);
  });

  it.each([
    ['GET', '/api/v1/nothing'],
    ['GET', '/api/v2/rates'],
    ['GET', '/'],
    ['POST', '/api/v1/tenants'],
    ['DELETE', '/api/v1/rates'],
    ['GET', '/api/v1/sandbox/clock'],
  ])('unknown route %s %s is 404 in the envelope', async (method, path) => {
    envelope(await sb.api.req(method, path, { headers: await bearer() }), 404);
  });

  it('an unknown item is 404 in the envelope', async () => {
    envelope(await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts/cw-ca-none'), 404);
    envelope(await sb.api.as('solo', 'GET', '/api/v1/webhooks/wh-none', undefined, null), 404);
  });

  it('correlation ids differ per request', async () => {
    const a = envelope(await sb.api.req('GET', '/api/v1/nothing'), 404);
    const b = envelope(await sb.api.req('GET', '/api/v1/nothing'), 404);
    expect(a.correlationId).not.toBe(b.correlationId);
  });
});

describe('admin routes', () => {
  it('GET /sandbox/clock gives {now}; POST /sandbox/clock/advance moves it', async () => {
    const before = await http(sb.sandbox.url, 'GET', '/sandbox/clock');
    expect(before.status).toBe(200);
    expect(Object.keys(before.body)).toContain('now');
    const t0 = Date.parse(before.body.now);
    const adv = await http(sb.sandbox.url, 'POST', '/sandbox/clock/advance', {
      json: { seconds: 7200 },
    });
    expect(adv.status).toBe(200);
    const after = await http(sb.sandbox.url, 'GET', '/sandbox/clock');
    expect(Date.parse(after.body.now) - t0).toBeGreaterThanOrEqual(7200 * 1000);
    sb.api.forget();
    const bad = await http(sb.sandbox.url, 'POST', '/sandbox/clock/advance', {
      json: { seconds: 'soon' },
    });
    envelope(bad, 400);
  });

  it('faults: status with times, then DELETE clears them', async () => {
    const add = await http(sb.sandbox.url, 'POST', '/sandbox/faults', {
      json: { method: 'POST', path: '/api/v1/rates', kind: 'status', status: 503, times: 1 },
    });
    expect(add.status).toBeLessThan(300);
    const body = { shipment: shipment() };
    envelope(await sb.api.as('solo', 'POST', '/api/v1/rates', body), 503);
    expect((await sb.api.as('solo', 'POST', '/api/v1/rates', body)).status).toBe(200);
    await http(sb.sandbox.url, 'POST', '/sandbox/faults', {
      json: { method: 'GET', path: '/api/v1/carrier', kind: 'status', status: 500 },
    });
    envelope(await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts'), 500);
    envelope(await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts'), 500);
    // another method on the same path is not hit
    expect((await sb.api.as('solo', 'POST', '/api/v1/rates', body)).status).toBe(200);
    const clear = await http(sb.sandbox.url, 'DELETE', '/sandbox/faults');
    expect(clear.status).toBeLessThan(300);
    expect((await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts')).status).toBe(200);
  });

  it('faults: delay, reset and hang', async () => {
    await http(sb.sandbox.url, 'POST', '/sandbox/faults', {
      json: { method: 'GET', path: '/api/v1/tenants', kind: 'delay', delayMs: 300, times: 1 },
    });
    const began = performance.now();
    expect((await sb.api.as('solo', 'GET', '/api/v1/tenants')).status).toBe(200);
    expect(performance.now() - began).toBeGreaterThanOrEqual(290);

    await http(sb.sandbox.url, 'POST', '/sandbox/faults', {
      json: { method: 'GET', path: '/api/v1/tenants', kind: 'reset', times: 1 },
    });
    await expect(sb.api.as('solo', 'GET', '/api/v1/tenants')).rejects.toThrow();

    await http(sb.sandbox.url, 'POST', '/sandbox/faults', {
      json: { method: 'GET', path: '/api/v1/tenants', kind: 'hang' },
    });
    const hung = fetch(`${sb.sandbox.url}/api/v1/tenants`, {
      headers: await bearer(),
      signal: AbortSignal.timeout(400),
    });
    await expect(hung).rejects.toThrow();
    await http(sb.sandbox.url, 'DELETE', '/sandbox/faults');
    expect((await sb.api.as('solo', 'GET', '/api/v1/tenants')).status).toBe(200);
    const bad = await http(sb.sandbox.url, 'POST', '/sandbox/faults', {
      json: { path: '/api/v1/rates', kind: 'explode' },
    });
    envelope(bad, 400);
  });

  it('POST /sandbox/connections/{id}/status: EXPIRED stops rates for every account on it', async () => {
    const expire = await http(
      sb.sandbox.url,
      'POST',
      '/sandbox/connections/cw-conn-keel-zippy/status',
      {
        json: { authorizationStatus: 'EXPIRED' },
      },
    );
    expect(expire.status).toBe(200);
    for (const [tenant, account] of [
      ['cw-fern', 'cw-ca-fern-zippy'],
      ['cw-quill', 'cw-ca-quill-zippy'],
      ['cw-keel', 'cw-ca-keel-zippy'],
    ]) {
      const res = await sb.api.as(
        'keel',
        'POST',
        '/api/v1/rates',
        { shipment: shipment(), options: { carrierAccountIds: [account] } },
        tenant,
      );
      expect(envelope(res, 400).message).toContain('EXPIRED');
      const got = await sb.api.as(
        'keel',
        'GET',
        `/api/v1/carrierAccounts/${account}`,
        undefined,
        tenant,
      );
      expect(got.body.carrierAccountConnection.authorizationStatus).toBe('EXPIRED');
    }
    const fernLabel = await sb.api.as(
      'fern',
      'POST',
      '/api/v1/labels',
      labelRequest('cw-ca-fern-zippy', 'ZIPPY_GROUND'),
    );
    envelope(fernLabel, 400);
    await http(sb.sandbox.url, 'POST', '/sandbox/connections/cw-conn-keel-zippy/status', {
      json: { authorizationStatus: 'AUTHORIZED' },
    });
    const back = await sb.api.as('fern', 'POST', '/api/v1/rates', { shipment: shipment() });
    expect(back.status).toBe(200);
    envelope(
      await http(sb.sandbox.url, 'POST', '/sandbox/connections/cw-conn-none/status', {
        json: { authorizationStatus: 'AUTHORIZED' },
      }),
      404,
    );
    envelope(
      await http(sb.sandbox.url, 'POST', '/sandbox/connections/cw-conn-keel-zippy/status', {
        json: { authorizationStatus: 'FINE' },
      }),
      400,
    );
  });

  it('GET /sandbox/oauth/{connectionId} is a page with an Authorize button that authorizes', async () => {
    const page = await http(sb.sandbox.url, 'GET', '/sandbox/oauth/cw-conn-solo-comet');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toMatch(/<button[^>]*>\s*Authorize/i);
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)![1]!;
    const done = await http(sb.sandbox.url, 'POST', action, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: '',
    });
    expect(done.status).toBe(200);
    const account = await sb.api.as('solo', 'GET', '/api/v1/carrierAccounts/cw-ca-solo-comet');
    expect(account.body.carrierAccountConnection.authorizationStatus).toBe('AUTHORIZED');
    const rates = await sb.api.as('solo', 'POST', '/api/v1/rates', {
      shipment: shipment(),
      options: { carrierAccountIds: ['cw-ca-solo-comet'] },
    });
    expect(rates.status).toBe(200);
    expect(rates.body.shipmentRates[0].serviceLevel).toBe('COMET_EXPRESS_9');
    envelope(await http(sb.sandbox.url, 'GET', '/sandbox/oauth/cw-conn-none'), 404);
  });

  it('GET /sandbox/ledger/labels, /sandbox/webhook-deliveries and /sandbox/outbox answer lists', async () => {
    const bought = await sb.api.as(
      'solo',
      'POST',
      '/api/v1/labels',
      labelRequest('cw-ca-solo-acme', 'ACME_GROUND', { orderReference: 'CW-LEDGER' }),
    );
    expect(bought.status).toBeLessThan(300);
    const ledger = await http(sb.sandbox.url, 'GET', '/sandbox/ledger/labels');
    const entry = ledger.body.labels.find(
      (l: { orderReference: string }) => l.orderReference === 'CW-LEDGER',
    );
    for (const key of [
      'id',
      'tenantId',
      'carrierAccountId',
      'serviceLevel',
      'orderReference',
      'trackingNumber',
      'createdAt',
    ])
      expect(entry).toHaveProperty(key);
    expect(entry.trackingNumber).toBe(bought.body.trackingNumber);
    const deliveries = await http(sb.sandbox.url, 'GET', '/sandbox/webhook-deliveries');
    expect(deliveries.status).toBe(200);
    expect(Array.isArray(deliveries.body.deliveries)).toBe(true);
    const outbox = await http(sb.sandbox.url, 'GET', '/sandbox/outbox');
    expect(outbox.status).toBe(200);
    expect(Array.isArray(outbox.body.emails)).toBe(true);
  });
});
