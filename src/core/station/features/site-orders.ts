import { tenantsOf } from '../../profiles/profile-schema.js';
import { SiteStoreError } from '../../site/errors.js';
import type { SiteOrderListRow } from '../../site/order-list.js';
import { whenSaid } from '../../site/reads.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { siteCalls, SiteOrderView } from '../../../shared/features/site.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { brandName } from '../map.js';

// Orders, Whole site: every station's imports with where each stands, read from the site store
// (read-only here: a scan at Pack fetches any of them to pack, cancel or reopen at this station).

/** Where an order stands, in the words of the claim that refuses it elsewhere. */
export function siteOrderWords(o: SiteOrderListRow, now = new Date()): string {
  const by = o.claim?.packer ? ` by ${o.claim.packer}` : '';
  switch (o.state) {
    case 'labelled': {
      const where = `Labelled at ${o.claim?.stationName ?? 'a station'}${by}, ${whenSaid(new Date(o.claim?.at ?? o.updatedAt), now)}`;
      const voided = o.claim?.voided;
      // As the station's own Orders row says a label voided there.
      return voided
        ? `${where}; its label was voided at the carrier${voided.reason ? ` (${voided.reason})` : ''}: buy another at Pack (scan it, then Ctrl+Shift+A)`
        : where;
    }
    case 'being-labelled':
      return `Being labelled at ${o.claim?.stationName ?? 'a station'}${by} (since ${whenSaid(new Date(o.claim?.at ?? o.updatedAt), now)})`;
    case 'cancelled': {
      const c = o.cancelled;
      const why = c?.reason ? `: ${c.reason}` : '';
      return `Cancelled at ${c?.stationName ?? o.stationName} by ${c?.by ?? 'a shift lead'}${why}`;
    }
    case 'open':
      return 'Open';
    default: {
      const never: never = o.state;
      return String(never);
    }
  }
}

export function siteOrderHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof siteCalls>, 'site.orders'> {
  return {
    'site.orders': async ({ query, state, tenantId }) => {
      const r = ctx.runtime();
      const link = ctx.site;
      if (!link)
        throw new StationFailure(
          'validation',
          "This station has no site store: its Orders are this station's own.",
        );
      const brands = tenantsOf(r.profile);
      try {
        const page = await link.store.listOrders(r.scope, {
          query,
          state,
          tenantIds: tenantId ? brands.filter((t) => t === tenantId) : brands,
          limit: 200,
        });
        const now = new Date();
        return {
          more: page.more,
          orders: page.orders.map((o): SiteOrderView => ({
            orderNumber: o.orderNumber,
            tenantId: o.tenantId,
            brandName: brandName(r.profile, o.tenantId),
            shipTo: [o.shipToName, o.shipToCity].filter(Boolean).join(', '),
            stationName: o.stationName,
            here: o.stationId === link.config.stationId,
            updatedAt: o.updatedAt,
            state: o.state,
            stateText: siteOrderWords(o, now),
          })),
        };
      } catch (error) {
        if (error instanceof SiteStoreError)
          throw new StationFailure(
            'site-store-unreachable',
            `${(error.problem.fact ?? error.problem.message).replace(/\.$/, '')}: the site's orders cannot be listed now. This station's own are under This station.`,
          );
        throw error;
      }
    },
  };
}
