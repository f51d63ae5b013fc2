import { z } from 'zod';
import { ApiError, type FieldError, validationError } from './errors.js';
import { type Address, SERVICE_LEVEL_PATTERN, addressSchema } from './fixtures.js';
import { type SandboxState, type ShippingSite } from './state.js';
import { shipmentExtrasRules } from './rates/shipment-extras.js';

const requestAddress = addressSchema.loose();

const itemSchema = z.looseObject({
  countryOfOrigin: z.string().optional(),
  description: z.string().optional(),
  harmonizedCode: z.string().optional(),
  name: z.string().optional(),
  sku: z.string().optional(),
  quantity: z.number().nonnegative().optional(),
  value: z.number().nonnegative().optional(),
  weightLbs: z.number().nonnegative().optional(),
  isHazmat: z.boolean().optional(),
  hazmatLiquidVolumeOz: z.number().nonnegative().optional(),
  hazmatUnNumber: z
    .string()
    .regex(/^UN\d+$/, 'must be UN followed by digits')
    .optional(),
});

export const packageSchema = z.looseObject({
  externalPackageId: z.string().optional(),
  heightIn: z.number().positive().optional(),
  lengthIn: z.number().positive().optional(),
  widthIn: z.number().positive().optional(),
  dimWeight: z.number().nonnegative().optional(),
  weightLbs: z.number().positive().max(150),
  type: z.string().optional(),
  predefinedPackage: z.string().optional(),
  items: z.array(itemSchema).optional(),
  contentsType: z.string().optional(),
  contentsTypeExplanation: z.string().optional(),
  options: z.looseObject({}).optional(),
  isHazmat: z.boolean().optional(),
});

export const shipmentSchema = z.looseObject({
  shipTo: requestAddress,
  // Optional: the tenant's only site (or the one named by shippingSiteId) fills it in.
  shipFrom: requestAddress.default({}),
  packages: z.array(packageSchema).min(1).max(50),
  orderReference: z.string().optional(),
  returnType: z.string().optional(),
  options: z.looseObject({}).optional(),
  externalOrderId: z.string().optional(),
  cartOrderId: z.string().optional(),
  wmsIntegrationId: z.string().optional(),
  orderSource: z.string().optional(),
  batchId: z.string().optional(),
});
export type ShipmentInput = z.infer<typeof shipmentSchema>;

export const rateOptionsSchema = z.looseObject({
  serviceLevels: z
    .array(z.string().regex(SERVICE_LEVEL_PATTERN, 'must have the form <CARRIER>_<SERVICE>'))
    .optional(),
  timeInTransit: z.string().optional(),
  carrierAccountIds: z.array(z.string().min(1)).optional(),
});

export interface ResolvedOrigin {
  site: ShippingSite | undefined;
  shipFrom: Address;
}

/**
 * Where the shipment leaves from: `shipment.shipFrom.siteId` (or a top-level `shippingSiteId`),
 * a site of the tenant or one of its ancestors (a 3PL's warehouse ships for its brands).
 * Required when more than one site is available; the site's address fills what the request
 * leaves out — except on a return (`returnType`), where shipFrom is the customer: the site only
 * names the account, and its company, suite or phone must not end up in the customer's address.
 */
export function resolveOrigin(
  state: SandboxState,
  tenantId: string,
  shipFrom: Address,
  aliasSiteId: string | undefined,
  returnShipment = false,
): ResolvedOrigin {
  const fill = (site: { address: Address }): Address =>
    returnShipment ? shipFrom : { ...site.address, ...shipFrom };
  const lineage = state.lineage(tenantId);
  const siteId = shipFrom.siteId ?? aliasSiteId;
  const field = 'shipment.shipFrom.siteId';
  if (siteId) {
    const site = state.sites.get(siteId);
    if (!site || !lineage.includes(site.tenantId)) {
      throw new ApiError(404, 'NOT_FOUND', `Shipping site "${siteId}" was not found`, [
        { field, message: 'unknown shipping site', code: 'not_found' },
      ]);
    }
    return { site, shipFrom: { ...fill(site), siteId } };
  }
  const available = lineage.flatMap((t) => state.sitesByTenant.get(t) ?? []);
  if (available.length > 1) {
    throw validationError([
      {
        field,
        message: `is required: the tenant has ${available.length} shipping sites`,
        code: 'required',
      },
    ]);
  }
  const only = available[0];
  if (only) return { site: only, shipFrom: { ...fill(only), siteId: only.id } };
  return { site: undefined, shipFrom };
}

