// site.orders_list: the Orders view's Whole site list (listSiteOrders) over a site store holding
// N orders (1,000,000 in the full run), four in five of them labelled (their labels in
// site_labels), a few cancelled or being labelled: the whole list, each state, a number's start (a few thousand matches, one match,
// none). Measured on the store as site migration 6 left it, then after migration 7's indexes
// (their build time reported too): the list is read again each time a station changes
// something, so each read must stay small beside the store's other work.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { listSiteOrders, type SiteOrderListQuery } from '../src/core/site/order-list.js';
import { siteMigrations } from '../src/core/site/schema.js';
import { SiteStore } from '../src/core/site/store.js';
import { removeCluster, startPostgres, SUPERUSER_PASSWORD } from '../test/support/postgres.js';
import { report, round, summarize } from './harness.js';

const scope = { profileId: 'bench-site', environment: 'sandbox' as const };
const TENANTS = ['tnt_lumen', 'tnt_harbor', 'tnt_fern'];

const KINDS: Record<string, Partial<SiteOrderListQuery>> = {
  all: {},
  open: { state: 'open' },
  labelled: { state: 'labelled' },
  'being-labelled': { state: 'being-labelled' },
  cancelled: { state: 'cancelled' },
  prefixThousands: { query: 'gen-0012' },
  prefixOne: { query: 'GEN-00999999' },
  prefixNone: { query: 'XYZ' },
};

async function timeKinds(pool: pg.Pool, reps: number): Promise<Map<string, number[]>> {
  const byKind = new Map<string, number[]>();
  for (let i = 0; i < reps + 1; i++)
    for (const [kind, q] of Object.entries(KINDS)) {
      const t = performance.now();
      await listSiteOrders(pool, scope, { tenantIds: TENANTS, limit: 200, ...q });
      if (i > 0) byKind.set(kind, [...(byKind.get(kind) ?? []), performance.now() - t]);
    }
  return byKind;
}

export async function siteOrdersBench(orders: number): Promise<void> {
  const cluster = await startPostgres({ shared_buffers: '256MB', maintenance_work_mem: '256MB' });
  try {
    const url = await cluster.createDatabase('site_orders_bench');
    const owner = new SiteStore({
      config: { url, stationId: 'bench', stationName: 'bench' },
      password: SUPERUSER_PASSWORD,
    });
    await owner.migrate(siteMigrations.slice(0, 6));
    const pool = new pg.Pool({
      connectionString: cluster
        .url('site_orders_bench')
        .replace('postgres@', `postgres:${SUPERUSER_PASSWORD}@`),
    });
    let t = performance.now();
    // One a second going back from now, from 20 stations, three brands.
    await pool.query(
      `INSERT INTO site_orders (profile_id, environment, tenant_id, order_number, station_id,
         source, order_json, updated_at)
       SELECT $1, $2, ($3::text[])[1 + g % 3], 'GEN-' || lpad(g::text, 8, '0'), 'gen-' || (g % 20),
              'file:wave.csv',
              jsonb_build_object(
                'shipTo', jsonb_build_object('name', 'Customer ' || g, 'address1', g || ' Main St',
                  'city', 'Boston', 'postalCode', '02110', 'country', 'US'),
                'packages', jsonb_build_array(jsonb_build_object('weightLbs', 1.5, 'box', 'BOX-M')),
                'items', jsonb_build_array(jsonb_build_object('sku', 'CNDL-FIG-12', 'quantity', 2)))
              || CASE WHEN g % 1000 = 7 THEN
                   '{"cancelled": {"by": "Cy", "reason": "customer called", "at": "2026-11-29T00:00:00Z"}}'::jsonb
                 ELSE '{}'::jsonb END,
              now() - g * interval '1 second'
         FROM generate_series(1, $4::int) g`,
      [scope.profileId, scope.environment, TENANTS, orders],
    );
    await pool.query(
      `INSERT INTO site_order_claims (profile_id, environment, tenant_id, order_number,
         station_id, station_name, purchase_id, packer, state)
       SELECT profile_id, environment, tenant_id, order_number, station_id, station_id,
              'p-' || order_number, 'packer', CASE WHEN g % 2000 = 3 THEN 'in-flight' ELSE 'purchased' END
         FROM (SELECT *, substr(order_number, 5)::int AS g FROM site_orders) o
        WHERE g % 5 <> 0 AND g % 1000 <> 7`,
    );
    // Each purchased claim's label, as its station sent it (the list reads its voided mark).
    await pool.query(
      `INSERT INTO site_labels (station_id, local_id, purchase_id, platform_label_id, profile_id,
         environment, tenant_id, order_number, order_reference, tracking_number, carrier,
         service_level, cost_cents, currency, packer, created_at)
       SELECT c.station_id, row_number() OVER (), c.purchase_id, 'lbl_' || c.order_number,
              c.profile_id, c.environment, c.tenant_id, c.order_number, c.order_number,
              '9400' || substr(c.order_number, 5), 'UPS', 'UPS_GROUND', 950, 'USD', c.packer,
              c.claimed_at
         FROM site_order_claims c WHERE c.state = 'purchased'`,
    );
    await pool.query('VACUUM ANALYZE');
    const fillS = (performance.now() - t) / 1000;

    const before = await timeKinds(pool, 3);
    t = performance.now();
    await owner.migrate();
    const indexS = (performance.now() - t) / 1000;
    await pool.query('ANALYZE');
    const after = await timeKinds(pool, 30);
    const all = [...after.values()].flat();
    const s = summarize(all);
    const p95Of = (m: Map<string, number[]>) =>
      Object.fromEntries([...m].map(([k, v]) => [k, round(summarize(v).p95, 1)]));
    report({
      name: 'site.orders_list_p95',
      value: s.p95,
      unit: 'ms',
      p50: s.p50,
      max: s.max,
      ordersInStore: orders,
      byKindP95: p95Of(after),
      atSchema6P95: p95Of(before),
      fillSeconds: round(fillS, 1),
    });
    report({
      name: 'site.orders_index_build',
      value: round(indexS, 2),
      unit: 's',
      ordersInStore: orders,
      what: "site migration 7's four indexes on a store at schema 6 (writes to site_orders wait meanwhile)",
    });
    await pool.end();
    await owner.close();
  } finally {
    removeCluster(cluster);
  }
}
