import { join } from 'node:path';
import type { StartSandbox } from '../core/station/index.js';

/**
 * The embedded sandbox for the first-run demo profile. src/core may not import src/sandbox,
 * so the host hands the station this function. Loaded lazily: a station with a real profile
 * never loads the sandbox at all.
 */
export function embeddedSandbox(root: string): StartSandbox {
  return async () => {
    const spec = '../sandbox/index.js';
    const mod = (await import(/* @vite-ignore */ spec)) as {
      startSandbox?: (options: Record<string, unknown>) => Promise<unknown>;
    };
    if (typeof mod.startSandbox !== 'function')
      throw new Error('the sandbox module has no startSandbox()');
    void join(root, 'resources', 'fixtures', 'demo-world.json');
    throw new Error('embedded sandbox adapter not wired yet');
  };
}
