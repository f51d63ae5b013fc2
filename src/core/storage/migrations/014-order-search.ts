import { orderSearchText } from '../../../shared/search-fold.js';
import type { Migration } from './index.js';

/**
 * Owned by the orders (src/core/orders/order-repository.ts): each order's text as a search
 * compares it (`orderSearchText`: the order number and the ship-to's texts, lower case, accents
 * dropped), written with the order, so "jose" finds "José" without a function call per row
 * at search time. Filled here for the orders already stored.
 */
export const migration014: Migration = {
  version: 14,
  name: 'order-search',
  up(db) {
    db.exec(`ALTER TABLE orders ADD COLUMN search_text TEXT NOT NULL DEFAULT ''`);
    // Filling the column is not a change of the orders: the site store's outbox trigger (on
    // any update of an order) must not send every order to the site again.
    const sync = db.prepare(`SELECT enabled FROM site_sync WHERE id = 1`).get() as
      { enabled: number } | undefined;
    if (sync?.enabled) db.exec(`UPDATE site_sync SET enabled = 0 WHERE id = 1`);
    const set = db.prepare(`UPDATE orders SET search_text = ? WHERE id = ?`);
    const page = db.prepare(
      `SELECT id, order_number, ship_to FROM orders WHERE id > ? ORDER BY id LIMIT 2000`,
    );
    for (let after = 0; ;) {
      const rows = page.all(after) as { id: number; order_number: string; ship_to: string }[];
      if (rows.length === 0) break;
      for (const row of rows) {
        let shipTo: unknown = null;
        try {
          shipTo = JSON.parse(row.ship_to);
        } catch {
          // A row some tool wrote by hand: found by its number alone.
        }
        const address = typeof shipTo === 'object' && shipTo !== null ? shipTo : {};
        set.run(orderSearchText(row.order_number, address), row.id);
      }
      after = rows[rows.length - 1]!.id;
    }
    if (sync?.enabled) db.exec(`UPDATE site_sync SET enabled = 1 WHERE id = 1`);
  },
};
