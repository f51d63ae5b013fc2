import { describe, expect, it } from 'vitest';
import { listSiteOrders, type SiteOrderListQuery } from '../../../src/core/site/order-list.js';
import { siteOrderWords } from '../../../src/core/station/features/site-orders.js';
import { siteDatabase, type SiteDatabase } from './support.js';
import { usePostgres } from '../../support/use-postgres.js';

// The Whole site order list, read straight from a store: each state, a number's start in either
// case (its LIKE characters taken literally), newest change first. A store at schema 6 (no
// indexes of the list's own, site migration 7) gives the same answers as one at 7.

const pgc = usePostgres();
const scope = { profileId: 'site-demo', environment: 'sandbox' as const };

/** Orders as stations send them, with claims as their purchases leave them, in one store. */
async function seed(site: SiteDatabase) {
  const order = (n: string, minutesAgo: number, tenant = 'tnt_lumen', cancelled = false) =>
    site.owner.pool.query(
      `INSERT INTO site_orders (profile_id, environment, tenant_id, order_number, station_id,
         source, order_json, updated_at)
       VALUES ($1, $2, $3, $4, 'st-a', 'file:wave.csv', $5, now() - $6 * interval '1 minute')`,
      [
        scope.profileId,
        scope.environment,
        tenant,
        n,
        JSON.stringify({
          shipTo: { name: `Customer ${n}`, city: 'Austin' },
          ...(cancelled
            ? { cancelled: { by: 'Cy', reason: 'customer called', at: new Date().toISOString() } }
            : {}),
        }),
        minutesAgo,
      ],
    );
  const claim = (n: string, state: 'purchased' | 'in-flight' | 'released') =>
    site.owner.pool.query(
      `INSERT INTO site_order_claims (profile_id, environment, tenant_id, order_number,
         station_id, station_name, purchase_id, packer, state)
       VALUES ($1, $2, 'tnt_lumen', $3, 'st-b', 'Station B', $4, 'bea', $5)`,
      [scope.profileId, scope.environment, n, `p-${n}`, state],
    );
  await order('ORD-1', 1);
  await order('ORD-2', 2);
  await claim('ORD-2', 'purchased');
  // Its label voided at the carrier at Station B since (site migration 6's mark).
  await site.owner.pool.query(
    `INSERT INTO site_labels (station_id, local_id, purchase_id, platform_label_id, profile_id,
       environment, tenant_id, order_number, order_reference, tracking_number, carrier,
       service_level, cost_cents, currency, packer, created_at, voided)
     VALUES ('st-b', 1, 'p-ORD-2', 'lbl_1', $1, $2, 'tnt_lumen', 'ORD-2', 'ORD-2', '1ZORD2',
       'UPS', 'UPS_GROUND', 950, 'USD', 'bea', now(), $3)`,
    [
      scope.profileId,
      scope.environment,
      JSON.stringify({ by: 'Lee', reason: 'wrong address', at: new Date().toISOString() }),
    ],
  );
  await order('ORD-3', 3);
  await claim('ORD-3', 'in-flight');
  await order('ORD-4', 4, 'tnt_lumen', true);
  // Cancelled after it was labelled: labelled (the claim comes first, as at the station).
  await order('ORD-5', 5, 'tnt_lumen', true);
  await claim('ORD-5', 'purchased');
  // A claim given up (nothing was bought): open.
  await order('ORD-6', 6);
  await claim('ORD-6', 'released');
  await order('ORD_7', 7);
  await order('ORDX7', 8);
  await order('ord-9', 9);
  // Another brand's order: not this profile's to list.
  await order('ORD-10', 10, 'tnt_elsewhere');
}

async function listed(site: SiteDatabase, q: Partial<SiteOrderListQuery>) {
  const { orders, more } = await listSiteOrders(site.owner.pool, scope, {
    tenantIds: ['tnt_lumen'],
    limit: 200,
    ...q,
  });
  return { numbers: orders.map((o) => `${o.orderNumber}:${o.state}`), more };
}

describe('the Whole site order list', () => {
  for (const schema of [6, 7]) {
    it(`lists each state, a number's start and the newest first (store at schema ${schema})`, async () => {
      const site = await siteDatabase(pgc.cluster, { schema });
      try {
        await seed(site);
        expect((await listed(site, {})).numbers).toEqual([
          'ORD-1:open',
          'ORD-2:labelled',
          'ORD-3:being-labelled',
          'ORD-4:cancelled',
          'ORD-5:labelled',
          'ORD-6:open',
          'ORD_7:open',
          'ORDX7:open',
          'ord-9:open',
        ]);
        expect((await listed(site, { state: 'open' })).numbers).toEqual([
          'ORD-1:open',
          'ORD-6:open',
          'ORD_7:open',
          'ORDX7:open',
          'ord-9:open',
        ]);
        expect((await listed(site, { state: 'labelled' })).numbers).toEqual([
          'ORD-2:labelled',
          'ORD-5:labelled',
        ]);
        expect((await listed(site, { state: 'being-labelled' })).numbers).toEqual([
          'ORD-3:being-labelled',
        ]);
        expect((await listed(site, { state: 'cancelled' })).numbers).toEqual(['ORD-4:cancelled']);
        // The voided label is said on its order's row, as at the station that bought it.
        const { orders } = await listSiteOrders(site.owner.pool, scope, {
          tenantIds: ['tnt_lumen'],
          limit: 200,
          state: 'labelled',
        });
        expect(orders.map((o) => [o.orderNumber, o.claim?.voided?.reason ?? null])).toEqual([
          ['ORD-2', 'wrong address'],
          ['ORD-5', null],
        ]);
        expect(siteOrderWords(orders[0]!)).toMatch(
          /^Labelled at Station B by bea, .+; its label was voided at the carrier \(wrong address\): buy another at Pack \(scan it, then Ctrl\+Shift\+A\)$/,
        );
        expect(siteOrderWords(orders[1]!)).toMatch(/^Labelled at Station B by bea, [^;]+$/);
        // A restore's re-sent history touches the claims: a label's time stays its own.
        await site.owner.pool.query(
          `UPDATE site_order_claims SET updated_at = now() + interval '3 hours'`,
        );
        await site.owner.pool.query(
          `UPDATE site_labels SET created_at = '2026-11-20T10:05:00Z' WHERE local_id = 1`,
        );
        const restored = await listSiteOrders(site.owner.pool, scope, {
          tenantIds: ['tnt_lumen'],
          limit: 200,
          query: 'ORD-2',
        });
        expect(restored.orders[0]!.claim?.at).toBe('2026-11-20T10:05:00.000Z');
        // A number's start in either case; "_" and "%" are characters, not wildcards.
        expect((await listed(site, { query: 'ord-' })).numbers).toEqual([
          'ORD-1:open',
          'ORD-2:labelled',
          'ORD-3:being-labelled',
          'ORD-4:cancelled',
          'ORD-5:labelled',
          'ORD-6:open',
          'ord-9:open',
        ]);
        expect((await listed(site, { query: 'ORD_' })).numbers).toEqual(['ORD_7:open']);
        expect((await listed(site, { query: 'ORD%' })).numbers).toEqual([]);
        expect((await listed(site, { query: 'ord-', state: 'open' })).numbers).toEqual([
          'ORD-1:open',
          'ORD-6:open',
          'ord-9:open',
        ]);
        // More than asked for: said, the newest kept.
        expect(await listed(site, { limit: 2 })).toEqual({
          numbers: ['ORD-1:open', 'ORD-2:labelled'],
          more: true,
        });
      } finally {
        await site.owner.close();
      }
    });
  }
});
