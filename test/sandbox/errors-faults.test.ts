import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, expectEnvelope, labelBody, rateBody } from './helpers.js';

const sbx = useSandbox();

describe('error envelope', () => {
  it('answers unknown routes and wrong methods with ROUTE_NOT_FOUND', async () => {
    expectEnvelope(await call(sbx.url, 'GET', '/api/v1/nothing'), 404, 'ROUTE_NOT_FOUND');
    expectEnvelope(await call(sbx.url, 'PATCH', '/api/v1/rates'), 404, 'ROUTE_NOT_FOUND');
    expectEnvelope(await call(sbx.url, 'GET', '/'), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers malformed JSON, wrong media types and non-object bodies with the envelope', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    for (const raw of ['{"shipment":', 'nul', '{"a":1}}']) {
      const env = expectEnvelope(
        await call(sbx.url, 'POST', '/api/v1/rates', { headers, raw }),
        400,
        'MALFORMED_JSON',
      );
      expect(env.message).not.toMatch(/Unexpected token|position/);
    }
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', {
        headers: { ...headers, 'content-type': 'text/plain' },
        raw: 'hello',
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    for (const raw of ['[]', '"text"', '42']) {
      expectEnvelope(
        await call(sbx.url, 'POST', '/api/v1/rates', { headers, raw }),
        400,
        'VALIDATION_ERROR',
      );
    }
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/tokens/m2m', {
        raw: '{oops',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'MALFORMED_JSON',
    );
  });

  it('answers a body over 1 MiB with 413', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const big = JSON.stringify({ ...rateBody(), padding: 'x'.repeat(1024 * 1024) });
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', { headers, raw: big }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('sends a distinct x-correlation-id on every response, successes included', async () => {
    const a = await call(sbx.url, 'GET', '/sandbox/clock');
    const b = await call(sbx.url, 'GET', '/sandbox/clock');
    expect(a.headers.get('x-correlation-id')).toMatch(/^cor_/);
    expect(a.headers.get('x-correlation-id')).not.toBe(b.headers.get('x-correlation-id'));
  });
});

describe('faults', () => {
  it('returns an injected status in the envelope, a limited number of times, by method and prefix', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    sbx.fault({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 503, times: 2 });
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', { headers, body: rateBody() }),
      503,
      'INTERNAL_ERROR',
    );
    // Another method on the same path is untouched and does not consume the fault.
    expect((await call(sbx.url, 'GET', '/api/v1/tenants', { headers })).status).toBe(200);
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/rates', { headers, body: rateBody() }),
      503,
      'INTERNAL_ERROR',
    );
    expect(
      (await call(sbx.url, 'POST', '/api/v1/rates', { headers, body: rateBody() })).status,
    ).toBe(200);
  });

  it('delays, then proceeds normally', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    sbx.fault({ method: 'POST', path: '/api/v1/rates', kind: 'delay', delayMs: 300, times: 1 });
    const started = performance.now();
    const res = await call(sbx.url, 'POST', '/api/v1/rates', { headers, body: rateBody() });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('resets the connection', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    sbx.fault({ method: 'POST', path: '/api/v1/labels', kind: 'reset', times: 1 });
    await expect(
      fetch(`${sbx.url}/api/v1/labels`, {
        method: 'POST',
        headers,
        body: JSON.stringify(labelBody('ca_lumen_ups', 'UPS_GROUND')),
      }),
    ).rejects.toThrow();
    expect(sbx.sandbox.ledger()).toHaveLength(0);
  });

  it('can lose the answer after the work is done (after: true): the label is bought', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    sbx.fault({ method: 'POST', path: '/api/v1/labels', kind: 'reset', times: 1, after: true });
    await expect(
      fetch(`${sbx.url}/api/v1/labels`, {
        method: 'POST',
        headers,
        body: JSON.stringify(labelBody('ca_lumen_ups', 'UPS_GROUND')),
      }),
    ).rejects.toThrow();
    expect(sbx.sandbox.ledger()).toHaveLength(1);
  });

  it('can answer a 500 after the work is done (after: true, kind status)', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    const before = sbx.sandbox.ledger().length;
    sbx.fault({
      method: 'POST',
      path: '/api/v1/labels',
      kind: 'status',
      status: 502,
      times: 1,
      after: true,
    });
    expectEnvelope(
      await call(sbx.url, 'POST', '/api/v1/labels', {
        headers,
        body: labelBody('ca_lumen_ups', 'UPS_GROUND'),
      }),
      502,
      'INTERNAL_ERROR',
    );
    expect(sbx.sandbox.ledger()).toHaveLength(before + 1);
    const next = await call(sbx.url, 'POST', '/api/v1/labels', {
      headers,
      body: labelBody('ca_lumen_ups', 'UPS_GROUND'),
    });
    expect(next.status).toBe(201);
  });

  it('hangs until the client gives up; clearing faults restores service', async () => {
    const headers = await sbx.headers('demo-lumen-full');
    await call(sbx.url, 'POST', '/sandbox/faults', {
      body: { method: 'GET', path: '/api/v1/tenants', kind: 'hang' },
    });
    const started = performance.now();
    await expect(
      fetch(`${sbx.url}/api/v1/tenants`, { headers, signal: AbortSignal.timeout(400) }),
    ).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    const cleared = await call(sbx.url, 'DELETE', '/sandbox/faults');
    expect(cleared.status).toBe(204);
    expect((await call(sbx.url, 'GET', '/api/v1/tenants', { headers })).status).toBe(200);
  });

  it('validates a fault and never faults the /sandbox routes', async () => {
    expectEnvelope(
      await call(sbx.url, 'POST', '/sandbox/faults', { body: { path: 'api', kind: 'explode' } }),
      400,
      'VALIDATION_ERROR',
    );
    sbx.fault({ path: '/', kind: 'status', status: 500 });
    expect((await call(sbx.url, 'GET', '/sandbox/clock')).status).toBe(200);
    expectEnvelope(await call(sbx.url, 'GET', '/api/v1/tenants'), 500, 'INTERNAL_ERROR');
    sbx.clearFaults();
  });
});

describe('close', () => {
  it('releases a hung socket and leaves nothing running', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const own = await startSandbox({ port: 0 });
    own.faults.add({ path: '/api/v1', kind: 'hang' });
    const url = new URL(`${own.url}/api/v1/tenants`);
    const outcome = new Promise<string>((resolve) => {
      const req = httpRequest(url, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (error) => resolve(`closed: ${error.message}`));
      req.end();
    });
    await new Promise((r) => setTimeout(r, 100));
    await own.close();
    expect(await outcome).toMatch(/^closed/);
    await expect(fetch(`${own.url}/sandbox/clock`)).rejects.toThrow();
  });
});

describe('clock', () => {
  it('reads and advances the sandbox clock', async () => {
    const before = Date.parse((await call(sbx.url, 'GET', '/sandbox/clock')).body.now);
    const res = await call(sbx.url, 'POST', '/sandbox/clock/advance', {
      body: { seconds: 86_400 },
    });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now) - before).toBeGreaterThanOrEqual(86_400_000);
    expect(Date.parse(res.body.now) - before).toBeLessThan(86_400_000 + 5_000);
    expectEnvelope(
      await call(sbx.url, 'POST', '/sandbox/clock/advance', { body: { seconds: -5 } }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await call(sbx.url, 'POST', '/sandbox/clock/advance', { body: { seconds: '10' } }),
      400,
      'VALIDATION_ERROR',
    );
  });
});
