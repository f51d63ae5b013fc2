import type { Migration } from './index.js';

/** Owned by core (issue 3): orders, shipments, purchases, labels, reprint audit, offline queue, profiles cache. */
export const migration001: Migration = {
  version: 1,
  name: 'station',
  up() {
    // filled in by its owning module
  },
};
