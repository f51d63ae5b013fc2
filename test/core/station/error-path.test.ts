// Issue 11 point 2: one error path, from a real failure to the contract's code and message.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PlatformClient } from '../../../src/core/platform/index.js';
import { NetworkPrinter } from '../../../src/core/printing/drivers/network.js';
import { SiteStore } from '../../../src/core/site/store.js';
import { toStationError } from '../../../src/core/station/errors.js';
import type { StationError } from '../../../src/shared/result.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { clientFor, lumenShipment } from '../platform/support.js';
import { closedPort } from '../../support/ports.js';

const servers: Server[] = [];
const sockets = new Set<Socket>();
/** A TCP server that does `onSocket` with every connection it accepts. */
async function tcpServer(onSocket: (s: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** A client for the demo brand at `baseUrl`: one attempt, a short per-request deadline. */
function clientAt(baseUrl: string, timeoutMs = 300): PlatformClient {
  return new PlatformClient({
    baseUrl,
    clientId: DEMO.directBrand.clientId,
    tenantId: DEMO.directBrand.tenantId,
    environment: 'embedded-sandbox',
    getSecret: () => 'not-used-before-a-connection',
    proactiveTokenRefresh: false,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    timeoutMs,
    labelTimeoutMs: timeoutMs,
  });
}

/** What the contract says for the error `work` rejects with (fails the test if it resolves). */
async function contractError(work: () => Promise<unknown>): Promise<StationError> {
  const error = await work().then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  return toStationError(error);
}

describe('a platform that gives no answer', () => {
  const clients: PlatformClient[] = [];
  const at = (url: string, timeoutMs?: number) => {
    const c = clientAt(url, timeoutMs);
    clients.push(c);
    return c;
  };
  afterEach(() => clients.splice(0).forEach((c) => c.close()));

  it('refused connection (a closed port): platform-unreachable, naming the host and the cause', async () => {
    const port = await closedPort();
    const e = await contractError(() => at(`http://127.0.0.1:${port}`).listTenants());
    expect(e.code).toBe('platform-unreachable');
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(e.message).toMatch(/could not be reached .*ECONNREFUSED/);
  });

  it('connection reset (a server that destroys the socket): platform-unreachable', async () => {
    const port = await tcpServer((s) => s.destroy());
    const e = await contractError(() => at(`http://127.0.0.1:${port}`).listTenants());
    expect(e.code).toBe('platform-unreachable');
    expect(e.message).toMatch(/could not be reached .*(connection reset|other side closed)/);
  });

  it('timeout (a server that never answers): platform-unreachable, saying how long it waited', async () => {
    const port = await tcpServer(() => {});
    const e = await contractError(() => at(`http://127.0.0.1:${port}`, 200).listTenants());
    expect(e.code).toBe('platform-unreachable');
    expect(e.message).toMatch(/could not be reached .*no answer within 200 ms/);
  });
});

describe('a platform that answers with an error (the sandbox’s fault injection)', () => {
  const sb = useSandbox();
  afterEach(() => sb.clearFaults());

  it('4xx: the platform refused it, with its reasons and its correlationId', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    sb.fault({ method: 'POST', path: '/api/v1/rates', kind: 'status', status: 422, times: 1 });
    const e = await contractError(() => client.getRates({ shipment: lumenShipment() }));
    expect(e.code).toBe('platform-rejected');
    const cid = (e.details as { correlationId?: string }).correlationId;
    expect(cid).toMatch(/\w/);
    expect(e.message).toMatch(/^The platform refused the rate request/);
    expect(e.message).toContain(`(ref ${cid})`);
    client.close();
  });

  it('401, 403 and 404 each have their own code', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    const codes: string[] = [];
    for (const status of [403, 404]) {
      sb.fault({ method: 'GET', path: '/api/v1/tenants', kind: 'status', status, times: 1 });
      codes.push((await contractError(() => client.listTenants())).code);
    }
    expect(codes).toEqual(['tenant-forbidden', 'not-found']);
    const wrongSecret = clientFor(sb, DEMO.directBrand, { getSecret: () => 'wrong' }).client;
    const auth = await contractError(() => wrongSecret.listTenants());
    expect(auth.code).toBe('auth-failed');
    expect(auth.message).toContain(DEMO.directBrand.clientId);
    wrongSecret.close();
    client.close();
  });

  it('5xx: platform-unreachable ("try again"), quoting the correlationId', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    sb.fault({ method: 'GET', path: '/api/v1/tenants', kind: 'status', status: 503, times: 1 });
    const e = await contractError(() => client.listTenants());
    expect(e.code).toBe('platform-unreachable');
    expect(e.message).toMatch(/HTTP 503\); try again/);
    const cid = (e.details as { correlationId?: string; status?: number }).correlationId;
    expect(cid).toMatch(/\w/);
    expect(e.message).toContain(`(ref ${cid})`);
    expect(e.details).toMatchObject({ status: 503 });
    client.close();
  });

  it('429: the platform is busy, said in words a packer reads, with its reference', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    sb.fault({ method: 'GET', path: '/api/v1/tenants', kind: 'status', status: 429, times: 1 });
    const e = await contractError(() => client.listTenants());
    expect(e.code).toBe('platform-unreachable');
    expect(e.message).toMatch(
      /^The platform is busy and asked the station to slow down \(too many requests, HTTP 429\) for .*: wait a moment and try again \(ref \S+\)/,
    );
    client.close();
  });

  it('5xx on a label purchase: purchase-outcome-unknown (it may have been bought)', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    const rates = await client.getRates({ shipment: lumenShipment('ORD-500') });
    const rate = rates.shipmentRates[0]!;
    sb.fault({ method: 'POST', path: '/api/v1/labels', kind: 'status', status: 502, times: 1 });
    const e = await contractError(() =>
      client.purchaseLabel({
        carrierAccountId: rate.carrierAccount.id,
        serviceLevel: rate.serviceLevel!,
        shipment: lumenShipment('ORD-500'),
        orderReference: 'ORD-500',
      }),
    );
    expect(e.code).toBe('purchase-outcome-unknown');
    expect(e.message).toMatch(/Do not buy again/);
    client.close();
  });

  it('a reset on a label purchase after the platform sold it: purchase-outcome-unknown', async () => {
    const { client } = clientFor(sb, DEMO.directBrand, { retry: { attempts: 1 } });
    const rates = await client.getRates({ shipment: lumenShipment('ORD-RST') });
    const rate = rates.shipmentRates[0]!;
    sb.fault({ method: 'POST', path: '/api/v1/labels', kind: 'reset', after: true, times: 1 });
    const e = await contractError(() =>
      client.purchaseLabel({
        carrierAccountId: rate.carrierAccount.id,
        serviceLevel: rate.serviceLevel!,
        shipment: lumenShipment('ORD-RST'),
        orderReference: 'ORD-RST',
      }),
    );
    expect(e.code).toBe('purchase-outcome-unknown');
    expect(e.message).toMatch(/connection reset/);
    client.close();
  });
});

