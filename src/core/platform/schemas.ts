import { z } from 'zod';

/**
 * Response schemas. They are tolerant on purpose (docs/platform-choices.md): extra fields pass
 * through (`looseObject`), optional fields may be missing or null, lists may come bare or
 * wrapped. Only what the station cannot work without is required (an id, a tracking number,
 * an updatedAt), so a platform that adds fields never stops a shift.
 */

const str = z.string();
const optStr = z.string().nullish();
const optNum = z.number().nullish();
const optBool = z.boolean().nullish();

export const TokenResponseSchema = z.looseObject({
  accessToken: str.min(1),
  tokenType: optStr,
  /** Seconds; the spec says 3600 when absent from a reply. */
  expiresIn: z.number().positive().nullish(),
  refreshToken: optStr,
});
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

export interface Tenant {
  tenantId: string;
  name?: string | null;
  type?: string | null;
  parentTenantId?: string | null;
  children?: Tenant[] | null;
  [extra: string]: unknown;
}

export const TenantSchema: z.ZodType<Tenant> = z.looseObject({
  tenantId: str.min(1),
  name: optStr,
  type: optStr,
  parentTenantId: optStr,
  get children() {
    return z.array(TenantSchema).nullish();
  },
});

export const AddressSchema = z.looseObject({
  company: optStr,
  name: optStr,
  email: optStr,
  phone: optStr,
  addressLine1: optStr,
  addressLine2: optStr,
  addressLine3: optStr,
  city: optStr,
  stateProvince: optStr,
  postalCode: optStr,
  countryCode: optStr,
  isResidential: optBool,
  siteId: optStr,
});

export const ShippingSiteSchema = z.looseObject({
  id: str.min(1),
  tenantId: optStr,
  name: optStr,
  address: AddressSchema.nullish(),
  createdAt: optStr,
  updatedAt: optStr,
});
export type ShippingSite = z.infer<typeof ShippingSiteSchema>;

export const AuthorizationDetailsSchema = z.looseObject({
  type: optStr,
  status: optStr,
  oauth_url: optStr,
});

export const ConnectionSchema = z.looseObject({
  id: optStr,
  name: optStr,
  ownershipType: optStr,
  carrier: optStr,
  authorizationStatus: optStr,
  authorizationDetails: AuthorizationDetailsSchema.nullish(),
  createdAt: optStr,
  updatedAt: optStr,
});
export type CarrierAccountConnection = z.infer<typeof ConnectionSchema>;

export const CarrierAccountSchema = z.looseObject({
  id: str.min(1),
  name: optStr,
  tenantId: optStr,
  carrier: optStr,
  ownershipType: optStr,
  carrierAccountConnectionId: optStr,
  carrierAccountConnection: ConnectionSchema.nullish(),
  serviceLevels: z.array(str).nullish(),
  isActive: optBool,
  locationIds: z.array(z.unknown()).nullish(),
  allowedLocationIds: z.array(z.unknown()).nullish(),
  createdAt: optStr,
  updatedAt: optStr,
});
export type CarrierAccount = z.infer<typeof CarrierAccountSchema>;

const CarrierAccountRefSchema = z.looseObject({ id: str.min(1), name: optStr, carrier: optStr });

export const ShipmentRateSchema = z.looseObject({
  rateQuoteId: optStr,
  carrierAccount: CarrierAccountRefSchema,
  carrier: optStr,
  serviceLevel: optStr,
  serviceLevelName: optStr,
  amount: optNum,
  currency: optStr,
  transitDays: optNum,
  estimatedDeliveryDate: optStr,
  billableWeightLbs: optNum,
});
export type ShipmentRate = z.infer<typeof ShipmentRateSchema>;

export const RateErrorSchema = z.looseObject({
  carrierAccount: CarrierAccountRefSchema.nullish(),
  errorCode: optStr,
  authorizationStatus: optStr,
  message: optStr,
});
export type RateError = z.infer<typeof RateErrorSchema>;

export const RatesResponseSchema = z.looseObject({
  shipmentRates: z.array(ShipmentRateSchema),
  rateErrors: z
    .array(RateErrorSchema)
    .nullish()
    .transform((v) => v ?? []),
});
export type RatesResponse = z.infer<typeof RatesResponseSchema>;

