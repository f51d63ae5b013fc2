// sandbox_rates: the sandbox must never dominate the station's figures. One keep-alive
// connection through node:http, so the figure is the sandbox's and not fetch's.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../src/sandbox/index.js';
import { report, summarize } from './harness.js';
import { lumenToken } from './world.js';

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  agent: Agent,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function sandboxRatesBench(requests: number): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const token = await lumenToken(sandbox.url);
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-tenant-id': 'tnt_lumen',
    };
    const body = JSON.stringify({
      shipment: {
        shipTo: {
          name: 'Ann Rivera',
          addressLine1: '500 E 6th St',
          city: 'Austin',
          stateProvince: 'TX',
          postalCode: '78701',
          countryCode: 'US',
          isResidential: true,
        },
        shipFrom: { siteId: 'site_lumen_chicago' },
        packages: [{ weightLbs: 3, lengthIn: 12, widthIn: 9, heightIn: 6 }],
      },
    });
    const url = new URL(`${sandbox.url}/api/v1/rates`);
    for (let i = 0; i < 50; i++) {
      const status = await post(url, body, headers, agent);
      if (status !== 200) throw new Error(`rates answered ${status}`);
    }
    const samples: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      await post(url, body, headers, agent);
      samples.push(performance.now() - t);
    }
    const s = summarize(samples);
    report({
      name: 'sandbox.rates_p50',
      value: s.p50,
      unit: 'ms',
      requests,
      target: { op: '<=', value: 5 },
    });
    report({ name: 'sandbox.rates_p95', value: s.p95, unit: 'ms', requests });
  } finally {
    agent.destroy();
    await sandbox.close();
  }
}
