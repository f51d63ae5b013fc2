/**
 * The sandbox's price model: deterministic, generic over any `<CARRIER>_<SERVICE>` code, so a
 * test can bring its own carriers. A price depends on carrier, service tier, billable weight,
 * postal-code zones and the residential flag, and on nothing else.
 */

import { INTERNATIONAL_EXTRA_DAYS, INTERNATIONAL_FACTOR } from './shipment-extras.js';

export type ServiceTier =
  'overnight' | 'express' | 'twoDay' | 'threeDay' | 'priority' | 'economy' | 'ground';

const KNOWN_NAMES: Record<string, string> = {
  UPS_GROUND: 'UPS Ground',
  UPS_2ND_DAY_AIR: 'UPS 2nd Day Air',
  UPS_NEXT_DAY_AIR: 'UPS Next Day Air',
  FEDEX_GROUND: 'FedEx Ground',
  FEDEX_2_DAY: 'FedEx 2Day',
  FEDEX_PRIORITY_OVERNIGHT: 'FedEx Priority Overnight',
  USPS_FIRST_CLASS: 'USPS First-Class Mail',
  USPS_PRIORITY: 'USPS Priority Mail',
  USPS_GROUND_ADVANTAGE: 'USPS Ground Advantage',
  DHL_EXPRESS_12: 'DHL Express 12:00',
  DHL_PARCEL_GROUND: 'DHL Parcel Ground',
};

const TIERS: Record<ServiceTier, { base: number; perLb: number }> = {
  overnight: { base: 28.4, perLb: 3.1 },
  express: { base: 24.2, perLb: 2.6 },
  twoDay: { base: 16.3, perLb: 1.8 },
  threeDay: { base: 13.1, perLb: 1.3 },
  priority: { base: 8.55, perLb: 0.92 },
  economy: { base: 4.25, perLb: 0.55 },
  ground: { base: 7.8, perLb: 0.74 },
};

const CARRIER_FACTORS: Record<string, number> = { UPS: 1.04, FEDEX: 1.02, USPS: 0.92, DHL: 1.08 };

/** Dimensional-weight divisor (cubic inches per pound). */
export const DIM_DIVISOR = 139;

/** A small stable hash (FNV-1a) so unknown carriers and postal codes still price the same way. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function carrierOf(serviceLevel: string): string {
  const i = serviceLevel.indexOf('_');
  return i < 0 ? serviceLevel : serviceLevel.slice(0, i);
}

export function tierOf(serviceLevel: string): ServiceTier {
  const service = serviceLevel.slice(serviceLevel.indexOf('_') + 1);
  if (/OVERNIGHT|NEXT_DAY|SAME_DAY/.test(service)) return 'overnight';
  if (/EXPRESS/.test(service)) return 'express';
  if (/(^|_)(2_DAY|2ND_DAY|TWO_DAY)/.test(service)) return 'twoDay';
  if (/(^|_)(3_DAY|3RD_DAY|THREE_DAY)/.test(service)) return 'threeDay';
  if (/PRIORITY/.test(service)) return 'priority';
  if (/FIRST_CLASS|ECONOMY|LIBRARY|MEDIA/.test(service)) return 'economy';
  return 'ground';
}

function titleCase(word: string): string {
  return /^\d/.test(word) ? word : word.charAt(0) + word.slice(1).toLowerCase();
}

export function serviceLevelName(serviceLevel: string): string {
  const known = KNOWN_NAMES[serviceLevel];
  if (known) return known;
  const carrier = carrierOf(serviceLevel);
  const service = serviceLevel.slice(carrier.length + 1);
  return `${carrier} ${service.split('_').map(titleCase).join(' ')}`;
}

/** The service levels a new carrier account gets when the request names none. */
export function defaultServiceLevels(carrier: string): string[] {
  const known = Object.keys(KNOWN_NAMES).filter((level) => carrierOf(level) === carrier);
  return known.length > 0 ? known : [`${carrier}_GROUND`];
}

/** A postal code as priced: trimmed and upper case, spaces removed. */
function postal(code: string | undefined): string {
  return (code ?? '').replace(/\s+/g, '').toUpperCase();
}

/** Zone 2 (near) to 8 (far) from the first digit of each postal code. */
export function zoneBetween(fromPostal: string | undefined, toPostal: string | undefined): number {
  const digit = (postal: string | undefined): number => {
    const text = (postal ?? '').trim();
    const d = text.charCodeAt(0) - 48;
    return d >= 0 && d <= 9 ? d : stableHash(text) % 10;
  };
  return 2 + Math.min(6, Math.abs(digit(fromPostal) - digit(toPostal)));
}

