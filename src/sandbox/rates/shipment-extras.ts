import { type FieldError } from '../errors.js';

/**
 * What the sandbox does with a shipment's options, hazmat items and customs data (issue 15).
 * The spec names the fields (Options, Item) and shows one value of each; the sets of allowed
 * values, which fields a customs declaration needs and what they cost are the sandbox's choices
 * (docs/sandbox.md, "Options, hazmat and customs").
 */

export const DELIVERY_CONFIRMATIONS = ['SIGNATURE', 'ADULT_SIGNATURE', 'NO_SIGNATURE'] as const;
export const DELIVERY_OPTIONS = ['SATURDAY_DELIVERY'] as const;
/** Incoterms 2020, plus DDU, which carriers still print. */
export const INCOTERMS = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'DDU'] as const;
export const PACKING_GROUPS = ['I', 'II', 'III'] as const;

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
const filled = (v: unknown): boolean =>
  (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';

/** Shipment options merged with a package's own (the package's win), as priced and printed. */
export function optionsOf(shipment: Raw, pkg: Raw | undefined): Raw {
  return {
    ...(isObject(shipment.options) ? shipment.options : {}),
    ...(pkg && isObject(pkg.options) ? pkg.options : {}),
  };
}

/** Classes without a packing group: gases (2.x), infectious substances (6.2), radioactive (7). */
function needsPackingGroup(hazardClass: string): boolean {
  return !/^(2(\.\d)?|6\.2|7)$/.test(hazardClass.trim());
}

/**
 * The rules on options, hazmat and customs, on the raw body (any shape): every problem with its
 * field. `international` says whether shipTo is in another country than the resolved origin.
 */
export function shipmentExtrasRules(raw: Raw, international: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const shipment = raw.shipment;
  if (!isObject(shipment) || !Array.isArray(shipment.packages)) return errors;
  const checkOptions = (options: unknown, at: string) => {
    if (!isObject(options)) return;
    const oneOf = (key: string, allowed: readonly string[]) => {
      const v = options[key];
      if (v !== undefined && (typeof v !== 'string' || !allowed.includes(v)))
        errors.push({
          field: `${at}.${key}`,
          message: `must be one of ${allowed.join(', ')}`,
          code: 'invalid_value',
        });
    };
    oneOf('deliveryConfirmation', DELIVERY_CONFIRMATIONS);
    oneOf('deliveryOption', DELIVERY_OPTIONS);
    oneOf('incoTerm', INCOTERMS);
    if (options.additionalHandling !== undefined && typeof options.additionalHandling !== 'boolean')
      errors.push({
        field: `${at}.additionalHandling`,
        message: 'must be a boolean',
        code: 'invalid_type',
      });
    for (const key of ['customMessage1', 'customMessage2', 'customMessage3']) {
      const v = options[key];
      if (v !== undefined && (typeof v !== 'string' || v.length > 35))
        errors.push({
          field: `${at}.${key}`,
          message: 'must be text of at most 35 characters',
          code: 'too_big',
        });
    }
  };
  checkOptions(shipment.options, 'shipment.options');

  shipment.packages.forEach((pkg: unknown, p) => {
    if (!isObject(pkg)) return;
    const at = `shipment.packages[${p}]`;
    checkOptions(pkg.options, `${at}.options`);
    const items = Array.isArray(pkg.items) ? pkg.items : [];
    if (international) {
      const incoTerm = optionsOf(shipment, pkg).incoTerm;
      if (!filled(incoTerm))
        errors.push({
          field: `${at}.options.incoTerm`,
          message: 'is required for an international shipment (or shipment.options.incoTerm)',
          code: 'required',
        });
      if (items.length === 0)
        errors.push({
          field: `${at}.items`,
          message: 'an international shipment needs the customs items of every package',
          code: 'required',
        });
    }
    items.forEach((item: unknown, i) => {
      if (!isObject(item)) return;
      const itemAt = `${at}.items[${i}]`;
      if (international) {
        for (const key of [
          'description',
          'quantity',
          'value',
          'weightLbs',
          'harmonizedCode',
          'countryOfOrigin',
        ])
          if (!filled(item[key]))
            errors.push({
              field: `${itemAt}.${key}`,
              message: 'is required for an international shipment (customs)',
              code: 'required',
            });
        const hs = item.harmonizedCode;
        if (typeof hs === 'string' && hs.trim() !== '' && !/^\d{4}(\.?\d{2}){1,3}$/.test(hs.trim()))
          errors.push({
            field: `${itemAt}.harmonizedCode`,
            message: 'must be a harmonized code of 6 to 10 digits, such as 3406.00 or 6109.10.0012',
            code: 'invalid_format',
          });
        const origin = item.countryOfOrigin;
        if (typeof origin === 'string' && origin.trim() !== '' && !/^[A-Z]{2}$/.test(origin))
          errors.push({
            field: `${itemAt}.countryOfOrigin`,
            message: 'must be a 2-letter country code such as US',
            code: 'invalid_format',
          });
      }
      if (item.isHazmat === true) {
        const required = [
          'hazmatUnNumber',
          'hazmatTransportationRegulatoryClass',
          'hazmatProperShippingName',
        ];
        const hazardClass = item.hazmatTransportationRegulatoryClass;
        if (typeof hazardClass !== 'string' || needsPackingGroup(hazardClass))
          required.push('hazmatPackingGroup');
        for (const key of required)
          if (!filled(item[key]))
            errors.push({
              field: `${itemAt}.${key}`,
              message: 'is required for a hazmat item',
              code: 'required',
            });
        const group = item.hazmatPackingGroup;
        if (filled(group) && !(PACKING_GROUPS as readonly unknown[]).includes(group))
          errors.push({
            field: `${itemAt}.hazmatPackingGroup`,
            message: `must be one of ${PACKING_GROUPS.join(', ')}`,
            code: 'invalid_value',
          });
      }
    });
  });
  return errors;
}

/** True when any item of the package is hazmat, or the package says so. */
export function packageIsHazmat(pkg: Raw): boolean {
  return (
    pkg.isHazmat === true ||
    (Array.isArray(pkg.items) && pkg.items.some((i: unknown) => isObject(i) && i.isHazmat === true))
  );
}

/** Per-package surcharges, in dollars, for the options, hazmat and an international shipment. */
export function packageSurcharges(
  shipment: Raw,
  pkg: Raw,
  international: boolean,
): { amount: number; names: string[] } {
  const options = optionsOf(shipment, pkg);
  let amount = 0;
  const names: string[] = [];
  const add = (fee: number, name: string) => {
    amount += fee;
    names.push(name);
  };
  if (options.deliveryConfirmation === 'SIGNATURE') add(5.55, 'signature');
  if (options.deliveryConfirmation === 'ADULT_SIGNATURE') add(6.65, 'adult signature');
  if (options.deliveryOption === 'SATURDAY_DELIVERY') add(16, 'Saturday delivery');
  if (options.additionalHandling === true) add(14.5, 'additional handling');
  if (packageIsHazmat(pkg)) add(42, 'hazmat');
  if (international) add(12.75, 'customs clearance');
  return { amount, names };
}

/** Saturday delivery is offered on the fast tiers only (as carriers do). */
export function offersSaturday(tier: string): boolean {
  return ['overnight', 'express', 'twoDay', 'priority'].includes(tier);
}

/** International rates: the base price is multiplied and transit takes longer. */
export const INTERNATIONAL_FACTOR = 2.3;
export const INTERNATIONAL_EXTRA_DAYS = 3;