export const LabelSchema = z.looseObject({
  id: str.min(1),
  trackingNumber: str.min(1),
  trackerId: optStr,
  carrier: optStr,
  serviceLevel: optStr,
  carrierAccountId: optStr,
  orderReference: optStr,
  rateQuoteId: optStr,
  cost: z.looseObject({ amount: optNum, currency: optStr }).nullish(),
  labelFormat: optStr,
  labelSize: optStr,
  /** Base64 ZPL, when labelOptions.inline was true. */
  labelData: optStr,
  labelUrl: optStr,
  mode: optStr,
  createdAt: optStr,
  packages: z.array(z.looseObject({ trackingNumber: optStr })).nullish(),
});
export type Label = z.infer<typeof LabelSchema>;

export const WebhookSchema = z
  .looseObject({
    id: optStr,
    webhookId: optStr,
    uri: optStr,
    email: optStr,
    registeredEvents: z.array(str).nullish(),
    isActive: optBool,
    expirationDate: optStr,
    hasSecret: optBool,
    hasCredentials: optBool,
    hasCustomHeader: optBool,
    createdAt: optStr,
    updatedAt: optStr,
  })
  // Paths name it webhookId; a response may call it id or webhookId. One of them must be there.
  .refine((w) => Boolean(w.id ?? w.webhookId), { message: 'a webhook needs an id' })
  .transform((w) => ({ ...w, id: (w.id ?? w.webhookId) as string }));
export type Webhook = z.infer<typeof WebhookSchema>;

export const TrackerEventSchema = z.looseObject({
  status: optStr,
  description: optStr,
  location: optStr,
  occurredAt: optStr,
});
export type TrackerEvent = z.infer<typeof TrackerEventSchema>;

export const TrackerSchema = z.looseObject({
  id: optStr,
  trackingNumber: str.min(1),
  carrier: optStr,
  serviceLevel: optStr,
  tenantId: optStr,
  labelId: optStr,
  orderReference: optStr,
  status: optStr,
  statusDetail: optStr,
  estimatedDeliveryDate: optStr,
  events: z.array(TrackerEventSchema).nullish(),
  createdAt: optStr,
  /** The only tracker field the spec guarantees: used for ordering. */
  updatedAt: str.refine((v) => !Number.isNaN(Date.parse(v)), { message: 'not a timestamp' }),
});
export type Tracker = z.infer<typeof TrackerSchema>;

export const WebhookEventSchema = z.looseObject({
  id: str.min(1),
  eventType: optStr,
  tenantId: optStr,
  payloadType: optStr,
  createdDate: optStr,
  payload: z.unknown(),
  deliveryStatus: optStr,
  attempts: optNum,
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export interface Page<T> {
  items: T[];
  /** Opaque; pass back as `cursor`. Null on the last page (or when the server does not page). */
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * A list that may come bare (`[...]`) or wrapped (`{ <key>: [...] }`, or the common `items` /
 * `data`), with optional paging fields beside it.
 */
export function pageOf<T extends z.ZodType>(key: string, item: T) {
  return z
    .union([
      z.array(item).transform((items) => ({ items, nextCursor: null, hasMore: false })),
      z
        .looseObject({
          [key]: z.array(item).optional(),
          items: z.array(item).optional(),
          data: z.array(item).optional(),
          nextCursor: z.union([z.string(), z.number()]).nullish(),
          hasMore: z.boolean().nullish(),
        })
        .refine((o) => Array.isArray(o[key] ?? o.items ?? o.data), {
          message: `expected a list of ${key}`,
        })
        .transform((o): Page<z.output<T>> => {
          const items = (o[key] ?? o.items ?? o.data) as z.output<T>[];
          const nextCursor = o.nextCursor == null ? null : String(o.nextCursor);
          const hasMore = typeof o.hasMore === 'boolean' ? o.hasMore : nextCursor !== null;
          return { items, nextCursor, hasMore };
        }),
    ])
    .transform((p): Page<z.output<T>> => p);
}

/**
 * A manifest (POST /api/v1/manifests): not shown in the spec. Only `id` is relied on; the rest
 * is read when present (the sandbox's shape: shippingSiteId, carrier, labelIds, labelCount,
 * trackingNumbers, alreadyManifested, createdAt).
 */
export const ManifestSchema = z.looseObject({
  id: str.min(1),
  shippingSiteId: optStr,
  carrier: optStr,
  labelCount: z.number().nullish(),
  labelIds: z.array(str).nullish(),
  createdAt: optStr,
});
export type Manifest = z.infer<typeof ManifestSchema>;