export interface PackageMeasure {
  weightLbs: number;
  lengthIn?: number | undefined;
  widthIn?: number | undefined;
  heightIn?: number | undefined;
  dimWeight?: number | undefined;
}

/** Max of actual and dimensional weight, rounded up to whole pounds (minimum 1). */
export function billableWeight(pkg: PackageMeasure): number {
  const dims =
    pkg.lengthIn && pkg.widthIn && pkg.heightIn
      ? (pkg.lengthIn * pkg.widthIn * pkg.heightIn) / DIM_DIVISOR
      : 0;
  // A dimWeight the request states counts like the one computed from the dimensions.
  const stated = pkg.dimWeight ?? 0;
  return Math.max(1, Math.ceil(Math.max(pkg.weightLbs, dims, stated) - 1e-9));
}

export interface PriceInput {
  serviceLevel: string;
  packages: PackageMeasure[];
  fromPostal: string | undefined;
  toPostal: string | undefined;
  residential: boolean;
  /** Another country than the origin's: INTERNATIONAL_FACTOR on the price, longer transit. */
  international?: boolean | undefined;
  /** Per package, in dollars: options, hazmat, customs clearance (shipment-extras.ts). */
  surcharges?: readonly number[] | undefined;
}

/**
 * What a price was computed from, as one string: a rate quote holds it, and a label honours the
 * quote only for the shipment that was rated (same billable weights, postal codes, residential
 * flag, destination country side and surcharges).
 */
export function priceKey(input: PriceInput): string {
  return JSON.stringify([
    input.serviceLevel,
    input.packages.map(billableWeight),
    input.fromPostal ?? null,
    input.toPostal ?? null,
    input.residential,
    input.international === true,
    input.surcharges ?? [],
  ]);
}

export interface Price {
  amount: number;
  transitDays: number;
  billableWeightLbs: number;
  zone: number;
}

function transitDaysFor(tier: ServiceTier, zone: number): number {
  switch (tier) {
    case 'overnight':
      return 1;
    case 'express':
      return zone <= 5 ? 1 : 2;
    case 'twoDay':
      return 2;
    case 'threeDay':
      return 3;
    case 'priority':
      return zone <= 4 ? 1 : zone <= 6 ? 2 : 3;
    case 'economy':
      return Math.min(5, 2 + Math.floor(((zone - 2) * 3) / 6));
    case 'ground':
      return 1 + Math.floor(((zone - 2) * 4) / 6);
    default: {
      const never: never = tier;
      return never;
    }
  }
}

export function price(input: PriceInput): Price {
  const carrier = carrierOf(input.serviceLevel);
  const tier = tierOf(input.serviceLevel);
  const { base, perLb } = TIERS[tier];
  // Each service level has its own small factor (0 to 2.4 %, below any gap between tiers), so
  // two services of one tier still price differently.
  const factor =
    (CARRIER_FACTORS[carrier] ?? 0.95 + (stableHash(carrier) % 20) / 100) *
    (1 + (stableHash(input.serviceLevel) % 25) / 1000);
  const zone = zoneBetween(input.fromPostal, input.toPostal);
  // Within a zone, each pair of postal codes has its own small delivery-area factor (0 to
  // 4.8 %, below one zone step), so every postal code counts and nearer zones stay cheaper.
  const areaFactor =
    1 + (stableHash(`${postal(input.fromPostal)}>${postal(input.toPostal)}`) % 49) / 1000;
  const zoneFactor = (1 + (zone - 2) * 0.09) * areaFactor;
  // Every carrier charges for a residential stop (USPS least), so the flag always counts.
  const residentialFee = !input.residential
    ? 0
    : carrier === 'USPS'
      ? 0.45
      : tier === 'overnight' || tier === 'express'
        ? 3.95
        : 1.1;
  let total = 0;
  let billable = 0;
  const international = input.international === true;
  input.packages.forEach((pkg, i) => {
    const lbs = billableWeight(pkg);
    billable += lbs;
    const carriage = (base + perLb * (lbs - 1)) * factor * zoneFactor;
    total +=
      (international ? carriage * INTERNATIONAL_FACTOR : carriage) +
      residentialFee +
      (input.surcharges?.[i] ?? 0);
  });
  return {
    amount: Math.round(total * 100) / 100,
    transitDays: transitDaysFor(tier, zone) + (international ? INTERNATIONAL_EXTRA_DAYS : 0),
    billableWeightLbs: billable,
    zone,
  };
}
