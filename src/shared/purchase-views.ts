/**
 * Views of rating, buying and what needs attention after a purchase. Plain, serialisable, re-
 * exported by views.ts.
 */
import type { LabelSummary, PrintJobView } from './label-views.js';

export interface RateView {
  id: string;
  carrierAccountId: string;
  carrierAccountName: string | null;
  carrier: string;
  serviceLevel: string;
  amount: number;
  currency: string;
  transitDays: number | null;
}

export interface AccountIssue {
  carrierAccountId: string;
  name: string;
  carrier: string;
  status: string;
  oauthUrl: string | null;
}

export interface RateQuote {
  orderId: string;
  orderNumber: string;
  /** The rated shipment to buy with `pack.buy` (also set when it was queued). */
  shipmentId: string;
  /** When the rates were asked for; `pack.buy` asks again once they are stale (10 min). */
  ratedAt: string | null;
  rates: RateView[];
  /** The rate the profile's rule picked; `reason` says why. */
  chosenRateId: string | null;
  reason: string;
  accountIssues: AccountIssue[];
  /** The platform is unreachable: the shipment was queued and will be rated and bought later. */
  queued: boolean;
}

export interface PurchaseView {
  outcome: 'printed' | 'printing' | 'print-waiting' | 'queued-offline';
  label: LabelSummary | null;
  printJob: PrintJobView | null;
  message: string;
}

export type AttentionKind = 'purchase-unknown' | 'purchase-failed' | 'print-failed';

export interface AttentionItem {
  id: string;
  kind: AttentionKind;
  orderNumber: string | null;
  title: string;
  detail: string;
  reasons: string[];
  createdAt: string;
  actions: AttentionAction[];
}

export type AttentionAction =
  | 'check-trackers'
  | 'mark-not-bought'
  | 'buy-again'
  | 'retry'
  | 'cancel'
  | 'mark-printed'
  | 'dismiss';
