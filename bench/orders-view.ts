// The Orders view (issue 15.2) over a full inbox: a page of 50 with every status count, the
// first page of a search, and a filtered page (open single-item orders with a weight).
import { join } from 'node:path';
import { OrderList } from '../src/core/orders/order-list.js';
import { OrderRepository } from '../src/core/orders/order-repository.js';
import { openDatabase } from '../src/core/storage/database.js';
import type { StationScope } from '../src/core/storage/scope.js';
import { report, summarize } from './harness.js';
import { benchOrder } from './orders.js';

export function ordersViewBench(dir: string, count: number): void {
  const db = openDatabase(join(dir, 'orders-view.db'));
  try {
    const scope: StationScope = { profileId: 'bench', environment: 'sandbox' };
    const orders = new OrderRepository(db);
    for (let start = 0; start < count; start += 1000)
      orders.inTransaction(() => {
        for (let i = start; i < Math.min(count, start + 1000); i++)
          orders.upsert(scope, 'tnt_bench', benchOrder(`OV-${i}`, i), 'bench');
      });
    const list = new OrderList(db);
    const time = (name: string, run: () => unknown) => {
      const samples: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        run();
        samples.push(performance.now() - t);
      }
      const s = summarize(samples);
      report({ name: `${name}_p50`, value: s.p50, unit: 'ms', orders: count });
      report({ name: `${name}_p95`, value: s.p95, unit: 'ms', orders: count });
    };
    time('orders_view.page', () => list.page(scope, { limit: 50, offset: 0 }));
    time('orders_view.search', () => list.page(scope, { search: 'Customer 1999', limit: 50 }));
    time('orders_view.filtered', () =>
      list.page(scope, { statuses: ['open'], singleItem: true, weightKnown: true, limit: 50 }),
    );
    // With a site store: the labels other stations bought (14 days of a site, as kept for an
    // outage), a quarter of them for this inbox's orders, which the page then lists labelled.
    const put = db.prepare(
      `INSERT INTO site_labelled_elsewhere (profile_id, environment, tenant_id, order_number,
         station_id, station_name, packer, claimed_at, label_local_id, tracking_number, learnt_at)
       VALUES (?, ?, 'tnt_bench', ?, 'st-b', 'Station B', 'bea', ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < count * 2; i++)
        put.run(
          scope.profileId,
          scope.environment,
          i % 8 === 0 ? `OV-${i / 2}` : `ELSEWHERE-${i}`,
          new Date().toISOString(),
          i,
          `1ZB${i}`,
          Date.now(),
        );
    })();
    time('orders_view.page_site', () =>
      list.page(scope, { limit: 50, offset: 0, siteLabels: true }),
    );
    time('orders_view.open_site', () =>
      list.page(scope, { statuses: ['open'], limit: 50, offset: 0, siteLabels: true }),
    );
  } finally {
    db.close();
  }
}
