import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, onTestFinished } from 'vitest';

const made = new Set<string>();

function remove(dir: string): void {
  made.delete(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

// Whatever a file made outside a test (in a describe body or a beforeAll) goes when its tests are
// done. A hook registered by `afterEach` from inside a running test never runs, which left a
// directory behind for every test that asked for one.
afterAll(() => {
  for (const dir of [...made]) remove(dir);
});

/** A fresh directory under the OS temp dir, removed when the test that asked for it finishes. */
export function tempDir(prefix = 'station-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  if (expect.getState().currentTestName !== undefined) onTestFinished(() => remove(dir));
  return dir;
}
