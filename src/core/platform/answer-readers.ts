import type { Label, RatesResponse } from './schemas.js';

/**
 * The rates and label answers' happy path without zod, as `readTrackerPage` for the tracker
 * list: both come once per scan, on the packer's path between the platform's answer and the
 * next step, where running the schemas' code cold cost more than a tenth of a millisecond.
 * Each reads exactly what its schema (RatesResponseSchema, LabelSchema) accepts and returns
 * what it would (unknown keys kept); anything else gives undefined, and the schema decides and
 * names the problem. test/core/platform/answer-readers.test.ts holds them to the same answers.
 */
export function readRates(body: unknown): RatesResponse | undefined {
  if (!isObject(body)) return undefined;
  const rates = body.shipmentRates;
  if (!Array.isArray(rates)) return undefined;
  for (const r of rates) if (!isRate(r)) return undefined;
  const errors = body.rateErrors;
  if (errors !== undefined && errors !== null) {
    if (!Array.isArray(errors)) return undefined;
    for (const e of errors) if (!isRateError(e)) return undefined;
  }
  return { ...body, shipmentRates: rates, rateErrors: errors ?? [] } as RatesResponse;
}

export function readLabel(body: unknown): Label | undefined {
  if (!isObject(body)) return undefined;
  if (!nonEmpty(body.id) || !nonEmpty(body.trackingNumber)) return undefined;
  for (const key of LABEL_STRINGS) if (!optionalString(body[key])) return undefined;
  const cost = body.cost;
  if (cost !== undefined && cost !== null) {
    if (!isObject(cost) || !optionalNumber(cost.amount) || !optionalString(cost.currency))
      return undefined;
  }
  const packages = body.packages;
  if (packages !== undefined && packages !== null) {
    if (!Array.isArray(packages)) return undefined;
    for (const p of packages)
      if (!isObject(p) || !optionalString(p.trackingNumber)) return undefined;
  }
  return body as Label;
}

const LABEL_STRINGS = [
  'trackerId',
  'carrier',
  'serviceLevel',
  'carrierAccountId',
  'orderReference',
  'rateQuoteId',
  'labelFormat',
  'labelSize',
  'labelData',
  'labelUrl',
  'mode',
  'createdAt',
] as const;
const RATE_STRINGS = [
  'rateQuoteId',
  'carrier',
  'serviceLevel',
  'serviceLevelName',
  'currency',
  'estimatedDeliveryDate',
] as const;
const RATE_NUMBERS = ['amount', 'transitDays', 'billableWeightLbs'] as const;
const RATE_ERROR_STRINGS = ['errorCode', 'authorizationStatus', 'message'] as const;

function isRate(r: unknown): boolean {
  if (!isObject(r) || !isAccountRef(r.carrierAccount)) return false;
  for (const key of RATE_STRINGS) if (!optionalString(r[key])) return false;
  for (const key of RATE_NUMBERS) if (!optionalNumber(r[key])) return false;
  return true;
}

function isRateError(e: unknown): boolean {
  if (!isObject(e)) return false;
  if (
    e.carrierAccount !== undefined &&
    e.carrierAccount !== null &&
    !isAccountRef(e.carrierAccount)
  )
    return false;
  for (const key of RATE_ERROR_STRINGS) if (!optionalString(e[key])) return false;
  return true;
}

function isAccountRef(a: unknown): boolean {
  return isObject(a) && nonEmpty(a.id) && optionalString(a.name) && optionalString(a.carrier);
}

/** The checks every hand-written reader (this file's, tracker-page.ts) makes, as zod makes them. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
export const optionalString = (v: unknown) =>
  v === undefined || v === null || typeof v === 'string';
// z.number() refuses NaN and ±Infinity, which JSON cannot carry anyway.
const optionalNumber = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'number' && Number.isFinite(v));
