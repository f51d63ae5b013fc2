/**
 * The packing floor (issue 15): scan to verify, the Orders view, batch printing and the end of
 * day. Handlers: src/core/station/features/floor.ts.
 */
import { z } from 'zod';
import { def, id, none, text } from './define.js';
import type { PrintJobView } from './records.js';

export interface VerifyLineView {
  key: string;
  /** 1-based package number. */
  package: number;
  sku: string;
  name: string;
  barcode: string | null;
  /** https only (the order file's image_url), or null. */
  imageUrl: string | null;
  quantity: number;
  scanned: number;
}

export interface VerificationView {
  orderId: string;
  /** The profile requires every item scanned before a label is bought. */
  required: boolean;
  lines: VerifyLineView[];
  complete: boolean;
  verified: boolean;
  override: { by: string; reason: string; at: string } | null;
}

export type VerifyScanView =
  | { outcome: 'counted'; message: string; lineKey: string; verification: VerificationView }
  | {
      outcome: 'wrong-item' | 'too-many';
      message: string;
      lineKey: string | null;
      verification: VerificationView;
    };

export type OrderStatusName = 'open' | 'verified' | 'labelled' | 'queued' | 'failed' | 'cancelled';

export interface OrderRowView {
  id: string;
  orderNumber: string;
  brandName: string | null;
  shipToName: string;
  place: string;
  packages: number;
  units: number;
  weightKnown: boolean;
  status: OrderStatusName;
  /**
   * Why a `failed` order failed (its newest failure, a batch's included), or who cancelled a
   * `cancelled` one and why; null otherwise.
   */
  reason: string | null;
  importedAt: string;
}

/** What cancelling (or reopening) some orders did, each order named. */
export interface OrderCancelView {
  /** Order numbers changed. */
  done: string[];
  /** Order numbers left as they were, and why ("has a label: void it at the carrier"). */
  left: { orderNumber: string; reason: string }[];
}

export interface OrderPageView {
  rows: OrderRowView[];
  total: number;
  offset: number;
  counts: Record<OrderStatusName, number>;
}

export interface BatchItemView {
  orderId: string;
  orderNumber: string;
  /**
   * `unknown`: a purchase of unknown outcome (the label may have been bought; Needs attention
   * decides); `queued`: waiting in the offline queue; `failed`: nothing was bought.
   */
  state: 'waiting' | 'working' | 'bought' | 'failed' | 'skipped' | 'unknown' | 'queued';
  trackingNumber: string | null;
  cost: number | null;
  reason: string | null;
}

export interface BatchView {
  id: string;
  state: 'running' | 'paused' | 'stopped' | 'done';
  description: string;
  createdBy: string | null;
  createdAt: string;
  total: number;
  done: number;
  bought: number;
  failed: number;
  skipped: number;
  /** Outcome unknown: may have been bought (Needs attention). */
  unknown: number;
  /** In the offline queue. */
  queued: number;
  waiting: number;
  /** Labels of the batch bought and still waiting for their printer (not printed yet). */
  printWaiting: number;
  /**
   * Paused by the station: labels it bought wait at a printer with a fault, in the printer's
   * words ("Printer ZD421 … is out of paper"); it goes on by itself once the printer prints.
   */
  heldBy: string | null;
  /**
   * Running, but waiting a few seconds already for a printer with no fault (one that peels
   * labels and waits for each to be taken) to print its labels before it buys more, in words.
   */
  waitingForPrinter: string | null;
  /** Dollars. */
  cost: number;
  items: BatchItemView[];
}

export interface EndOfDayView {
  days: {
    day: string;
    labels: number;
    packages: number;
    cost: number;
    /** Of `labels`: return labels (customer back to the site), and their cost. */
    returns: number;
    returnCost: number;
    /** Reprints made that day (no cost; History has each one's who and why). */
    reprints: number;
    /** Labels of that day marked voided at the carrier: not in `labels` or `cost`. */
    voided: number;
    voidedCost: number;
    carriers: {
      carrier: string;
      labels: number;
      packages: number;
      cost: number;
      brands: { name: string; labels: number; cost: number }[];
    }[];
    /** The whole site's End of day: each station's labels of the day (voided left out). */
    stations?: { name: string; here: boolean; labels: number; packages: number; cost: number }[];
  }[];
  labels: number;
  cost: number;
  returns: number;
  returnCost: number;
  reprints: number;
  voided: number;
  voidedCost: number;
  /**
   * Of the labels a close-out of these days sends (outbound, not voided): those on a manifest
   * already, made at this station or (with a site store) any station of the site.
   */
  onManifest?: number;
  /**
   * Whole site: of those labels, not on a manifest yet, the ones a close-out keeps off (their
   * order has an open possible double label), so the question counts what really goes.
   */
  heldBack?: number;
}

