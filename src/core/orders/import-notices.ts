import { missingHazmatFields } from './hazmat.js';
import type { IncomingOrder } from './types.js';

// What an imported order still lacks before Pack can ship it, said at import (ImportReport's
// notices): not problems of the file's reading, but what Pack would refuse.

/**
 * What an order to another country lacks for its customs declaration (every item's description,
 * value, weight, harmonized code and country of origin, as Pack checks them), in words; null
 * when nothing, or when it stays in the country. The incoterm is the packer's to pick at Pack.
 */
export function customsGaps(
  order: IncomingOrder,
  shipFromCountry: string | undefined,
): string | null {
  const country = (c: string) => c.trim().toUpperCase();
  if (!shipFromCountry || country(shipFromCountry) === country(order.shipTo.countryCode))
    return null;
  const words: [keyof IncomingOrder['packages'][number]['items'][number], string][] = [
    ['description', 'description'],
    ['valueCents', 'value'],
    ['weightLbs', 'weight'],
    ['harmonizedCode', 'harmonized code'],
    ['countryOfOrigin', 'country of origin'],
  ];
  const gaps = order.packages.flatMap((p) =>
    p.items.flatMap((item) => {
      const missing = words.filter(([k]) => item[k] === undefined || item[k] === '');
      return missing.length ? [`${item.sku}: ${missing.map(([, w]) => w).join(', ')}`] : [];
    }),
  );
  if (gaps.length === 0) return null;
  return `imported, but it goes to ${order.shipTo.countryCode} and its customs declaration lacks ${gaps.join('; ')}: Pack will refuse it until the file gives them (import it again with them)`;
}

/**
 * What the order's hazmat items lack (UN number, hazard class, packing group, proper shipping
 * name), in words; null when nothing. Pack refuses the order until the file gives them.
 */
export function hazmatGaps(order: IncomingOrder): string | null {
  const gaps = order.packages.flatMap((p) =>
    p.items.flatMap((item) => {
      const missing = missingHazmatFields(item);
      return missing.length ? [`${item.sku}: ${missing.map(([, w]) => w).join(', ')}`] : [];
    }),
  );
  if (gaps.length === 0) return null;
  return `imported, but its hazmat declaration lacks ${gaps.join('; ')}: Pack will refuse it until the file gives them (import it again with them)`;
}

/** What Pack would refuse the order for (its customs, its hazmat items), per notice field. */
export function packGaps(
  order: IncomingOrder,
  shipFromCountry: string | undefined,
): [field: string, reason: string][] {
  const customs = customsGaps(order, shipFromCountry);
  const hazmat = hazmatGaps(order);
  return [
    ...(customs ? [['(customs)', customs] as [string, string]] : []),
    ...(hazmat ? [['(hazmat)', hazmat] as [string, string]] : []),
  ];
}

/**
 * An order limited to service levels (its file's service_levels) none of which its brand's
 * carrier accounts offer, as the platform last listed them: imported, and said, since Pack would
 * find no rate for it. Null when one is offered, when the order names none, or when the accounts
 * are not known yet (`offered` null).
 */
export function serviceLevelGap(
  order: Pick<IncomingOrder, 'serviceLevels'>,
  offered: ReadonlySet<string> | null,
): string | null {
  const asked = order.serviceLevels ?? [];
  if (asked.length === 0 || !offered || offered.size === 0) return null;
  if (asked.some((l) => offered.has(l))) return null;
  const some = [...offered].sort().slice(0, 8);
  return `imported, but it may only ship ${asked.join(', ')}, which no carrier account of its brand offers (they offer ${some.join(', ')}${offered.size > some.length ? ', …' : ''}, as the platform last listed them): Pack will find no rate for it until the file or the brand's carrier accounts change`;
}

/**
 * An order of a 3PL's brand whose number another brand's order has at the station (in this file
 * or imported before), in words; null when none has. A scan of the number cannot tell the two
 * apart, so the person importing hears it now, with how they are packed. `placeOf` says where
 * in this file the other brand's order came from ("row 2"), if it did.
 */
export function sharedNumberNotice(
  orderNumber: string,
  others: readonly string[],
  nameOf: (tenantId: string) => string,
  placeOf: (tenantId: string) => string | undefined,
): string | null {
  if (others.length === 0) return null;
  const named = others.map((t) => {
    const place = placeOf(t);
    return `${nameOf(t)} (${place ? `${place} of this file` : 'imported before'})`;
  });
  return `${orderNumber} is also the number of an order of ${named.join(' and of ')}: a scan of ${orderNumber} on Pack cannot tell them apart, so open each from Orders (Alt+8), on its brand's row`;
}

/**
 * A row whose tenant the profile does not ship for. Most often the file is right and the profile
 * is not: a 3PL profile created without ticking the brand (nothing in the file puts that right).
 */
export function otherTenant(tenantId: string, allowed: readonly string[]): string {
  return `tenant ${tenantId} is not one this profile ships for (it ships for ${allowed.join(', ')}). If it is a brand this station packs for, the profile must list it: Settings → New profile, tick it under "Brands this station ships for" (or brandTenants in a provisioning file); otherwise the row names the wrong tenant.`;
}
