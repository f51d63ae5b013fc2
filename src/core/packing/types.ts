import type { StoredLabel } from '../labels/types.js';
import type { ShipmentOptions, StoredOrder } from '../orders/types.js';
import type { PlatformShipment, RateResponse, ShipmentRate } from './platform-port.js';
import type { ClaimHolder } from './order-claims.js';

/**
 * A shipment's life at the packing station:
 *   ready → rated → purchasing → purchased → print-queued
 *   ready → queued (platform unreachable) → … drained later through the same steps
 *   any step → failed (the platform said no, or no usable rate)
 *   purchasing → unknown (timeout, reset, 5xx or crash: maybe bought; a person decides)
 *   ready/rated/queued/unknown → cancelled
 */
export type ShipmentState =
  | 'ready'
  | 'queued'
  | 'rated'
  | 'purchasing'
  | 'purchased'
  | 'print-queued'
  | 'failed'
  | 'unknown'
  | 'cancelled';

export type PurchaseState = 'purchasing' | 'purchased' | 'failed' | 'unknown' | 'not-bought';

/** Why something did not work, in words for the packer plus the platform's details. */
export interface Failure {
  code: string;
  message: string;
  /** Field errors from the platform (400), e.g. shipment.packages[0].weightLbs. */
  errors?: { field: string; message: string }[] | undefined;
  correlationId?: string | undefined;
  /** How long the platform asked the station to wait before asking again (Retry-After). */
  retryAfterMs?: number | undefined;
  /** `order-changed`: what the order's new version changed, in words ("its ship-to is now …"). */
  changed?: string | undefined;
}

export interface RateSelection {
  rate: ShipmentRate;
  /** Why this one, for the packer: "cheapest of 5 rates: UPS_GROUND $9.80, 3 days". */
  reason: string;
  /** Who picked this rate instead of the rule's choice (absent when the rule picked it). */
  chosenBy?: string | undefined;
}

/** A rate the packer picked among a rated shipment's stored rates. */
export type ChosenRate =
  { carrierAccountId: string; serviceLevel: string } | { rateQuoteId: string };

export interface Shipment {
  id: number;
  profileId: string;
  environment: string;
  tenantId: string;
  orderId: number;
  state: ShipmentState;
  shipment: PlatformShipment;
  rates: RateResponse | null;
  selection: RateSelection | null;
  failure: Failure | null;
  stationUser: string | null;
  createdAt: string;
  updatedAt: string;
  /** A return label's shipment (returnType): the station's id of the label it returns. */
  returnOfLabelId?: number | undefined;
}

