import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectingWhileWaiting } from '../../../src/core/platform/idle-collect.js';

/** A platform that takes 100 ms to answer, on a real socket. */
const server = createServer((_req, res) => {
  setTimeout(() => res.end('{"ok":true}'), 100);
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function youngFullness(): number {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!;
  return young.space_used_size / (young.space_used_size + young.space_available_size);
}

/** The young-generation collections (scavenges) V8 reports, by start time. */
function watchScavenges() {
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { kind } = (entry as unknown as { detail: { kind: number } }).detail;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) starts.push(entry.startTime);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { starts, stop: () => observer.disconnect() };
}

describe('collecting while the platform answers (issue 16.1)', () => {
  it('a request that waits collects a young generation more than half full during the wait', async () => {
    const fetch = collectingWhileWaiting(globalThis.fetch);
    await (await fetch(url)).text(); // the HTTP client's own first-use allocations
    const scavenges = watchScavenges();
    const kept: object[] = [];
    while (youngFullness() < 0.6) kept.push({ n: kept.length, text: `item ${kept.length}` });
    const started = performance.now();
    const answer = await (await fetch(url)).text();
    const ended = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the observer's entries arrive
    scavenges.stop();
    expect(answer).toBe('{"ok":true}');
    expect(kept.length).toBeGreaterThan(0);
    // The collection ran while nothing else did: after the request went out, before its answer.
    expect(scavenges.starts.filter((t) => t > started && t < ended)).toHaveLength(1);
  });
});
