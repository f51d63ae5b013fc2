/**
 * Views of bought labels, their print jobs and the offline queue. Plain, serialisable, re-exported
 * by views.ts.
 */

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
}

/** One page of History: `total` counts every label that matches, not only this page. */
export interface LabelPage {
  labels: LabelSummary[];
  total: number;
  /** Where this page starts among the `total` matches. */
  offset: number;
}

export interface LabelDetail extends LabelSummary {
  zpl: string | null;
}

export type PrintJobState = 'queued' | 'sending' | 'printed' | 'failed' | 'cancelled';

export interface PrintJobView {
  id: string;
  labelId: string | null;
  printerId: string;
  printerName: string;
  state: PrintJobState;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  description: string;
  /**
   * Said before it prints, for the person at the station: "This label is made for 203 dpi; on
   * ZD621 (300 dpi) it comes out 2.7 x 4.1 in". Empty when the label fits the printer.
   */
  warnings: string[];
}

export interface QueuedShipmentView {
  id: string;
  orderNumber: string;
  state: string;
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
}
