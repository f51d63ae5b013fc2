import { describe, expect, it } from 'vitest';
import { ConnectivityMonitor } from '../../../src/core/platform/connectivity.js';

// What the header names when packing's requests fail while the platform answers others.

describe('the connectivity of packing', () => {
  it('names what failed last among what fails alone: labels failing now, not rates that failed before', () => {
    let now = 1000;
    const c = new ConnectivityMonitor(3, () => now);
    c.recordAnswer('trackers');
    for (let i = 0; i < 3; i++) c.recordFailure(500, 'HTTP 500', 'rates');
    now = 5000;
    for (let i = 0; i < 3; i++) c.recordFailure(503, 'HTTP 503', 'labels');
    now = 6000;
    c.recordAnswer('trackers');
    expect(c.failingAlone()).toEqual(['labels', 'rates']);
    // Rates fail again later: they come first.
    now = 7000;
    c.recordFailure(500, 'HTTP 500', 'rates');
    expect(c.failingAlone()).toEqual(['rates', 'labels']);
    // Rates answer: labels alone.
    c.recordAnswer('rates');
    expect(c.failingAlone()).toEqual(['labels']);
  });
});
