import type { Migration } from './index.js';

/**
 * Owned by the labels (src/core/labels/voids.ts): a label a shift lead voided at the carrier's
 * portal or the platform's console (the Shipping Platform API shows no void), marked here so the
 * end of day leaves it out of the day's labels and cost and off the manifest, and a reprint of it
 * is refused. One row per voided label, with who, why and when; taking the mark back deletes it.
 */
export const migration021: Migration = {
  version: 21,
  name: 'label-voids',
  up(db) {
    db.exec(`
      CREATE TABLE label_voids (
        label_id INTEGER PRIMARY KEY REFERENCES labels (id) ON DELETE CASCADE,
        voided_by TEXT NOT NULL,
        reason TEXT NOT NULL,
        voided_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
