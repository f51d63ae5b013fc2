import type { LabelSummary, StoredLabel } from './types.js';

/** A labels row with its package tracking numbers (a JSON array) and, when asked, its ZPL. */
export interface LabelRow {
  id: number;
  purchase_id: string;
  platform_label_id: string;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_id: number;
  order_number: string;
  order_reference: string;
  tracking_number: string;
  tracker_id: string | null;
  carrier: string;
  service_level: string;
  carrier_account_id: string;
  cost_cents: number;
  currency: string;
  packages: string;
  zpl?: string | null;
  zpl_dropped_at: string | null;
  label_url: string | null;
  created_at: string;
  stored_at: string;
  return_of_label_id: number | null;
}

/** The label columns plus every package's tracking number, in one row (no query per label). */
export const LABEL_COLUMNS = `l.*, (SELECT json_group_array(tracking_number ORDER BY package_index)
  FROM label_packages WHERE label_id = l.id) AS packages`;
/** A single label with its ZPL (null when retention dropped it). */
export const WITH_ZPL = `SELECT ${LABEL_COLUMNS}, z.zpl FROM labels l LEFT JOIN label_zpl z ON z.label_id = l.id`;

/** A row as a stored label, with its ZPL when the row carried it (null otherwise). */
export function hydrateRow(row: LabelRow): StoredLabel {
  const { zplAvailable: _, ...label } = summarizeRow(row);
  return { ...label, zpl: row.zpl ?? null };
}

/** A row as a label without its ZPL (whether it still has one: `zplAvailable`). */
export function summarizeRow(row: LabelRow): LabelSummary {
  return {
    id: row.id,
    purchaseId: row.purchase_id,
    platformLabelId: row.platform_label_id,
    profileId: row.profile_id,
    environment: row.environment,
    tenantId: row.tenant_id,
    orderId: row.order_id,
    orderNumber: row.order_number,
    orderReference: row.order_reference,
    trackingNumber: row.tracking_number,
    packageTrackingNumbers: JSON.parse(row.packages) as string[],
    trackerId: row.tracker_id,
    carrier: row.carrier,
    serviceLevel: row.service_level,
    carrierAccountId: row.carrier_account_id,
    costCents: row.cost_cents,
    currency: row.currency,
    zplAvailable: row.zpl_dropped_at === null,
    zplDroppedAt: row.zpl_dropped_at,
    labelUrl: row.label_url,
    createdAt: row.created_at,
    storedAt: row.stored_at,
    returnOfLabelId: row.return_of_label_id,
  };
}
