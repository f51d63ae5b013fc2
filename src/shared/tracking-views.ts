/**
 * Views of the Tracking board. Plain, serialisable, re-exported by views.ts.
 */

export type TrackingStatus =
  'PRE_TRANSIT' | 'IN_TRANSIT' | 'OUT_FOR_DELIVERY' | 'DELIVERED' | 'EXCEPTION' | 'RETURNED';

export interface TrackerRow {
  id: string;
  trackingNumber: string;
  carrier: string;
  status: string;
  statusDetail: string | null;
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

export interface TrackingBoard {
  rows: TrackerRow[];
  total: number;
  counts: Record<string, number>;
  sync: TrackingSync;
}
