import type { Migration } from './index.js';

/**
 * Owned by the orders (src/core/orders/order-repository.ts): when a new version of an order last
 * changed what its shipment is made of (its ship-to, its packages' weights, boxes or sizes) and
 * which of them, so a purchase at rates asked before that is refused, while a version that changes
 * only items or options (and a weight the packer typed over the file's) leaves the rates standing.
 * NULL: not changed since it was first imported (or not since this migration).
 */
export const migration023: Migration = {
  version: 23,
  name: 'order-shipping-changes',
  up(db) {
    db.exec(`
      ALTER TABLE orders ADD COLUMN shipping_changed_at TEXT;
      ALTER TABLE orders ADD COLUMN shipping_changed TEXT;
    `);
  },
};