export interface LabelPurchase {
  id: string;
  shipmentId: number;
  tenantId: string;
  orderReference: string;
  state: PurchaseState;
  request: unknown;
  failure: Failure | null;
  confirmedBy: string | null;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A carrier account that could not rate, reported to the packer instead of dropped. */
export interface CarrierAccountProblem {
  carrierAccountId: string;
  name?: string | undefined;
  carrier?: string | undefined;
  errorCode: string;
  authorizationStatus?: string | undefined;
  message: string;
  /** Where the account owner completes the carrier's OAuth flow (PENDING). */
  oauthUrl?: string | undefined;
}

/** What the packer typed or weighed for each package of the order. */
/** What one background rating (pre-rating) of an order came to. */
export type PreRateOutcome =
  | { kind: 'rated'; shipmentId: number }
  /** Not rated: the order has a label, a purchase, a queue entry or a packer on it, or is gone. */
  | { kind: 'skipped'; why: string }
  /** The platform refused or the rule found nothing: a packer's own scan will say why. */
  | { kind: 'failed'; failure: Failure }
  | { kind: 'unreachable'; failure: Failure };

export interface PackedPackage {
  /** null: not weighed yet; the shipment is refused, naming the package. */
  weightLbs: number | null;
  box?: string | undefined;
  lengthIn?: number | undefined;
  widthIn?: number | undefined;
  heightIn?: number | undefined;
}

export type ScanLookup =
  | { kind: 'order'; order: StoredOrder; labels: StoredLabel[]; openPurchases: LabelPurchase[] }
  | { kind: 'ambiguous'; scanned: string; orders: StoredOrder[] }
  | { kind: 'label'; scanned: string; label: StoredLabel }
  | { kind: 'not-found'; scanned: string; message: string };

/**
 * A packer's rating found the platform away: nothing was bought and nothing queued (a scan
 * never spends money). Buying (ship(), buy(), Ctrl+Enter) queues it instead.
 */
export interface NotAnswering {
  outcome: 'unreachable';
  failure: Failure;
}

/** A shipment rated and stored (state `rated`), or why it was not. */
export type RateResult =
  | NotAnswering
  | {
      outcome: 'rated';
      shipment: Shipment;
      rates: RateResponse;
      selection: RateSelection;
      carrierProblems: CarrierAccountProblem[];
      /** When the stored rates were asked for; buy() re-rates them once they are stale. */
      ratedAt: string;
      /** Rated in the background (pre-rating) and taken over by this call: no round trip. */
      preRated?: true;
    }
  | Extract<
      ShipResult,
      { outcome: 'already-labelled' | 'needs-attention' | 'invalid' | 'failed' | 'queued' }
    >;

/** A rating on the way to buying: an unreachable platform queues the shipment. */
export type BuyingRateResult = Exclude<RateResult, NotAnswering>;

export type ShipResult =
  | {
      outcome: 'printed';
      shipment: Shipment;
      label: StoredLabel;
      selection: RateSelection;
      carrierProblems: CarrierAccountProblem[];
      printJobId: number | null;
      /**
       * Bought while the site store was away (no order claim could be asked): the label is
       * checked against the other stations' when the store answers (a possible double label).
       */
      unclaimed?: true;
    }
  /** Bought and stored, but the print job could not be handed to the spool yet. */
  | {
      outcome: 'purchased-not-printed';
      shipment: Shipment;
      label: StoredLabel;
      failure: Failure;
      unclaimed?: true;
    }
  /** The order already has a label: offer a reprint; buying another needs confirmAnotherLabel. */
  | { outcome: 'already-labelled'; labels: StoredLabel[] }
  /** An earlier purchase of this order has an unknown outcome: a shift lead must resolve it. */
  | { outcome: 'needs-attention'; purchases: LabelPurchase[] }
  /** `claimedBy`: the order claim was refused; the station (and label) holding the order. */
  | { outcome: 'invalid'; failure: Failure; claimedBy?: ClaimHolder }
  | {
      outcome: 'failed';
      shipment: Shipment;
      failure: Failure;
      carrierProblems: CarrierAccountProblem[];
    }
  | { outcome: 'unknown'; shipment: Shipment; purchase: LabelPurchase; failure: Failure }
  | { outcome: 'queued'; shipment: Shipment; queueId: number; failure: Failure };

/** How the Pack view (or a batch) asks for a rating: PackingWorkflow.rate, ship(). */
export interface RateOptions {
  /**
   * The packer asked to buy (Ctrl+Enter before the rates came): an unreachable platform queues
   * the shipment, to be rated and bought by the rule when it answers. Without it a rating never
   * queues anything.
   */
  queueIfUnreachable?: boolean | undefined;
  /** Weights (and boxes) as packed, one per package; the order's own values when omitted. */
  packages?: PackedPackage[] | undefined;
  stationUser?: string | undefined;
  /** The packer confirmed buying another label for an order that already has one. */
  confirmAnotherLabel?: boolean | undefined;
  /** Options as the packer set them (signature, Saturday, messages, incoterm); the order's when omitted. */
  options?: ShipmentOptions | undefined;
  /** Who approved buying another label (a shift lead, issue 14); the packer when absent. */
  confirmedBy?: string | undefined;
}

export interface BuyOptions {
  /** Another of the stored rates than the rule's choice, picked by the packer. */
  rate?: ChosenRate | undefined;
  stationUser?: string | undefined;
  confirmAnotherLabel?: boolean | undefined;
  /** The batch this label belongs to (issue 15.8), sent as shipment.batchId. */
  batchId?: string | undefined;
  /** Who approved buying another label (a shift lead, issue 14); the packer when absent. */
  confirmedBy?: string | undefined;
}
