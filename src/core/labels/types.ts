/** A label the station bought, as the shift lead sees it in the label cache. */
export interface StoredLabel {
  id: number;
  purchaseId: string;
  platformLabelId: string;
  profileId: string;
  environment: string;
  tenantId: string;
  orderId: number;
  orderNumber: string;
  orderReference: string;
  trackingNumber: string;
  /** One per package; the first equals trackingNumber. */
  packageTrackingNumbers: string[];
  trackerId: string | null;
  carrier: string;
  serviceLevel: string;
  carrierAccountId: string;
  costCents: number;
  currency: string;
  /** Null once retention dropped it (the record stays). */
  zpl: string | null;
  zplDroppedAt: string | null;
  labelUrl: string | null;
  /** When the platform created it. */
  createdAt: string;
  /** When the station stored it. */
  storedAt: string;
}

export interface NewLabel {
  purchaseId: string;
  platformLabelId: string;
  tenantId: string;
  orderId: number;
  orderNumber: string;
  orderReference: string;
  trackingNumber: string;
  packageTrackingNumbers: string[];
  trackerId: string | null;
  carrier: string;
  serviceLevel: string;
  carrierAccountId: string;
  costCents: number;
  currency: string;
  zpl: string;
  labelUrl: string | null;
  createdAt: string;
}

export interface LabelSearch {
  orderNumber?: string | undefined;
  trackingNumber?: string | undefined;
  /** Brand tenant. */
  tenantId?: string | undefined;
  /** Inclusive lower bound on createdAt (ISO). */
  from?: string | undefined;
  /** Exclusive upper bound on createdAt (ISO). */
  to?: string | undefined;
  /** Default 50, at most 500. */
  limit?: number | undefined;
  /** From the previous page's nextCursor. */
  cursor?: string | undefined;
}

export interface LabelPage {
  labels: StoredLabel[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface ReprintRecord {
  id: number;
  labelId: number;
  stationUser: string;
  reason: string;
  printerId: string;
  printJobId: string | null;
  createdAt: string;
}
