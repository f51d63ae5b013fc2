import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PlatformClient } from '../../../src/core/platform/index.js';
import { rejection } from './support.js';

/**
 * A stand-in platform that answers in shapes other than the sandbox's, to prove the client is
 * tolerant (docs/platform-choices.md): bare or differently wrapped lists, extra fields, nulls,
 * missing optional fields; and that what it cannot read becomes a clear PlatformError.
 */
type Reply = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string> };
let routes: Record<string, Reply> = {};
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const reply =
      path === '/api/v1/tokens/m2m'
        ? { body: { accessToken: 'tok', expiresIn: 3600, somethingNew: true } }
        : routes[`${req.method} ${path}`];
    req.resume();
    if (!reply) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.raw ?? JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  routes = {};
});

const client = () =>
  new PlatformClient({
    baseUrl,
    clientId: 'c',
    tenantId: 't',
    environment: 'sandbox',
    getSecret: () => 's',
    proactiveTokenRefresh: false,
    retry: { attempts: 1 },
  });

describe('tolerant responses', () => {
  it('accepts a bare list, an `items` wrapper and extra fields', async () => {
    routes['GET /api/v1/carrierAccounts'] = {
      body: [{ id: 'ca_1', name: 'A', futureField: { x: 1 }, carrierAccountConnection: null }],
    };
    routes['GET /api/v1/shippingSites'] = { body: { items: [{ id: 'site_1' }], total: 1 } };
    const c = client();
    const accounts = await c.listCarrierAccounts();
    expect(accounts).toEqual([expect.objectContaining({ id: 'ca_1', futureField: { x: 1 } })]);
    expect((await c.listShippingSites()).map((s) => s.id)).toEqual(['site_1']);
  });

  it('reads a tracker page with only the fields the spec guarantees', async () => {
    routes['GET /api/v1/trackers'] = {
      body: { trackers: [{ trackingNumber: '1Z', updatedAt: '2026-11-21T10:00:00Z' }] },
    };
    const page = await client().listTrackers();
    expect(page).toEqual({
      items: [{ trackingNumber: '1Z', updatedAt: '2026-11-21T10:00:00Z' }],
      nextCursor: null,
      hasMore: false,
    });
  });

  it('defaults missing rateErrors to an empty list', async () => {
    routes['POST /api/v1/rates'] = {
      body: { shipmentRates: [{ carrierAccount: { id: 'ca_1' }, amount: 5 }] },
    };
    const rates = await client().getRates({
      shipment: { shipTo: {}, shipFrom: {}, packages: [{ weightLbs: 1 }] },
    });
    expect(rates.rateErrors).toEqual([]);
    expect(rates.shipmentRates[0]?.carrierAccount.id).toBe('ca_1');
  });

  it('a webhook may call its id webhookId', async () => {
    routes['GET /api/v1/webhooks/wh_1'] = { body: { webhookId: 'wh_1', uri: 'https://x' } };
    expect((await client().getWebhook('wh_1')).id).toBe('wh_1');
  });
});

describe('what the client cannot read', () => {
  it('a list without the list is unexpected-response, naming what is wrong', async () => {
    routes['GET /api/v1/tenants'] = { body: { tenant: 'oops' } };
    const error = await rejection(client().listTenants());
    expect(error.kind).toBe('unexpected-response');
    expect(error.message).toMatch(/cannot read/);
  });

  it('a body that is not JSON is unexpected-response', async () => {
    routes['GET /api/v1/carrierAccounts/ca_1'] = { raw: '<html>proxy error</html>' };
    const error = await rejection(client().getCarrierAccount('ca_1'));
    expect(error.kind).toBe('unexpected-response');
    expect(error.message).toMatch(/not JSON/);
  });

  it('a 201 label without a tracking number is unknown-outcome and keeps the body', async () => {
    const body = { id: 'lbl_1', cost: { amount: 9.5 } };
    routes['POST /api/v1/labels'] = {
      status: 201,
      body,
      headers: { 'x-correlation-id': 'cor_hdr' },
    };
    const error = await rejection(
      client().purchaseLabel({
        carrierAccountId: 'ca_1',
        serviceLevel: 'UPS_GROUND',
        shipment: { shipTo: {}, shipFrom: {}, packages: [{ weightLbs: 1 }] },
      }),
    );
    expect(error.kind).toBe('unknown-outcome');
    expect(error.responseBody).toEqual(body);
    expect(error.correlationId).toBe('cor_hdr');
    expect(error.message).toMatch(/trackingNumber/);
  });

  it('reads an error envelope with errors as a map and the reference from the header', async () => {
    routes['POST /api/v1/shippingSites'] = {
      status: 422,
      body: { message: 'bad', errors: { name: ['is too short'] } },
      headers: { 'x-correlation-id': 'cor_xyz' },
    };
    const error = await rejection(client().createShippingSite({ name: 'x', address: {} }));
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual([{ field: 'name', message: 'is too short', code: null }]);
    expect(error.message).toBe(
      'The platform refused the new shipping site: Name is too short (ref cor_xyz)',
    );
  });

  it('a labelUrl on another host is refused without sending the token there', async () => {
    const c = client();
    const sent: string[] = [];
    c.observe((e) => sent.push(e.path));
    const error = await rejection(c.getLabelZpl('https://elsewhere.example/api/v1/labels/l/zpl'));
    expect(error.kind).toBe('validation');
    expect(error.message).toContain('elsewhere.example');
    expect(sent).toEqual([]);
  });
});
