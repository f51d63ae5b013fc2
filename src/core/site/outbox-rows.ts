import type { SiteChange, SiteLabelRow, SitePurchaseRow, SiteReprintRow } from './types.js';

// The station's rows as the outbox reads them (purchases, labels, reprints) and what the site
// store is sent of each (SiteOutbox.read).

export interface PurchaseDbRow {
  id: string;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_number: string;
  order_reference: string;
  state: SitePurchaseRow['state'];
  station_user: string | null;
  failure: string | null;
  confirmed_by: string | null;
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LabelDbRow {
  id: number;
  purchase_id: string;
  platform_label_id: string;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_number: string;
  order_reference: string;
  tracking_number: string;
  carrier: string;
  service_level: string;
  cost_cents: number;
  currency: string;
  station_user: string | null;
  created_at: string;
  /** The label's voided mark (station migration 21), null when it has none. */
  voided_by: string | null;
  void_reason: string | null;
  voided_at: string | null;
  /** Its packages (label_packages; 1 for a label bought before they were kept). */
  package_count: number;
  return_of_label_id: number | null;
}

export interface ReprintDbRow {
  id: number;
  label_id: number;
  profile_id: string;
  environment: string;
  tenant_id: string;
  station_user: string;
  reason: string;
  printer_id: string;
  created_at: string;
}

export interface SiteReprintDbRow {
  id: number;
  label_station_id: string;
  label_local_id: number;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_number: string;
  station_user: string;
  reason: string;
  printer_id: string;
  print_job_id: number | null;
  created_at: string;
}

export function purchaseOf(p: PurchaseDbRow): SitePurchaseRow {
  let failure: unknown = null;
  try {
    failure = p.failure ? JSON.parse(p.failure) : null;
  } catch {
    failure = { message: p.failure };
  }
  return {
    purchaseId: p.id,
    profileId: p.profile_id,
    environment: p.environment,
    tenantId: p.tenant_id,
    orderNumber: p.order_number,
    orderReference: p.order_reference,
    state: p.state,
    packer: p.station_user,
    failure,
    confirmedBy: p.confirmed_by,
    resolution: p.resolution,
    resolvedBy: p.resolved_by,
    resolvedAt: p.resolved_at,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
  };
}

export function labelOf(l: LabelDbRow): SiteLabelRow {
  return {
    localId: l.id,
    purchaseId: l.purchase_id,
    platformLabelId: l.platform_label_id,
    profileId: l.profile_id,
    environment: l.environment,
    tenantId: l.tenant_id,
    orderNumber: l.order_number,
    orderReference: l.order_reference,
    trackingNumber: l.tracking_number,
    carrier: l.carrier,
    serviceLevel: l.service_level,
    costCents: l.cost_cents,
    currency: l.currency,
    packer: l.station_user,
    createdAt: l.created_at,
    // Always sent, null included: a mark taken back clears the store's (site migration 6).
    voided:
      l.voided_by !== null && l.voided_at !== null
        ? { by: l.voided_by, reason: l.void_reason ?? '', at: l.voided_at }
        : null,
    // For the whole site's End of day and manifests (site migration 8; ignored before it).
    packages: l.package_count,
    returnLabel: l.return_of_label_id !== null,
  };
}

/** A reprint for the site: of this station's label (`local`) or of another's (`site`). */
export function reprintOf(
  x: Omit<ReprintDbRow, 'label_id'>,
  label: Pick<SiteReprintRow, 'source' | 'labelStationId' | 'labelLocalId'>,
): SiteChange {
  return {
    kind: 'reprint',
    row: {
      ...label,
      localId: x.id,
      profileId: x.profile_id,
      environment: x.environment,
      tenantId: x.tenant_id,
      stationUser: x.station_user,
      reason: x.reason,
      printerId: x.printer_id,
      createdAt: x.created_at,
    },
  };
}
