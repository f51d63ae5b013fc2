/**
 * What the station has done: Needs attention, the offline queue, labels (History, reprint,
 * audit), the tracking board and carrier accounts. Handlers: src/core/station/features/records.ts.
 */
import { z } from 'zod';
import { def, id, none, text } from './define.js';
import type { PurchaseView } from './packing.js';

/** A day typed in History's date fields (2026-11-23); anything Date cannot read is refused by name. */
const day = text(40).refine((s) => !Number.isNaN(Date.parse(s)), 'not a date (use YYYY-MM-DD)');
/** History's search, of this station or of the whole site (which adds station and packer). */
export const labelSearch = z.object({
  query: text(200).optional(),
  from: day.optional(),
  to: day.optional(),
  tenantId: text(200).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});

export interface CarrierAccountView {
  id: string;
  name: string;
  carrier: string;
  ownershipType: string;
  tenantId: string;
  isActive: boolean;
  status: string;
  oauthUrl: string | null;
  serviceLevels: string[];
}

export type AttentionKind =
  'purchase-unknown' | 'purchase-failed' | 'batch-failed' | 'print-failed' | 'import-problems';

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

export interface LabelSummary {
  id: string;
  orderNumber: string;
  trackingNumber: string;
  carrier: string;
  serviceLevel: string;
  cost: number;
  currency: string;
  tenantId: string | null;
  brandName: string | null;
  createdAt: string;
  zplAvailable: boolean;
  reprints: number;
  /** One per package, in order; the first is `trackingNumber`. */
  packageTrackingNumbers: string[];
  /** A return label: the id of the label it returns (issue 15). */
  returnOfLabelId?: string | null;
  /** Return labels bought for this label (History lists them on its row). */
  returnTrackingNumbers?: string[];
  /**
   * Set while this label has not come out of this station's printer: a job of it waits, failed
   * (Needs attention has it) or was cancelled in the Queue. Absent once one printed, and for a
   * label of another station (site History).
   */
  notPrinted?: { state: 'waiting' | 'failed' | 'cancelled'; at: string; note: string | null };
  /**
   * Marked voided at the carrier by a shift lead (the platform shows no void): left out of End
   * of day and the manifest, never reprinted.
   */
  voided?: {
    by: string;
    reason: string;
    at: string;
    /**
     * The order's label bought since at another station of the site, as this station keeps
     * them ("Station Delta (1ZSBX…)"): it ships on that one, so no other is asked for.
     */
    labelledAgain?: string;
  };
}

/** One page of History: `total` counts every label that matches, not only this page. */
export interface LabelPage {
  labels: LabelSummary[];
  total: number;
  /** Where this page starts among the `total` matches. */
  offset: number;
  /** Why nothing is listed when the search was too broad ("type more of the number"). */
  note?: string;
}

export interface LabelDetail extends LabelSummary {
  zpl: string | null;
}

/**
 * `unknown`: the label reached the printer but it never said whether it printed (a line dropped
 * after the label, the station stopped mid-send). It may have printed: a person at the printer
 * says so ("It printed", `attention.resolve` mark-printed) or sends it again; never `failed`,
 * which would make sending it again look safe when it may put a second label on the box.
 */
export type PrintJobState = 'queued' | 'sending' | 'printed' | 'failed' | 'unknown' | 'cancelled';

export interface PrintJobView {
  id: string;
  /** What prints: a label (or its reprint) only on label printers, a slip on receipt printers. */
  kind: 'label' | 'test' | 'slip' | 'reprint';
  labelId: string | null;
  printerId: string;
  printerName: string;
  state: PrintJobState;
  attempts: number;
  lastError: string | null;
  /** What kind of failure `lastError` says (`printer-disconnected`: the line dropped mid-label). */
  lastErrorCode?: string | null;
  createdAt: string;
  updatedAt: string;
  description: string;
  /**
   * Said before it prints, for the person at the station: "This label is made for 203 dpi; on
   * ZD621 (300 dpi) it comes out 2.7 x 4.1 in". Empty when the label fits the printer.
   */
  warnings: string[];
}

/**
 * A shipment on the Queue page: `waiting` for the platform; `failed` (nothing bought, the order
 * has no label: Retry now queues it again, Cancel takes it off); `needs-attention` (the queue
 * bought it and never heard back: decided under Needs attention only, not retried or cancelled).
 */
export type QueuedShipmentState = 'waiting' | 'failed' | 'needs-attention';

