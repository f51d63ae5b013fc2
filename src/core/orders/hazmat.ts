import type { OrderItem } from './types.js';

/** Classes without a packing group: gases (2.x), infectious substances (6.2), radioactive (7). */
export function needsPackingGroup(hazardClass: string | undefined): boolean {
  return !/^(2(\.\d)?|6\.2|7)$/.test((hazardClass ?? '').trim());
}

/**
 * The fields a hazmat item lacks before it can be shipped, as [platform field, words] (empty
 * when it has them all, or is no hazmat item). Pack refuses the order on them; the import says
 * them first.
 */
export function missingHazmatFields(item: Pick<OrderItem, 'hazmat'>): [string, string][] {
  const h = item.hazmat;
  if (!h) return [];
  const missing: [string, string][] = [];
  if (!h.unNumber) missing.push(['hazmatUnNumber', 'UN number']);
  if (!h.hazardClass) missing.push(['hazmatTransportationRegulatoryClass', 'hazard class']);
  if (!h.packingGroup && needsPackingGroup(h.hazardClass))
    missing.push(['hazmatPackingGroup', 'packing group']);
  if (!h.properShippingName) missing.push(['hazmatProperShippingName', 'proper shipping name']);
  return missing;
}
