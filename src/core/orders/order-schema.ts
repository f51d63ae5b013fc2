import { z } from 'zod';
import type { Address, IncomingOrder, ImportProblem } from './types.js';
import { zodIssueWords } from '../../shared/zod-words.js';

const text = (max: number) =>
  z.string().trim().min(1, 'is empty').max(max, `is longer than ${max}`);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `is longer than ${max}`)
    .optional()
    .transform((v) => (v === '' ? undefined : v));
/**
 * A number as a JSON file may write it: WMS exports often quote theirs ("2.5", " 14 "). Text
 * that is a plain decimal is read as that number; anything else ("2,5", "heavy", "1e3") is
 * left for the number's own refusal, which quotes it.
 */
export const decimalText = (value: unknown): unknown =>
  typeof value === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : value;
/** Why a value is not a number, for the person who wrote the file: its own text when it is text. */
const notANumber =
  (what: string, example = 'digits with a decimal point, such as 2.5') =>
  (issue: { input?: unknown }) =>
    typeof issue.input === 'string'
      ? `"${issue.input}" is not ${what}: write it as ${example}`
      : `must be ${what}`;
const number = (unit?: string) =>
  z.number({ error: notANumber(unit ? `a number (${unit})` : 'a number') }).finite();
const positive = (what: string) => number(what).positive(`must be more than 0 ${what}`);
/** A number field of an order file: its number, or text that is one (decimalText). */
const fromText = <T extends z.ZodType>(schema: T) => z.preprocess(decimalText, schema);

/** A weight a scale could plausibly show for one parcel: over 0, at most 150 lb. */
export const MAX_PACKAGE_WEIGHT_LBS = 150;
export const weightLbs = positive('lb').max(
  MAX_PACKAGE_WEIGHT_LBS,
  `must be at most ${MAX_PACKAGE_WEIGHT_LBS} lb for one parcel`,
);

export const addressSchema = z.object({
  name: optionalText(100),
  company: optionalText(100),
  email: optionalText(200),
  phone: optionalText(40),
  addressLine1: text(200),
  addressLine2: optionalText(200),
  addressLine3: optionalText(200),
  city: text(100),
  stateProvince: optionalText(100),
  postalCode: text(20),
  countryCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code such as US')
    .transform((v) => v.toUpperCase()),
  isResidential: z.boolean().optional(),
}) satisfies z.ZodType<Address>;

export const hazmatSchema = z.object({
  unNumber: optionalText(10).pipe(
    z
      .string()
      .regex(/^UN\d{4}$/, 'must be UN followed by 4 digits, such as UN1223')
      .optional(),
  ),
  hazardClass: optionalText(10),
  packingGroup: optionalText(3).pipe(
    z.enum(['I', 'II', 'III'], { error: 'must be I, II or III' }).optional(),
  ),
  properShippingName: optionalText(200),
  packingInstruction: optionalText(60),
  liquidVolumeOz: fromText(positive('oz')).optional(),
});

export const itemSchema = z.object({
  sku: text(100),
  name: text(200),
  quantity: fromText(
    z
      .number({ error: notANumber('a whole number', 'digits, such as 2') })
      .int('must be a whole number')
      .positive('must be at least 1'),
  ),
  valueCents: fromText(number('cents').int().nonnegative('must not be negative')).optional(),
  /** Only ever present when the file's valueUsd is no number (a number becomes valueCents). */
  valueUsd: z.undefined({ error: notANumber('a number (dollars)') }).optional(),
  weightLbs: fromText(positive('lb')).optional(),
  barcode: optionalText(64).refine(
    (v) => v === undefined || /^[\x21-\x7e]+$/.test(v),
    'must be letters, digits or symbols without spaces',
  ),
  imageUrl: optionalText(1000).refine(
    (v) => v === undefined || /^https:\/\/[^\s]+$/.test(v),
    'must be an https:// address',
  ),
  description: optionalText(200),
  harmonizedCode: optionalText(20).pipe(
    z
      .string()
      .regex(
        /^\d{4}(\.?\d{2}){1,3}$/,
        'must be a harmonized code of 6 to 10 digits, such as 3406.00',
      )
      .optional(),
  ),
  countryOfOrigin: optionalText(2).pipe(
    z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code such as US')
      .transform((v) => v.toUpperCase())
      .optional(),
  ),
  hazmat: hazmatSchema.optional(),
});

