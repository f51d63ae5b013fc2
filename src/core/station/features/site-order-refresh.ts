import type { IncomingOrder, StoredOrder } from '../../orders/types.js';
import type { StationContext } from '../context.js';
import { pullSiteOrders } from './site-link.js';
import { SITE_REFRESH_MS, within } from './scan-site.js';

/**
 * The site's newest version of an order with no label here, taken before it is shown or bought:
 * a copy fetched from the store is asked for again (pullSiteOrders), and so is an order this
 * station imported itself, since a corrected file may have been imported at another station
 * (the store keeps the version sent last). That station's version is taken here as a copy of its
 * import (source "site:…", not sent back); the station's own version still waiting in its
 * outbox is newer than the store's and is kept. Waits at most SITE_REFRESH_MS: a store slow to
 * answer leaves the order as it is here, and its late answer is dropped. True when a newer
 * version came in.
 */
export async function takeSiteVersion(ctx: StationContext, order: StoredOrder): Promise<boolean> {
  const link = ctx.site;
  const rt = ctx.runtimeOrNull();
  if (!link || !rt) return false;
  let late = false;
  const stillWanted = () => !late;
  const work = order.source.startsWith('site:')
    ? pullSiteOrders(ctx, order.orderNumber, stillWanted).then((p) => p.pulled)
    : (async () => {
        const found = await link.findOrders(rt.scope, order.orderNumber, [order.tenantId]);
        if (!stillWanted()) return false;
        const row = found.orders.find(
          (r) => r.tenantId === order.tenantId && r.stationId !== link.config.stationId,
        );
        if (!row || row.stationId === undefined || sendingOwnVersion(ctx, order.id)) return false;
        const outcome = rt.orders.upsert(
          rt.scope,
          row.tenantId,
          row.order as IncomingOrder,
          `site:${row.source}`,
        );
        if (outcome !== 'updated' && outcome !== 'updated-cancelled') return false;
        ctx.log(
          `order ${order.orderNumber}: took the version imported at ${row.stationName ?? row.stationId} (${row.source}) from the site store`,
        );
        return true;
      })();
  const fresh = await within(work, SITE_REFRESH_MS, false);
  late = true;
  return fresh;
}

/** This station's own change of the order has not reached the store yet (it is the newer one). */
function sendingOwnVersion(ctx: StationContext, orderId: number): boolean {
  const outbox = ctx.site?.outbox;
  if (!outbox) return false;
  return (
    outbox.db
      .prepare<[string], { one: number }>(
        `SELECT 1 AS one FROM site_outbox WHERE entity = 'order' AND local_key = ? LIMIT 1`,
      )
      .get(String(orderId)) !== undefined
  );
}
