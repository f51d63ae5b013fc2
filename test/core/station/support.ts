import { join } from 'node:path';
import {
  createStation,
  type Station,
  type StationOptions,
} from '../../../src/core/station/index.js';
import { MemorySecretVault } from '../../../src/core/profiles/secret-vault.js';
import { JsonFileSettingsStore } from '../../../src/core/profiles/settings-store.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Input, Output } from '../../../src/shared/contract.js';
import type { CallName } from '../../../src/shared/names.js';
import type { Result } from '../../../src/shared/result.js';

const root = join(import.meta.dirname, '../../..');
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** A station on the demo profile; `sandbox()` is the embedded sandbox it started last. */
export function demoStation(
  dataDir: string,
  extra: Partial<StationOptions> = {},
): { station: Station; sandbox: () => Sandbox } {
  let last: Sandbox | null = null;
  const station = createStation({
    dataDir,
    host: 'web',
    ...extra,
    settings: new JsonFileSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
    resourcesDir: join(root, 'resources'),
    startSandbox: async () => {
      const s = await startSandbox();
      last = s;
      const c = s.fixtures.apiClients.find((x) => x.clientId === 'demo-lumen-full')!;
      return {
        baseUrl: s.url,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        tenantId: c.tenantId,
        close: () => s.close(),
      };
    },
    ...extra,
  });
  return {
    station,
    sandbox: () => {
      if (!last) throw new Error('the station has not started its sandbox');
      return last;
    },
  };
}

export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** A call through the facade's dispatch, typed by the contract; throws on an error reply. */
export async function call<K extends CallName>(
  s: Station,
  name: K,
  input: Input<K>,
): Promise<Output<K>> {
  return value(await s.dispatch(name, input)) as Output<K>;
}
