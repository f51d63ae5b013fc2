import type { LabelSummary } from '../../shared/features/records.js';
import type { PurchaseState } from '../packing/types.js';
import type { StationScope } from '../storage/scope.js';

/** One row of the station's label_purchases, as the site store keeps it. */
export interface SitePurchaseRow {
  purchaseId: string;
  profileId: string;
  environment: string;
  tenantId: string;
  orderNumber: string;
  orderReference: string;
  state: PurchaseState;
  packer: string | null;
  failure: unknown;
  confirmedBy: string | null;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One label of a station, as site-wide History finds it. */
export interface SiteLabelRow {
  localId: number;
  purchaseId: string;
  platformLabelId: string;
  profileId: string;
  environment: string;
  tenantId: string;
  orderNumber: string;
  orderReference: string;
  trackingNumber: string;
  carrier: string;
  serviceLevel: string;
  costCents: number;
  currency: string;
  packer: string | null;
  createdAt: string;
  /**
   * Marked voided at the carrier by a shift lead at the station that bought it (site migration 6;
   * null: not voided). Absent from a store before that migration and from older stations' rows.
   */
  voided?: LabelVoidMark | null;
  /** Its packages (site migration 8; absent from older stations' rows: counted as one). */
  packages?: number;
  /** A return label (site migration 8): off the site's manifests. */
  returnLabel?: boolean;
}

/** Who marked a label voided at the carrier, why, and when (ISO 8601): as History shows it. */
export type LabelVoidMark = NonNullable<LabelSummary['voided']>;

export interface SiteReprintRow {
  source: 'local' | 'site';
  localId: number;
  /** The label reprinted: the station that bought it and its id there. */
  labelStationId: string;
  labelLocalId: number;
  profileId: string;
  environment: string;
  tenantId: string;
  stationUser: string;
  reason: string;
  printerId: string;
  createdAt: string;
}

/** An order imported at a station, for every station of the site to scan. */
export interface SiteOrderRow {
  profileId: string;
  environment: string;
  tenantId: string;
  orderNumber: string;
  source: string;
  order: {
    orderNumber: string;
    shipTo: unknown;
    serviceLevels?: string[] | undefined;
    packages: unknown[];
    /** Cancelled by a shift lead at the station that last sent it (see SiteOutbox). */
    cancelled?: { by: string; reason: string; at: string } | undefined;
  };
  /** The station that last sent the order (imported it, or cancelled it): fetched orders only. */
  stationName?: string | undefined;
  /** That station's id: fetched orders only. */
  stationId?: string | undefined;
}

/** What the outbox carries to the store, read from SQLite at drain time (the current row). */
export type SiteChange =
  | { kind: 'order'; row: SiteOrderRow }
  | { kind: 'purchase'; row: SitePurchaseRow }
  | { kind: 'label'; row: SiteLabelRow }
  | { kind: 'reprint'; row: SiteReprintRow };

export interface SiteStation {
  stationId: string;
  stationName: string;
}

/** One reprint of a label, at whichever station of the site made it (site_reprints). */
export interface SiteReprint {
  stationId: string;
  stationName: string;
  stationUser: string;
  reason: string;
  at: string;
  /** The reprint's row at its station: `site` a reprint of another station's label there. */
  source: 'local' | 'site';
  localId: number;
}

/** A label found in the site store, with the station that bought it. */
export interface SiteLabel extends SiteLabelRow {
  stationId: string;
  stationName: string;
  reprints: number;
}

export interface SiteLabelSearch {
  /** Order number (or its start) or tracking number. */
  query?: string;
  stationId?: string;
  packer?: string;
  tenantId?: string;
  /** Only these brands' labels (the asking station's profile's): none of another tenant's. */
  tenantIds?: readonly string[];
  /** ISO dates; `to` is exclusive. */
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

export type { ClaimResult } from '../packing/order-claims.js';

/** A site-wide needs-attention item. */
export type SiteAttentionItem =
  | {
      kind: 'possible-double-label';
      id: string;
      tenantId: string;
      orderNumber: string;
      message: string;
      since: string;
      labels: SiteLabel[];
    }
  | {
      kind: 'unknown-purchase';
      id: string;
      tenantId: string;
      orderNumber: string;
      orderReference: string;
      stationId: string;
      stationName: string;
      message: string;
      since: string;
    };

export type SiteScope = StationScope;
