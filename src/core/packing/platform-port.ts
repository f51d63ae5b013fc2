import type { Address } from '../orders/types.js';

/**
 * What packing needs from the Shipping Platform, in the shapes of docs/platform-choices.md. The
 * platform client (src/core/platform) is adapted to it in platform-adapter.ts; tests may
 * substitute it. Every call acts for one tenant (x-tenant-id).
 */
export interface PlatformPackage {
  weightLbs: number;
  lengthIn?: number | undefined;
  widthIn?: number | undefined;
  heightIn?: number | undefined;
  type?: string | undefined;
  externalPackageId?: string | undefined;
  items?: PlatformItem[] | undefined;
  /** Package contents for customs (value seen: merchandise); sent for international shipments. */
  contentsType?: string | undefined;
  isHazmat?: boolean | undefined;
}

/** An Item of platform-api.md: customs fields and the hazmat fields it names. */
export interface PlatformItem {
  sku: string;
  name: string;
  description?: string | undefined;
  quantity: number;
  /** Value of one unit, in dollars. */
  value?: number | undefined;
  /** Weight of one unit, in pounds. */
  weightLbs?: number | undefined;
  harmonizedCode?: string | undefined;
  countryOfOrigin?: string | undefined;
  isHazmat?: boolean | undefined;
  hazmatUnNumber?: string | undefined;
  hazmatTransportationRegulatoryClass?: string | undefined;
  hazmatPackingGroup?: string | undefined;
  hazmatProperShippingName?: string | undefined;
  hazmatPackingInstruction?: string | undefined;
  hazmatLiquidVolumeOz?: number | undefined;
}

/** Options of platform-api.md, on the shipment. */
export interface PlatformOptions {
  customMessage1?: string | undefined;
  customMessage2?: string | undefined;
  customMessage3?: string | undefined;
  deliveryConfirmation?: string | undefined;
  deliveryOption?: string | undefined;
  additionalHandling?: boolean | undefined;
  incoTerm?: string | undefined;
}

export interface PlatformShipment {
  shipTo: Address;
  shipFrom: Address & { siteId?: string | undefined };
  packages: PlatformPackage[];
  orderReference?: string | undefined;
  returnType?: string | undefined;
  options?: PlatformOptions | undefined;
}

export interface RateRequest {
  shipment: PlatformShipment;
  options?: { serviceLevels?: string[] | undefined; carrierAccountIds?: string[] | undefined };
}

export interface ShipmentRate {
  rateQuoteId?: string | undefined;
  carrierAccount: { id: string; name?: string | undefined; carrier?: string | undefined };
  carrier: string;
  serviceLevel: string;
  serviceLevelName?: string | undefined;
  amount: number;
  currency: string;
  transitDays?: number | undefined;
  estimatedDeliveryDate?: string | undefined;
}

export interface RateError {
  carrierAccount: { id: string; name?: string | undefined; carrier?: string | undefined };
  errorCode: string;
  authorizationStatus?: string | undefined;
  message: string;
}

export interface RateResponse {
  shipmentRates: ShipmentRate[];
  rateErrors: RateError[];
  /** Rates the platform returned without an amount or service level the station can read. */
  unreadableRates?: number | undefined;
}

export interface LabelRequest {
  service: string;
  serviceLevel: string;
  carrierAccountId: string;
  rateQuoteId?: string | undefined;
  orderReference: string;
  shipment: PlatformShipment & {
    externalOrderId?: string | undefined;
    /** Labels bought in one batch run (issue 15.8). */
    batchId?: string | undefined;
  };
  labelOptions: { type: 'ZPL'; size: '4x6'; inline: boolean };
  mode?: 'TEST' | undefined;
}

export interface PurchasedLabel {
  id: string;
  trackingNumber: string;
  trackerId?: string | undefined;
  carrier: string;
  serviceLevel: string;
  carrierAccountId: string;
  orderReference?: string | undefined;
  /** Absent when the platform's answer named no cost (the spec shows no label fields). */
  cost?: { amount: number; currency: string } | undefined;
  /** Base64 ZPL when requested inline. */
  labelData?: string | undefined;
  labelUrl?: string | undefined;
  packages?: { trackingNumber: string }[] | undefined;
  createdAt: string;
}