describe('a refused connection that is not the platform’s', () => {
  it('a network printer on a closed port is printer-offline, and says so about the printer', async () => {
    const port = await closedPort();
    const printer = new NetworkPrinter(
      { id: 'p1', name: 'ZD421 dock 2', kind: 'network', host: '127.0.0.1', port, role: 'label' },
      { connectTimeoutMs: 500 },
    );
    const e = await contractError(() => printer.send(Buffer.from('^XA^FDx^FS^XZ', 'latin1')));
    expect(e.code).toBe('printer-offline');
    expect(e.message).toMatch(/^Printer .*ZD421 dock 2.* is not answering/);
    expect(e.message).not.toMatch(/platform/i);
  });

  it('a site store on a closed port is site-store-unreachable, never platform-unreachable', async () => {
    const port = await closedPort();
    const store = new SiteStore({
      config: {
        url: `postgres://station@127.0.0.1:${port}/shipping_site`,
        stationId: 'st-1',
        stationName: 'Station 1',
      },
      password: 'x',
      connectTimeoutMs: 500,
    });
    try {
      const e = await contractError(() => store.schemaVersion());
      expect(e.code).toBe('site-store-unreachable');
      expect(e.message).toMatch(/^The site store at .* does not answer \(connection refused\)/);
    } finally {
      await store.close();
    }
  });

  it('a bare system error from no known module is internal, not a guess about the platform', () => {
    const bare = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    expect(toStationError(bare)).toEqual({
      code: 'internal',
      message: 'connect ECONNREFUSED 127.0.0.1:9',
    });
  });
});
