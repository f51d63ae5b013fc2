// Run by close.test.ts in its own process: after close() the process must exit by itself at once,
// which it cannot do while any timer, socket or delivery of the sandbox is left behind.
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { startSandbox } from '../../src/sandbox/index.js';

const stuck = createServer(() => undefined); // a webhook receiver that never answers
await new Promise<void>((resolve) => stuck.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(stuck.address() as AddressInfo).port}/hook`;

const sandbox = await startSandbox({ port: 0, allowHttpWebhooks: true, latencyMs: 5 });
const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
};
const { accessToken } = await post('/api/v1/tokens/m2m', {
  grantType: 'clientCredentials',
  clientId: 'demo-lumen-full',
  clientSecret: 'demo-lumen-full-secret',
});
const headers = { authorization: `Bearer ${String(accessToken)}`, 'x-tenant-id': 'tnt_lumen' };
await post(
  '/api/v1/webhooks',
  {
    uri: receiverUrl,
    email: 'ops@example.com',
    registeredEvents: ['tracking.updated'],
    secret: 'close-secret',
  },
  headers,
);
const label = await post(
  '/api/v1/labels',
  {
    carrierAccountId: 'ca_lumen_ups',
    serviceLevel: 'UPS_GROUND',
    shipment: {
      shipTo: {
        name: 'A',
        addressLine1: '1 Main St',
        city: 'Austin',
        postalCode: '78701',
        countryCode: 'US',
      },
      shipFrom: {},
      packages: [{ weightLbs: 1 }],
    },
  },
  headers,
);
if (typeof label.trackingNumber !== 'string') throw new Error(`no label: ${JSON.stringify(label)}`);

// In flight at close: tracker plans on the clock, a delivery to the silent receiver, a request
// hung by a fault, another sleeping in a 60 s delay fault.
void sandbox.clock.advance(9 * 3600);
sandbox.faults.add({ method: 'GET', path: '/api/v1/tenants', kind: 'hang' });
sandbox.faults.add({
  method: 'GET',
  path: '/api/v1/shippingSites',
  kind: 'delay',
  delayMs: 60_000,
});
void fetch(`${sandbox.url}/api/v1/tenants`, { headers }).catch(() => undefined);
void fetch(`${sandbox.url}/api/v1/shippingSites`, { headers }).catch(() => undefined);
await new Promise((r) => setTimeout(r, 30));

await sandbox.close();
// The receiver keeps its side open: only the sandbox closing its side ends the delivery.
stuck.close();
// Loopback closes take a moment to land; allow 250 ms, well under the 500 ms a leftover delivery
// time-out would last. Only this process's stdio pipes may remain.
const deadline = Date.now() + 250;
const leftovers = () =>
  process
    .getActiveResourcesInfo()
    .filter((r) => !['PipeWrap', 'TTYWrap', 'Immediate', 'Timeout'].includes(r));
const check = () => {
  setImmediate(() => {
    if (leftovers().length > 0 && Date.now() < deadline) {
      setTimeout(check, 10);
      return;
    }
    process.stdout.write(`closed ${JSON.stringify(process.getActiveResourcesInfo())}\n`);
  });
};
setTimeout(check, 10);
