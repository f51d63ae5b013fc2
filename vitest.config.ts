import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores on CI: forks keep native modules (better-sqlite3, usb) isolated per worker.
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
