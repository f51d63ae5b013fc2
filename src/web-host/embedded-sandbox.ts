import { join } from 'node:path';
import type { StartSandbox } from '../core/station/index.js';
import { startSandbox } from '../sandbox/index.js';

/** The demo world's API client the embedded profile uses: Lumen Candle Works, a brand. */
const DEMO_CLIENT = 'demo-lumen-full';

/**
 * The embedded sandbox for the first-run demo profile. src/core may not import src/sandbox,
 * so the host hands the station this function.
 */
export function embeddedSandbox(root: string): StartSandbox {
  return async () => {
    const sandbox = await startSandbox({
      fixtures: join(root, 'resources', 'fixtures', 'demo-world.json'),
    });
    const client =
      sandbox.fixtures.apiClients.find((c) => c.clientId === DEMO_CLIENT) ??
      sandbox.fixtures.apiClients[0];
    if (!client) throw new Error('the demo world has no API client');
    return {
      baseUrl: sandbox.url,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      tenantId: client.tenantId,
      close: () => sandbox.close(),
    };
  };
}
