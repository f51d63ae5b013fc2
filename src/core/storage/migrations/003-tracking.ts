import type { Migration } from './index.js';

/** Owned by tracking (issue 3): trackers and carrier-account health cache. */
export const migration003: Migration = {
  version: 3,
  name: 'tracking',
  up() {
    // filled in by its owning module
  },
};
