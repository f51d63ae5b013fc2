import type { SiteMigration } from '../schema.js';

/**
 * Indexes for the Orders view's Whole site list (listSiteOrders), which reads the newest changes
 * first: without them each read sorted every order of the site (about a second at 1,000,000
 * orders, five for a rare state), and the list is read again whenever a station changes
 * something. With them a read walks the newest changes until it has its 200 rows (a few ms).
 *
 * - site_orders_by_change: the newest changes first (the whole list, and a state most orders
 *   have);
 * - site_orders_by_number_ci: the start of an order number, in either case;
 * - site_orders_cancelled: the few cancelled orders, newest first;
 * - site_order_claims_in_flight: the few purchases under way.
 *
 * Indexes only: stations of schema 4 to 6 keep using the store. Building them holds writes to
 * site_orders back for as long as it takes (about 3 s per million orders); stations keep their
 * changes in their outboxes meanwhile.
 */
export const siteMigration007: SiteMigration = {
  version: 7,
  name: 'order-list-indexes',
  readersFrom: 4,
  sql: `
      CREATE INDEX site_orders_by_change
        ON site_orders (profile_id, environment, updated_at DESC, order_number);
      CREATE INDEX site_orders_by_number_ci
        ON site_orders (profile_id, environment, lower(order_number) text_pattern_ops);
      CREATE INDEX site_orders_cancelled
        ON site_orders (profile_id, environment, updated_at DESC)
        WHERE jsonb_typeof(order_json->'cancelled') = 'object';
      CREATE INDEX site_order_claims_in_flight
        ON site_order_claims (profile_id, environment) WHERE state = 'in-flight';
    `,
};
