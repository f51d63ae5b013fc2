import type { Address, OrderItem, ShipmentOptions, StoredOrder } from '../orders/types.js';
import { missingHazmatFields } from '../orders/hazmat.js';
import type { PlatformItem } from './platform-port.js';
import type { Failure } from './types.js';

/**
 * What the station checks before it asks for rates (issue 15): an international shipment needs
 * customs data for every item and an incoterm; a hazmat item needs its UN number, class,
 * packing group and proper shipping name. Each missing field is named, with the item it
 * belongs to, so the packer (or whoever fixes the order file) knows what to add.
 */

/** Two country codes name different countries (case and spaces aside). */
export function differentCountries(a: string, b: string): boolean {
  return a.trim().toUpperCase() !== b.trim().toUpperCase();
}

/** shipTo in another country than the station's ship-from address. */
export function isInternational(shipFrom: Address, shipTo: Address): boolean {
  return differentCountries(shipFrom.countryCode, shipTo.countryCode);
}

export { needsPackingGroup } from '../orders/hazmat.js';

/** The order's item as the platform's Item: customs fields abroad, hazmat fields when flagged. */
export function platformItem(item: OrderItem, international: boolean): PlatformItem {
  const h = item.hazmat;
  return {
    sku: item.sku,
    name: item.name,
    // At home the name describes the item well enough; abroad customs need the real one.
    description: item.description ?? (international ? undefined : item.name),
    quantity: item.quantity,
    ...(item.valueCents === undefined ? {} : { value: item.valueCents / 100 }),
    ...(item.weightLbs === undefined ? {} : { weightLbs: item.weightLbs }),
    ...(item.harmonizedCode ? { harmonizedCode: item.harmonizedCode } : {}),
    ...(item.countryOfOrigin ? { countryOfOrigin: item.countryOfOrigin } : {}),
    ...(h
      ? {
          isHazmat: true,
          hazmatUnNumber: h.unNumber,
          hazmatTransportationRegulatoryClass: h.hazardClass,
          hazmatPackingGroup: h.packingGroup,
          hazmatProperShippingName: h.properShippingName,
          ...(h.packingInstruction ? { hazmatPackingInstruction: h.packingInstruction } : {}),
          ...(h.liquidVolumeOz === undefined ? {} : { hazmatLiquidVolumeOz: h.liquidVolumeOz }),
        }
      : {}),
  };
}

const CUSTOMS_FIELDS: [keyof OrderItem, string][] = [
  ['description', 'description'],
  ['valueCents', 'value'],
  ['weightLbs', 'weight'],
  ['harmonizedCode', 'harmonized code'],
  ['countryOfOrigin', 'country of origin'],
];

/** Why the order cannot be rated yet, naming every missing field; undefined when it can. */
export function customsAndHazmatProblems(
  order: StoredOrder,
  options: ShipmentOptions,
  international: boolean,
): Failure | undefined {
  const hazmat: string[] = [];
  const customs: string[] = [];
  const errors: { field: string; message: string }[] = [];
  order.packages.forEach((pkg, p) =>
    pkg.items.forEach((item, i) => {
      const at = `packages[${p}].items[${i}]`;
      const who = `${item.name} (${item.sku})`;
      {
        const missing = missingHazmatFields(item);
        if (missing.length > 0) {
          hazmat.push(`${who} has no ${missing.map(([, w]) => w).join(', ')}`);
          for (const [field, words] of missing)
            errors.push({
              field: `${at}.${field}`,
              message: `hazmat item ${who}: ${words} missing`,
            });
        }
      }
      if (international) {
        const missing = CUSTOMS_FIELDS.filter(
          ([key]) => item[key] === undefined || item[key] === '',
        );
        if (missing.length > 0) {
          customs.push(`${who}: ${missing.map(([, w]) => w).join(', ')}`);
          for (const [key, words] of missing)
            errors.push({ field: `${at}.${key}`, message: `customs for ${who}: ${words} missing` });
        }
      }
    }),
  );
  if (international && !order.packages.some((pkg) => pkg.items.length > 0)) {
    customs.push('the order lists no items to declare');
    errors.push({ field: 'packages[0].items', message: 'customs: no items to declare' });
  }
  if (international && !options.incoTerm) {
    customs.push('no incoterm (pick one, such as DAP or DDP)');
    errors.push({ field: 'options.incoTerm', message: 'customs: incoterm missing' });
  }
  if (hazmat.length === 0 && customs.length === 0) return undefined;
  const sentences: string[] = [];
  if (hazmat.length > 0)
    sentences.push(
      `Hazmat item${hazmat.length > 1 ? 's' : ''} without ${hazmat.length > 1 ? 'their' : 'its'} required fields: ${hazmat.join('; ')}.`,
    );
  if (customs.length > 0)
    sentences.push(
      `Order ${order.orderNumber} goes to ${order.shipTo.countryCode}, and customs need: ${customs.join('; ')}.`,
    );
  const inFile = hazmat.length > 0 || customs.length > (options.incoTerm || !international ? 0 : 1);
  const fix = inFile
    ? 'add them to the order file and import it again'
    : 'pick the incoterm on Pack (Options, Alt+O) and buy again';
  return {
    code: hazmat.length > 0 ? 'hazmat-incomplete' : 'customs-missing',
    message: `${sentences.join(' ')} Nothing was bought; ${fix}.`,
    errors,
  };
}