export const DELIVERY_CONFIRMATIONS = ['SIGNATURE', 'ADULT_SIGNATURE', 'NO_SIGNATURE'] as const;
export const INCOTERMS = ['EXW', 'FCA', 'CPT', 'CIP', 'DAP', 'DPU', 'DDP', 'DDU'] as const;

const upperOptional = (max: number) =>
  optionalText(max).transform((v) =>
    v === undefined ? v : v.toUpperCase().replace(/[\s-]+/g, '_'),
  );

export const shipmentOptionsSchema = z.object({
  deliveryConfirmation: upperOptional(30).pipe(
    z
      .enum(DELIVERY_CONFIRMATIONS, {
        error: `must be one of ${DELIVERY_CONFIRMATIONS.join(', ')}`,
      })
      .optional(),
  ),
  deliveryOption: upperOptional(30).pipe(
    z.enum(['SATURDAY_DELIVERY'], { error: 'must be SATURDAY_DELIVERY' }).optional(),
  ),
  additionalHandling: z.boolean().optional(),
  customMessage1: optionalText(35),
  customMessage2: optionalText(35),
  customMessage3: optionalText(35),
  incoTerm: upperOptional(3).pipe(
    z.enum(INCOTERMS, { error: `must be one of ${INCOTERMS.join(', ')}` }).optional(),
  ),
});

export const packageSchema = z.object({
  box: optionalText(50),
  weightLbs: fromText(weightLbs).optional(),
  lengthIn: fromText(positive('in').max(120, 'must be at most 120 in')).optional(),
  widthIn: fromText(positive('in').max(120, 'must be at most 120 in')).optional(),
  heightIn: fromText(positive('in').max(120, 'must be at most 120 in')).optional(),
  items: z.array(itemSchema).default([]),
});

const serviceLevel = z
  .string()
  .trim()
  .regex(/^[A-Z0-9]+_[A-Z0-9_]+$/, 'must look like CARRIER_SERVICE, e.g. UPS_GROUND');

/** US states, DC, territories and the military "states" (AA, AE, AP), as USPS writes them. */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ ' +
    'NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP UM FM MH PW AA AE AP'
  ).split(' '),
);

/**
 * Where an order's parcel goes: a label no carrier can deliver is caught at import, by row,
 * where the order file can be put right (not at Pack, where the packer cannot): a US ZIP code
 * that is one, a US state code that exists. A state written out ("Texas") is left for the
 * platform to judge, and so is a ship-to without a name (the specification does not say which
 * fields a label needs; the sandbox asks for a name or a company, and Pack says so).
 */
export const shipToSchema = addressSchema.superRefine((a, ctx) => {
  if (a.countryCode !== 'US') return;
  // An empty one is already said ("is empty"): once is enough.
  if (a.postalCode && !/^\d{5}([- ]?\d{4})?$/.test(a.postalCode))
    ctx.addIssue({
      code: 'custom',
      path: ['postalCode'],
      message: `"${a.postalCode}" is not a US ZIP code (5 digits, or ZIP+4 such as 60607-1234)`,
    });
  const state = a.stateProvince?.toUpperCase();
  if (state && /^[A-Z]{2}$/.test(state) && !US_STATES.has(state))
    ctx.addIssue({
      code: 'custom',
      path: ['stateProvince'],
      message: `"${a.stateProvince}" is not a US state code (such as TX or IL)`,
    });
});

export const incomingOrderSchema = z.object({
  orderNumber: text(60).regex(/^[^\s]+$/, 'must not contain spaces'),
  tenantId: optionalText(100),
  shipTo: shipToSchema,
  serviceLevels: z.array(serviceLevel).optional(),
  options: shipmentOptionsSchema.optional(),
  packages: z.array(packageSchema).min(1, 'an order needs at least one package').max(50),
});

