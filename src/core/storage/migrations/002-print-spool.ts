import type { Migration } from './index.js';

/** Owned by printing (issue 4): the durable print spool. */
export const migration002: Migration = {
  version: 2,
  name: 'print-spool',
  up() {
    // filled in by its owning module
  },
};
