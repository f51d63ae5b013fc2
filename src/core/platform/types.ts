import type { z } from 'zod';
import type { PlatformCapability } from './connectivity.js';
import type { AddressSchema } from './schemas.js';
/**
 * Request shapes of the Shipping Platform API (../shared/platform-api.md part 2 and 4). Only
 * what the station sends is typed strictly; every object also accepts further fields, because
 * the spec leaves "the complete sets" open.
 */

import type { TokenStats, TokenStore } from './tokens.js';
import type { RequestObserver, RetryPolicy } from './transport.js';

/** Same values as src/core/storage/scope.ts `Environment`; each has its own identifiers. */
export type PlatformEnvironment = 'embedded-sandbox' | 'sandbox' | 'production';

/**
 * An address sent to the platform: the platform's own Address (`AddressSchema` in schemas.ts,
 * further fields accepted), with `siteId` on shipFrom (see docs/platform-choices.md: "Where
 * shippingSiteId sits").
 */
export type AddressInput = z.input<typeof AddressSchema>;

export interface ItemInput {
  countryOfOrigin?: string;
  description?: string;
  harmonizedCode?: string;
  name?: string;
  sku?: string;
  quantity?: number;
  value?: number;
  weightLbs?: number;
  isHazmat?: boolean;
  [extra: string]: unknown;
}

export interface OptionsInput {
  customMessage1?: string;
  customMessage2?: string;
  customMessage3?: string;
  deliveryConfirmation?: string;
  incoTerm?: string;
  dryIceWeight?: number;
  deliveryOption?: string;
  specialRatesEligibility?: string;
  additionalHandling?: boolean;
  payment?: { type?: string; [extra: string]: unknown };
  [extra: string]: unknown;
}

export interface PackageInput {
  externalPackageId?: string;
  heightIn?: number;
  lengthIn?: number;
  widthIn?: number;
  dimWeight?: number;
  weightLbs: number;
  type?: string;
  predefinedPackage?: string;
  items?: ItemInput[];
  contentsType?: string;
  contentsTypeExplanation?: string;
  options?: OptionsInput;
  isHazmat?: boolean;
  [extra: string]: unknown;
}

export interface ShipmentInput {
  shipTo: AddressInput;
  shipFrom: AddressInput;
  packages: PackageInput[];
  orderReference?: string;
  returnType?: string;
  options?: OptionsInput;
  [extra: string]: unknown;
}

export interface RateOptionsInput {
  serviceLevels?: string[];
  timeInTransit?: string;
  /** Omitted: every account available to the tenant is rated (not-AUTHORIZED ones land in rateErrors). */
  carrierAccountIds?: string[];
  [extra: string]: unknown;
}

export interface RateRequest {
  shipment: ShipmentInput;
  options?: RateOptionsInput;
  /** Alias of shipment.shipFrom.siteId accepted by the sandbox. */
  shippingSiteId?: string;
  [extra: string]: unknown;
}

export interface LabelRequest {
  service?: string;
  serviceLevel: string;
  carrierAccountId: string;
  orderReference?: string;
  shipment: ShipmentInput & {
    externalOrderId?: string;
    cartOrderId?: string;
    wmsIntegrationId?: string;
    orderSource?: string;
    batchId?: string;
  };
  rateQuoteId?: string;
  rateOptions?: RateOptionsInput;
  labelOptions?: { type?: string; size?: string; inline?: boolean; [extra: string]: unknown };
  mode?: string;
  shippingSiteId?: string;
  [extra: string]: unknown;
}

export interface ShippingSiteInput {
  name: string;
  address: AddressInput;
  [extra: string]: unknown;
}

export interface ConnectionInput {
  name: string;
  ownershipType: 'BRAND' | 'PARTNER';
  connectionDetails: { carrier: string; accountNumber: string; [extra: string]: unknown };
}

export type CarrierAccountInput = {
  name: string;
  ownerTenantId?: string;
  serviceLevels?: string[];
  [extra: string]: unknown;
} & (
  | { carrierAccountConnection: ConnectionInput; carrierAccountConnectionId?: never }
  | { carrierAccountConnectionId: string; carrierAccountConnection?: never }
);

export interface CarrierAccountUpdate {
  name?: string;
  serviceLevels?: string[];
  isActive?: boolean;
  allowedLocationIds?: string[];
  [extra: string]: unknown;
}

export interface WebhookInput {
  uri: string;
  email: string;
  registeredEvents: string[];
  secret?: string;
  credentials?: { username: string; password: string };
  customHeader?: { key: string; value: string };
  [extra: string]: unknown;
}

export interface WebhookUpdate extends Partial<WebhookInput> {
  isActive?: boolean;
  updateSecret?: boolean;
  updateCredentials?: boolean;
  updateCustomHeader?: boolean;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface TrackerQuery extends PageQuery {
  /** ISO 8601; strictly newer trackers only (a server may ignore it: the poller copes). */
  updatedSince?: string;
  trackingNumber?: string;
}

export type WebhookEventQuery = PageQuery & Record<string, string | number | undefined>;

/** Per-call options. */
export interface CallOptions {
  /** Act for this tenant (x-tenant-id) instead of the profile's: a 3PL ships for its brands. */
  tenantId?: string;
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (each attempt). */
  timeoutMs?: number;
  /** Overrides the call's deadline: token wait, every attempt and backoff together. */
  deadlineMs?: number;
}

export interface PlatformClientOptions {
  baseUrl: string;
  clientId: string;
  /** The profile's tenant: the token is issued for it, and calls act for it unless told otherwise. */
  tenantId: string;
  environment: PlatformEnvironment;
  /** From the secret vault. Called only when a token is requested; never stored or logged. */
  getSecret: () => Promise<string> | string;
  /** Per attempt (default 15 s). */
  timeoutMs?: number;
  /** For POST /api/v1/labels, which waits on the carrier (default 30 s, within its deadline). */
  labelTimeoutMs?: number;
  /**
   * The most a whole call may take, per capability: waiting for a token, every attempt and
   * every backoff together. Defaults: token 5 s, rates 8 s, labels 15 s, trackers and the
   * rest 30 s. A packer's scan is answered within these (queued or unknown, with the reason).
   */
  deadlines?: Partial<Record<PlatformCapability, number>>;
  retry?: Partial<RetryPolicy>;
  /** Share one store per app so all clients of a profile share a token. */
  tokenStore?: TokenStore;
  /** Renew tokens this long before expiry (default 60 s). */
  tokenRefreshMarginMs?: number;
  /** Renew on a timer even when idle (default true). */
  proactiveTokenRefresh?: boolean;
  /** Failures in a row (network or 5xx) before the platform counts as offline (default 3). */
  offlineThreshold?: number;
  /** Replaces the global fetch (a custom undici dispatcher, Electron's net.fetch, a test double). */
  fetch?: typeof fetch;
  /** Local clock in ms, for token lifetimes; tests align it with the sandbox clock. */
  now?: () => number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  onRequest?: RequestObserver;
}

export interface PlatformClientStats extends TokenStats {
  calls: number;
  attempts: number;
  retries: number;
}