export interface QueuedShipmentView {
  id: string;
  orderNumber: string;
  state: QueuedShipmentState;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export interface QueueView {
  shipments: QueuedShipmentView[];
  printJobs: PrintJobView[];
}

export interface ReprintAuditView {
  id: string;
  labelId: string;
  trackingNumber: string;
  orderNumber: string;
  user: string;
  reason: string;
  at: string;
  /** Where it was reprinted, when that was another station of the site (absent: here). */
  stationName?: string;
}

export type TrackingStatus =
  'PRE_TRANSIT' | 'IN_TRANSIT' | 'OUT_FOR_DELIVERY' | 'DELIVERED' | 'EXCEPTION' | 'RETURNED';

export interface TrackerRow {
  id: string;
  trackingNumber: string;
  carrier: string;
  status: string;
  statusDetail: string | null;
  /**
   * The order number the shift lead knows: this station's label's; else the one inside a
   * reference Shipping Station made (another station's label); else the platform's reference as
   * it is (a label bought elsewhere). Null when the tracker has neither.
   */
  orderNumber: string | null;
  /** As the platform has it: the order number plus the purchase attempt's id. */
  orderReference: string | null;
  tenantId: string | null;
  estimatedDeliveryDate: string | null;
  updatedAt: string;
}

export interface TrackingSync {
  /** The last tracker poll failed: statuses may be behind. Packing is not affected. */
  delayed: boolean;
  /** Why, in words for the shift lead (with the platform's correlation id when it gave one). */
  message: string | null;
  /** ISO time of the last complete poll; null before the first one. */
  lastSuccessAt: string | null;
}

/** One page of the tracking board: `total` and `counts` count every tracker that matches. */
export interface TrackingBoard {
  rows: TrackerRow[];
  total: number;
  /** Where `rows` starts among the `total`. */
  offset: number;
  counts: Record<string, number>;
  sync: TrackingSync;
}

export const recordCalls = {
  'attention.list': def<AttentionItem[]>()(none),
  /** `message`: what was done, for the shift lead ("Found on the platform: 9400… …"). */
  'attention.resolve': def<{ resolved: true; message?: string }>()(
    z.object({
      id,
      action: z.enum([
        'check-trackers',
        'mark-not-bought',
        'buy-again',
        'retry',
        'cancel',
        'mark-printed',
        'dismiss',
      ]),
      note: text(500).optional(),
    }),
  ),

  'queue.list': def<QueueView>()(none),
  'queue.retry': def<{ done: true }>()(z.object({ kind: z.enum(['shipment', 'print-job']), id })),
  'queue.cancel': def<{ done: true }>()(z.object({ kind: z.enum(['shipment', 'print-job']), id })),
  'queue.move': def<{ done: true }>()(z.object({ id, printerId: id })),

  'labels.search': def<LabelPage>()(labelSearch),
  'labels.get': def<LabelDetail>()(z.object({ id })),
  /**
   * The label's print job at this station (its first, as bought); null while it has none (a label
   * bought with no label printer: Pack's result follows the job once a printer is added).
   */
  'labels.printJob': def<{ job: PrintJobView | null }>()(z.object({ id })),
  'labels.reprint': def<PrintJobView>()(
    z.object({
      id,
      reason: text(500).trim().min(3),
      printerId: id.optional(),
      /** One package of a multi-package label (0-based); every package when absent. */
      packageIndex: z.number().int().min(0).max(99).optional(),
    }),
  ),
  'labels.audit': def<ReprintAuditView[]>()(z.object({ labelId: id.optional() })),
  /**
   * History → Voided at the carrier…: marks a label a shift lead voided at the carrier's portal
   * or the platform's console (`voided: true`, with why), or takes the mark back (`false`).
   */
  'labels.markVoided': def<LabelSummary>()(
    z.object({ id, voided: z.boolean(), reason: text(200).trim().min(3) }),
  ),
  /**
   * History → Return label: buys a label with returnType LABEL for that shipment, from the
   * customer back to the site; printed like any label and linked to it. A second one for the
   * same label needs confirmAnother.
   */
  'labels.returnLabel': def<PurchaseView>()(
    z.object({ labelId: id, confirmAnother: z.boolean().default(false) }),
  ),

  'tracking.board': def<TrackingBoard>()(
    z.object({
      status: text(40).optional(),
      search: text(200).optional(),
      offset: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(1000).default(200),
    }),
  ),

  'carriers.list': def<CarrierAccountView[]>()(z.object({ refresh: z.boolean().default(false) })),
};
