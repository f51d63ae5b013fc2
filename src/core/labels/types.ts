/** What the platform said about a bought label, as the station stores it. */
interface LabelFacts {
  purchaseId: string;
  platformLabelId: string;
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
  labelUrl: string | null;
  /** When the platform created it. */
  createdAt: string;
  /** A return label (returnType): the station's id of the label it returns. */
  returnOfLabelId?: number | null | undefined;
}

/** A label as a history list shows it: everything but the ZPL. */
export interface LabelSummary extends LabelFacts {
  id: number;
  profileId: string;
  environment: string;
  /** False once retention dropped the ZPL (a reprint then fetches it again). */
  zplAvailable: boolean;
  zplDroppedAt: string | null;
  /** When the station stored it. */
  storedAt: string;
}

/** A label the station bought, as the shift lead sees it in the label cache. */
export interface StoredLabel extends Omit<LabelSummary, 'zplAvailable'> {
  /** Null once retention dropped it (the record stays). */
  zpl: string | null;
}

export interface NewLabel extends LabelFacts {
  zpl: string;
}

export interface LabelSearch {
  orderNumber?: string | undefined;
  /** Order numbers that begin with this (History's search of a part of a number). */
  orderNumberPrefix?: string | undefined;
  /**
   * A part of an order or tracking number anywhere in it ("3010" for BAT-3010, a tracking
   * number's last digits), upper case, among the labels from `partFromId` on: a bounded window
   * of the newest labels, read row by row (no index can find a middle part).
   */
  numberPart?: { text: string; fromId: number } | undefined;
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
  /** Labels to skip (a numbered page of a history list); ignored with a cursor. */
  offset?: number | undefined;
}

export interface LabelPage {
  labels: StoredLabel[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface LabelSummaryPage {
  labels: LabelSummary[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface ReprintRecord {
  id: number;
  labelId: number;
  stationUser: string;
  reason: string;
  printerId: string;
  /** The spool's job id (print_jobs.id); null when the queue gave none back. */
  printJobId: number | null;
  createdAt: string;
}
