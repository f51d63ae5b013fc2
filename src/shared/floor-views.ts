/**
 * Views of the packing floor (issue 15): scan-to-verify, the Orders view, batches, end of day.
 * Plain, serialisable, re-exported by views.ts.
 */

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

export type OrderStatusName = 'open' | 'verified' | 'labelled' | 'queued' | 'failed';

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
  importedAt: string;
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
  state: 'waiting' | 'working' | 'bought' | 'failed' | 'skipped';
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
  waiting: number;
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
    carriers: {
      carrier: string;
      labels: number;
      packages: number;
      cost: number;
      brands: { name: string; labels: number; cost: number }[];
    }[];
  }[];
  labels: number;
  cost: number;
}
