import type { Migration } from './index.js';

/**
 * Owned by core (issue 15): what an order asks for beyond addresses and weights, and return
 * labels.
 * - orders.options: the order's shipment options as JSON (ShipmentOptions: signature, Saturday
 *   delivery, additional handling, custom messages, incoterm); NULL when it asks for none.
 * - order_items.details: customs and hazmat data of an item as JSON (description, harmonized
 *   code, country of origin, hazmat); NULL for a plain domestic item.
 * - shipments.return_of_label_id / labels.return_of_label_id: a return label's original label
 *   (labels.id), so History links the two.
 */
export const migration005: Migration = {
  version: 5,
  name: 'order-details',
  up(db) {
    db.exec(`
      ALTER TABLE orders ADD COLUMN options TEXT;
      ALTER TABLE order_items ADD COLUMN details TEXT;
      ALTER TABLE shipments ADD COLUMN return_of_label_id INTEGER REFERENCES labels (id);
      ALTER TABLE labels ADD COLUMN return_of_label_id INTEGER REFERENCES labels (id);
      CREATE INDEX labels_by_return_of ON labels (return_of_label_id) WHERE return_of_label_id IS NOT NULL;
    `);
  },
};