/** A raw shipment marked as a return (`returnType` given). */
const isReturnRaw = (shipment: object): boolean =>
  typeof (shipment as { returnType?: unknown }).returnType === 'string';

/** Address fields the sandbox needs: postal code and country to rate, a full address to label. */
export function requireAddressFields(
  field: string,
  address: Address,
  keys: readonly (keyof Address)[],
): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of keys) {
    const value = address[key];
    if (typeof value !== 'string' || value.trim() === '')
      errors.push({ field: `${field}.${key}`, message: 'is required', code: 'required' });
  }
  return errors;
}

/**
 * The address rules of a rate or label request, checked on the raw body so they are reported
 * together with the schema's problems: `shipTo` needs `keys` (and a name or company when
 * `needName`), and so does `shipFrom` once the tenant's site has filled it in. A problem with
 * the site itself (an unknown site) is left for the request to report on its own.
 */
export function addressRules(
  state: SandboxState,
  tenantId: string,
  raw: Record<string, unknown>,
  keys: readonly (keyof Address)[],
  needName: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const shipment = raw.shipment;
  if (shipment === null || typeof shipment !== 'object' || Array.isArray(shipment)) return errors;
  const { shipTo, shipFrom } = shipment as Record<string, unknown>;
  const isObject = (v: unknown): v is Address =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(shipTo)) {
    errors.push(...requireAddressFields('shipment.shipTo', shipTo, keys));
    if (needName && !shipTo.name && !shipTo.company)
      errors.push({
        field: 'shipment.shipTo.name',
        message: 'is required (or company)',
        code: 'required',
      });
  }
  if (shipFrom === undefined || isObject(shipFrom)) {
    const alias = typeof raw.shippingSiteId === 'string' ? raw.shippingSiteId : undefined;
    const from = shipFrom ?? {};
    const siteId = typeof from.siteId === 'string' ? from.siteId : undefined;
    try {
      const origin = resolveOrigin(
        state,
        tenantId,
        { ...from, siteId },
        alias,
        isReturnRaw(shipment),
      );
      errors.push(...requireAddressFields('shipment.shipFrom', origin.shipFrom, keys));
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 400) errors.push(...error.errors);
    }
  }
  return errors;
}

/**
 * Options, hazmat and customs rules of a raw rate or label body (shipment-extras.ts), with
 * "international" judged against the resolved origin: shipTo in another country than shipFrom.
 */
export function extrasRules(
  state: SandboxState,
  tenantId: string,
  raw: Record<string, unknown>,
): FieldError[] {
  return shipmentExtrasRules(raw, internationalRaw(state, tenantId, raw));
}

function internationalRaw(
  state: SandboxState,
  tenantId: string,
  raw: Record<string, unknown>,
): boolean {
  const shipment = raw.shipment;
  if (shipment === null || typeof shipment !== 'object' || Array.isArray(shipment)) return false;
  const { shipTo, shipFrom } = shipment as Record<string, unknown>;
  const to = (shipTo as Address | undefined)?.countryCode;
  if (typeof to !== 'string') return false;
  try {
    const from = (shipFrom ?? {}) as Address;
    const alias = typeof raw.shippingSiteId === 'string' ? raw.shippingSiteId : undefined;
    const siteId = typeof from.siteId === 'string' ? from.siteId : undefined;
    const origin = resolveOrigin(
      state,
      tenantId,
      { ...from, siteId },
      alias,
      isReturnRaw(shipment),
    );
    return isInternational(origin.shipFrom, { countryCode: to } as Address);
  } catch {
    return false;
  }
}

/** shipTo in another country than shipFrom (a country missing on either side: domestic). */
export function isInternational(shipFrom: Address, shipTo: Address): boolean {
  const from = shipFrom.countryCode?.trim().toUpperCase();
  const to = shipTo.countryCode?.trim().toUpperCase();
  return Boolean(from && to && from !== to);
}
