import type { StoredOrder } from '../../orders/types.js';
import { stripControlCharacters } from '../../orders/control-characters.js';
import type { ShipmentRepository } from '../../packing/shipment-repository.js';
import type { Profile } from '../../profiles/profile-schema.js';
import type { ParsedInput, Output } from '../../../shared/contract.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { brandName, labelView, orderView } from '../map.js';
import { pullSiteOrders } from './site.js';
import { labelledElsewhereAtScan } from './scan-site.js';
import { takeSiteVersion } from './site-order-refresh.js';
import { withVoids } from './label-voids.js';
import { verificationView } from './floor.js';

/**
 * `pack.scan`: what a scan (or a row opened from Orders, by its id) is: an order, a label, a box
 * or nothing. Translation onto PackingWorkflow's look-ups, and the site store's word on orders
 * imported at other stations.
 */
export function scanHandler(
  ctx: StationContext,
): (input: ParsedInput<'pack.scan'>) => Promise<Output<'pack.scan'>> {
  const rt = () => ctx.runtime();
  const reprintCounts = (labelIds: number[]) => rt().reprints.counts(labelIds);
  return async ({ value: scanned, orderId }) => {
    // A scanner set up to frame its codes (STX … ETX) or a stray control byte: no order number,
    // tracking number or box code holds one, so they are dropped before the look-up (a NUL
    // would otherwise be refused by the site store and said as the store's fault).
    const value = stripControlCharacters(scanned).trim();
    if (!value)
      throw new StationFailure(
        'validation',
        "The scan held nothing but control characters: check the scanner's prefix and suffix settings, then scan again.",
      );
    const elsewhereOf = (order: { tenantId: string; orderNumber: string }) =>
      labelledElsewhereAtScan(ctx, rt().scope, order);
    const r = rt();
    // Opened from Orders: that row's order, even where another brand of a 3PL has its number.
    const byId = orderId === undefined ? null : Number(orderId);
    if (byId !== null && !Number.isSafeInteger(byId))
      throw new StationFailure('not-found', `Order ${orderId} is not in this profile.`);
    const look = () => (byId === null ? r.workflow.lookup(value) : r.workflow.lookupOrder(byId));
    if (byId === null) {
      const box = ctx
        .stationSettings()
        .boxes.find((b) => b.code.toLowerCase() === value.toLowerCase());
      if (box) return { kind: 'box', box };
    }
    let found = look();
    // An order imported at another station of the site (issue 12).
    let siteNotAsked: string | null = null;
    if (found.kind === 'not-found' && byId === null) {
      const site = await pullSiteOrders(ctx, value);
      if (site.pulled) found = look();
      siteNotAsked = site.notAsked;
    } else if (found.kind === 'order' && found.labels.length === 0 && ctx.site) {
      // The site's newest version of it: a cancel or a new version made at another station
      // (a copy fetched earlier, or a corrected file imported there of an order imported here)
      // is seen at the scan, not at the buy. A store slow to answer does not hold the scan up
      // (the order here is shown), and its late answer is not applied under the packer's hands.
      if (await takeSiteVersion(ctx, found.order)) found = look();
    }
    switch (found.kind) {
      case 'order': {
        const counts = reprintCounts(found.labels.map((l) => l.id));
        const existingLabels = withVoids(
          r,
          found.labels.map((l) =>
            labelView(l, brandName(r.profile, l.tenantId), counts.get(l.id) ?? 0),
          ),
        );
        // Labelled at another station (as this station keeps the site's labels): said at the
        // scan, not after rates were asked and a buy refused. Also when every label of it here
        // was voided at the carrier: another station may have labelled it again since, and
        // "buy another" here would then be a second live label.
        const elsewhere = existingLabels.every((l) => l.voided)
          ? await elsewhereOf(found.order)
          : {};
        return {
          kind: 'order',
          order: orderView(
            found.labels.length ? asBought(r.workflow.shipments, found.order) : found.order,
            brandName(r.profile, found.order.tenantId),
            found.labels.length ? 'labelled' : 'open',
            r.profile.shipFrom.countryCode,
          ),
          existingLabels,
          verification: verificationView(r.workflow.verification.state(found.order), r.profile),
          // A label voided there too is no label: said as the void (as for one voided here).
          ...(found.labels.length && elsewhere.labelledElsewhere?.label?.voided ? {} : elsewhere),
        };
      }
      case 'label':
        return {
          kind: 'label',
          label: labelView(
            found.label,
            brandName(r.profile, found.label.tenantId),
            reprintCounts([found.label.id]).get(found.label.id) ?? 0,
          ),
        };
      case 'ambiguous':
        throw new StationFailure('conflict', sharedNumberWords(r.profile, found));
      case 'not-found':
        if (byId !== null)
          throw new StationFailure(
            'not-found',
            `Order ${value} is no longer at this station under profile ${r.profile.name}: search Orders (Alt+8) again.`,
          );
        return {
          kind: 'not-found',
          value: found.scanned,
          ...(siteNotAsked ? { siteStoreAway: siteNotAsked } : {}),
        };
      default: {
        const never: never = found;
        throw new Error(`unexpected ${JSON.stringify(never)}`);
      }
    }
  };
}

/**
 * A number two brands of a 3PL both use: which brands, by the names the packer knows, and how to
 * open the one in hand (a scan alone cannot tell them apart).
 */
export function sharedNumberWords(
  profile: Profile,
  found: { scanned: string; orders: readonly StoredOrder[] },
): string {
  const names = [...new Set(found.orders.map((o) => brandName(profile, o.tenantId) ?? o.tenantId))];
  const brands =
    names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : names[0]!;
  return `${found.orders.length} orders are numbered ${found.scanned}, one each of ${brands}: a scan cannot tell which one is in hand. Open it from Orders (Alt+8): search ${found.scanned}, go to the row of the brand on the packing slip and press Enter.`;
}

/**
 * A labelled order with the weights its newest label was bought at (not the order file's), so a
 * rescan shows what went on the parcel; unchanged when the packages do not line up.
 */
function asBought(shipments: ShipmentRepository, order: StoredOrder): StoredOrder {
  const bought = shipments
    .forOrder(order.id)
    .filter(
      (s) =>
        !s.returnOfLabelId &&
        shipments.purchasesForShipment(s.id).some((p) => p.state === 'purchased'),
    )
    .sort((a, b) => b.id - a.id)[0]?.shipment.packages;
  if (!bought || bought.length !== order.packages.length) return order;
  return {
    ...order,
    packages: order.packages.map((p, i) => ({ ...p, weightLbs: bought[i]!.weightLbs })),
  };
}
