import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';

describe('latency setting', () => {
  it('adds the configured latency to /api/v1 responses only', async () => {
    const slow = await startSandbox({ port: 0, latencyMs: 120 });
    try {
      // The configured delay is a floor the API cannot beat; the admin routes do not wait for it.
      let t = performance.now();
      await fetch(`${slow.url}/api/v1/tenants`);
      const apiMs = performance.now() - t;
      t = performance.now();
      await fetch(`${slow.url}/sandbox/clock`);
      const adminMs = performance.now() - t;
      expect(apiMs).toBeGreaterThanOrEqual(115);
      expect(adminMs).toBeLessThan(apiMs);
    } finally {
      await slow.close();
    }
  });
});
