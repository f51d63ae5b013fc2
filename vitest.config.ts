import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Forks keep native modules (better-sqlite3, usb) isolated per worker. Three of them even on
    // two cores: the tests mostly wait on sockets, timers and PostgreSQL (one fork took 9 min,
    // three take under 4).
    pool: 'forks',
    maxWorkers: 3,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
