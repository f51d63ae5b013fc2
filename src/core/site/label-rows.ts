import type { LabelVoidMark, SiteLabel } from './types.js';

/** A row of site_labels as the site's reads select it (with its station's name and reprints). */
export interface SiteLabelDbRow {
  station_id: string;
  station_name: string;
  local_id: string;
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
  cost_cents: string;
  currency: string;
  packer: string | null;
  created_at: Date;
  reprints: string | number;
  /** Site migration 6 (absent before it): the label's voided mark, as its station sent it. */
  voided?: unknown;
}

export function siteLabelOf(r: SiteLabelDbRow): SiteLabel {
  return {
    stationId: r.station_id,
    stationName: r.station_name,
    localId: Number(r.local_id),
    purchaseId: r.purchase_id,
    platformLabelId: r.platform_label_id,
    profileId: r.profile_id,
    environment: r.environment,
    tenantId: r.tenant_id,
    orderNumber: r.order_number,
    orderReference: r.order_reference,
    trackingNumber: r.tracking_number,
    carrier: r.carrier,
    serviceLevel: r.service_level,
    costCents: Number(r.cost_cents),
    currency: r.currency,
    packer: r.packer,
    createdAt: r.created_at.toISOString(),
    reprints: Number(r.reprints),
    voided: voidMarkOf(r.voided),
  };
}

/** A voided mark as the store holds it (JSONB): only a whole one counts; anything else is none. */
export function voidMarkOf(value: unknown): LabelVoidMark | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  return typeof v.by === 'string' && typeof v.at === 'string'
    ? { by: v.by, reason: typeof v.reason === 'string' ? v.reason : '', at: v.at }
    : null;
}