/** JSON order as written in files: value in dollars (valueUsd) is accepted beside valueCents. */
export function parseIncomingOrder(
  raw: unknown,
  row: number,
): { order: IncomingOrder } | { problems: ImportProblem[] } {
  const normalized = normalizeJsonOrder(raw);
  const result = incomingOrderSchema.safeParse(normalized);
  if (result.success) return { order: result.data };
  const orderNumber =
    typeof (raw as { orderNumber?: unknown })?.orderNumber === 'string'
      ? (raw as { orderNumber: string }).orderNumber
      : undefined;
  return {
    problems: result.error.issues.map((issue) => ({
      row,
      orderNumber,
      field: issue.path.map(String).join('.') || '(order)',
      reason: zodIssueWords(issue),
    })),
  };
}

/**
 * A US ZIP code as a spreadsheet leaves it: Excel reads 04101 as the number 4101 and saves it
 * so. No US ZIP code has fewer than 5 digits, so the zeros are put back (also for ZIP+4).
 */
export function restoreZipZeros(countryCode: unknown, postalCode: unknown): unknown {
  const zip = typeof postalCode === 'number' ? String(postalCode) : postalCode;
  if (typeof zip !== 'string' || typeof countryCode !== 'string') return postalCode;
  if (countryCode.trim().toUpperCase() !== 'US') return zip;
  const m = /^(\d{3,4})(-\d{4})?$/.exec(zip.trim());
  return m ? m[1]!.padStart(5, '0') + (m[2] ?? '') : zip;
}

function normalizeJsonOrder(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const order = { ...(raw as Record<string, unknown>) };
  const shipTo = order.shipTo as Record<string, unknown> | undefined;
  if (shipTo && typeof shipTo === 'object' && 'postalCode' in shipTo)
    order.shipTo = {
      ...shipTo,
      postalCode: restoreZipZeros(shipTo.countryCode, shipTo.postalCode),
    };
  if (!Array.isArray(order.packages)) return order;
  return {
    ...order,
    packages: order.packages.map((p: unknown) => {
      if (!p || typeof p !== 'object' || !Array.isArray((p as { items?: unknown }).items)) return p;
      return {
        ...p,
        items: (p as { items: unknown[] }).items.map((item) => {
          if (!item || typeof item !== 'object') return item;
          const { valueUsd, ...rest } = platformHazmat(namedBySku(item as Record<string, unknown>));
          const usd = decimalText(valueUsd);
          if (typeof usd === 'number' && rest.valueCents === undefined)
            return { ...rest, valueCents: Math.round(usd * 100) };
          // Not a number: left under its own name, for the item's schema to refuse as dollars.
          return valueUsd === undefined ? rest : { ...rest, valueUsd };
        }),
      };
    }),
  };
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && !v.trim());

/**
 * An item with a SKU and no name (or a name and no SKU) takes the one it has for both, as a
 * CSV row does: many shops' exports leave one of the two empty.
 */
function namedBySku(item: Record<string, unknown>): Record<string, unknown> {
  const { sku, name } = item;
  if (blank(name) && typeof sku === 'string' && !blank(sku)) return { ...item, name: sku };
  if (blank(sku) && typeof name === 'string' && !blank(name)) return { ...item, sku: name };
  return item;
}

/** An item written with the platform's own hazmat fields (isHazmat, hazmatUnNumber, …). */
function platformHazmat(item: Record<string, unknown>): Record<string, unknown> {
  if (item.isHazmat !== true || item.hazmat !== undefined) return item;
  const {
    isHazmat: _flag,
    hazmatUnNumber,
    hazmatTransportationRegulatoryClass,
    hazmatPackingGroup,
    hazmatProperShippingName,
    hazmatPackingInstruction,
    hazmatLiquidVolumeOz,
    ...rest
  } = item;
  return {
    ...rest,
    hazmat: {
      unNumber: hazmatUnNumber,
      hazardClass: hazmatTransportationRegulatoryClass,
      packingGroup: hazmatPackingGroup,
      properShippingName: hazmatProperShippingName,
      packingInstruction: hazmatPackingInstruction,
      liquidVolumeOz: hazmatLiquidVolumeOz,
    },
  };
}
