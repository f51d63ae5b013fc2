import { afterAll, beforeAll } from 'vitest';
import {
  type Fault,
  type FaultSpec,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from '../../src/sandbox/index.js';

/** Demo-world clients (resources/fixtures/demo-world.json). */
export const DEMO = {
  directBrand: { clientId: 'demo-lumen-full', tenantId: 'tnt_lumen', siteId: 'site_lumen_chicago' },
  directBrandReadOnly: { clientId: 'demo-lumen-readonly', tenantId: 'tnt_lumen' },
  threePl: { clientId: 'demo-harbor-full', tenantId: 'tnt_harbor' },
  threePlParent: { clientId: 'demo-nexus-full', tenantId: 'tnt_nexus' },
} as const;

export interface SandboxHandle {
  /** Base address, e.g. http://127.0.0.1:40123 (valid once beforeAll has run). */
  readonly url: string;
  /** The running sandbox (clock, faults, ledger, fixtures, close). */
  readonly sandbox: RunningSandbox;
  /** A fresh access token for a fixture client; `tenantId` asks for a descendant tenant. */
  token(clientId: string, tenantId?: string): Promise<string>;
  /** `Authorization` + `x-tenant-id` (defaults to the client's tenant) + JSON content type. */
  headers(clientId: string, tenantId?: string): Promise<Record<string, string>>;
  /** Advances the sandbox clock, running everything that falls due. */
  advance(seconds: number): Promise<Date>;
  fault(spec: FaultSpec): Fault;
  clearFaults(): void;
}

/** Starts one sandbox for the current test file (beforeAll) and closes it (afterAll). */
export function useSandbox(options: SandboxOptions = {}): SandboxHandle {
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandbox({ port: 0, ...options });
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  const sandbox = (): RunningSandbox => {
    if (!running) throw new Error('useSandbox: the sandbox is not running (use it inside tests)');
    return running;
  };
  const handle: SandboxHandle = {
    get url() {
      return sandbox().url;
    },
    get sandbox() {
      return sandbox();
    },
    async token(clientId, tenantId) {
      const client = sandbox().fixtures.apiClients.find((c) => c.clientId === clientId);
      if (!client) throw new Error(`useSandbox: no API client "${clientId}" in the fixtures`);
      const res = await fetch(`${sandbox().url}/api/v1/tokens/m2m`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grantType: 'clientCredentials',
          clientId,
          clientSecret: client.clientSecret,
          ...(tenantId ? { tenantId } : {}),
        }),
      });
      if (!res.ok)
        throw new Error(
          `useSandbox: token for ${clientId} failed: ${res.status} ${await res.text()}`,
        );
      return ((await res.json()) as { accessToken: string }).accessToken;
    },
    async headers(clientId, tenantId) {
      const client = sandbox().fixtures.apiClients.find((c) => c.clientId === clientId);
      return {
        authorization: `Bearer ${await handle.token(clientId)}`,
        'x-tenant-id': tenantId ?? client?.tenantId ?? '',
        'content-type': 'application/json',
      };
    },
    advance: (seconds) => sandbox().clock.advance(seconds),
    fault: (spec) => sandbox().faults.add(spec),
    clearFaults: () => sandbox().faults.clear(),
  };
  return handle;
}