export interface PlatformTracker {
  id: string;
  trackingNumber: string;
  carrier?: string | undefined;
  serviceLevel?: string | undefined;
  tenantId?: string | undefined;
  labelId?: string | undefined;
  orderReference?: string | undefined;
  createdAt?: string | undefined;
}

/** What a search of the platform's trackers for one order reference found. */
export interface TrackerSearch {
  /** The trackers whose orderReference matches. */
  trackers: PlatformTracker[];
  /** How many trackers were read. */
  read: number;
  /** False when the search stopped at its page limit before the end of the list. */
  reachedEnd: boolean;
  /** True when any tracker read carried an orderReference (the spec does not show the field). */
  referencesShown: boolean;
}

export interface CarrierAccountAuthorization {
  authorizationStatus: string;
  oauthUrl?: string | undefined;
}

export interface PackingPlatform {
  rates(tenantId: string, request: RateRequest): Promise<RateResponse>;
  /** Never retried by the implementation: the station decides what an error means. */
  buyLabel(tenantId: string, request: LabelRequest): Promise<PurchasedLabel>;
  /** The ZPL behind a label's labelUrl (GET /api/v1/labels/{id}/zpl). */
  labelZpl(tenantId: string, labelId: string): Promise<string>;
  /**
   * Trackers whose orderReference matches (used to find a purchase whose outcome is unknown),
   * read from `updatedSince` on when given, with how far the search got.
   */
  trackersByOrderReference(
    tenantId: string,
    orderReference: string,
    options?: { updatedSince?: string | undefined },
  ): Promise<TrackerSearch>;
  /** Connection status of one carrier account, with the OAuth URL while PENDING. */
  carrierAccountAuthorization?(
    tenantId: string,
    carrierAccountId: string,
  ): Promise<CarrierAccountAuthorization>;
  /** False while the client sees the platform as unreachable (network errors, 5xx streak). */
  isReachable?(): boolean;
  /** While unreachable: why, in words for the packer. */
  unreachableReason?(): string | null;
  /** Offline, but `afterMs` (default 5 s) since the last failure: one request may try again. */
  mayTryAgain?(afterMs?: number): boolean;
  /**
   * The last label request got no answer (a reset, a timeout, a 5xx) and none has answered
   * since: why, in words for the packer ("The platform did not answer the last label request
   * (socket hang up)."), else null.
   */
  labelsUnanswered?(): string | null;
  /** Asks the purchase route whether it answers, buying nothing; never throws. */
  probeLabelRoute?(tenantId: string): Promise<void>;
}

/**
 * What an error from the platform means for the station:
 * - rejected: the platform answered 4xx; nothing happened (a label was not bought).
 * - unreachable: the request could not be made or the platform is failing (network, 5xx);
 *   safe to retry for reads and rates. For a label purchase it still means "unknown".
 * - outcome-unknown: the request may have reached the platform (timeout, reset, 5xx).
 * - not-sent: the request provably never left the station (connection refused, DNS): even a
 *   purchase is known not to have happened.
 */
export type PlatformFailure =
  | {
      kind: 'rejected';
      status: number;
      errorCode: string | undefined;
      message: string;
      errors: { field: string; message: string }[];
      correlationId: string | undefined;
    }
  | {
      kind: 'unreachable';
      message: string;
      correlationId?: string | undefined;
      /** The platform's Retry-After, when it said how long to wait. */
      retryAfterMs?: number | undefined;
    }
  | {
      kind: 'outcome-unknown';
      message: string;
      correlationId?: string | undefined;
      /** The message already says the label may have been bought and what to do about it. */
      explainsOutcome?: boolean | undefined;
    }
  | {
      kind: 'not-sent';
      message: string;
      /** Held back by the platform's own Retry-After (never sent): how much of it is left. */
      retryAfterMs?: number | undefined;
    };

export type FailureClassifier = (error: unknown) => PlatformFailure;