/** The most orders one batch may hold (the Orders view says so before it asks to buy). */
export const MAX_BATCH_ORDERS = 500;

/** The Orders view's filters; a batch can take the same filters. */
const orderFilter = z.object({
  search: text(200).optional(),
  statuses: z
    .array(z.enum(['open', 'verified', 'labelled', 'queued', 'failed', 'cancelled']))
    .max(6)
    .default([]),
  tenantId: text(200).optional(),
  singleItem: z.boolean().default(false),
  weightKnown: z.boolean().default(false),
});
const endOfDayQuery = z.object({
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day (YYYY-MM-DD)'),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day (YYYY-MM-DD)'),
  /** The station's local time minus UTC, in minutes (the browser's -getTimezoneOffset()). */
  utcOffsetMinutes: z
    .number()
    .int()
    .min(-14 * 60)
    .max(14 * 60)
    .default(0),
  /** This station's labels, or every station's from the site store (site migration 8). */
  scope: z.enum(['station', 'site']).default('station'),
});

/** Closing out with the carrier (POST /api/v1/manifests, not shown in the spec). */
export interface ManifestResultView {
  /** false: the platform has no manifest endpoint (it answered 404/405/501). */
  offered: boolean;
  message: string;
  manifests: {
    carrier: string;
    brandName: string;
    labels: number;
    manifestId: string | null;
    message: string;
    /** Labels the platform refused one by one, left off the manifest (the rest was sent). */
    leftOut?: { trackingNumber: string; orderNumber: string; reason: string }[];
  }[];
}

export const floorCalls = {
  'orders.page': def<OrderPageView>()(
    orderFilter.extend({
      limit: z.number().int().min(1).max(200).default(50),
      offset: z.number().int().min(0).default(0),
    }),
  ),
  /**
   * A shift lead cancels orders the store cancelled: nothing buys them (a scan, a batch, the
   * offline queue, whose waiting shipments of them are taken out) until they are reopened. An
   * order with a label or a purchase under way is left, and said.
   */
  'orders.cancel': def<OrderCancelView>()(
    z.object({ orderIds: z.array(id).min(1).max(500), reason: text(200).trim().min(3) }),
  ),
  /** Undoes a cancel: the order ships after all. Why is asked, and kept in the station's log. */
  'orders.reopen': def<OrderCancelView>()(
    z.object({ orderIds: z.array(id).min(1).max(500), reason: text(200).trim().min(3) }),
  ),
  'verify.scan': def<VerifyScanView>()(
    z.object({
      orderId: id,
      value: text(200).trim().min(1),
      /** The quantity key: this many of the scanned item at once. */
      quantity: z.number().int().min(1).max(999).default(1),
    }),
  ),
  'verify.override': def<VerificationView>()(
    z.object({ orderId: id, by: text(100).trim().min(1), reason: text(500).trim().min(3) }),
  ),
  'verify.reset': def<VerificationView>()(z.object({ orderId: id })),
  /** The picked orders, or every order the filter matches (at most 500). */
  'batch.start': def<BatchView>()(
    z.object({
      orderIds: z.array(id).max(500).optional(),
      filter: orderFilter.optional(),
      description: text(200).default(''),
    }),
  ),
  'batch.control': def<BatchView>()(z.object({ id, action: z.enum(['pause', 'resume', 'stop']) })),
  'batch.list': def<BatchView[]>()(none),
  'endOfDay.summary': def<EndOfDayView>()(endOfDayQuery),
  /** On the profile's receipt printer (role receipt), through the spool. */
  'endOfDay.print': def<PrintJobView>()(endOfDayQuery),
  'endOfDay.csv': def<{ fileName: string; csv: string }>()(endOfDayQuery),
  /**
   * One manifest per brand and carrier of those days' labels, at the profile's site; with scope
   * site, of every station's labels.
   */
  'endOfDay.manifest': def<ManifestResultView>()(endOfDayQuery),
};
