import { orderNumberInReference } from '../labels/order-reference.js';
import { differentCountries } from '../packing/shipment-checks.js';
import type { LabelSummary as CoreLabelSummary, StoredLabel } from '../labels/types.js';
import type { OrderItem, ShipmentOptions, StoredOrder } from '../orders/types.js';
import type { PrintJob } from '../printing/spool/print-spool.js';
import type { PrinterConfig as CorePrinter } from '../printing/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { CarrierAccountHealth, TrackerSyncState, TrackingScope } from '../tracking/index.js';
import type * as V from '../../shared/views.js';
import { printerAddress } from '../../shared/printers.js';
import { whenSaid } from '../site/when-said.js';

/** Core records onto the contract's view types: shapes only, no rules. */

/** The profile's printer as the view shows it: the same shape, with role and DPI filled in. */
export function printerView(p: CorePrinter): V.PrinterView {
  return { ...p, role: p.role ?? 'label', dpi: p.dpi ?? 203, address: printerAddress(p) };
}

export function profileView(
  p: Profile,
  extra: {
    active: boolean;
    hasSecret: boolean;
    secretSource?: string | null;
    baseUrl?: string;
    /** The shipping site's and tenant's names, as the running profile read them. */
    siteName?: string | null;
    tenantName?: string | null;
  },
): V.ProfileView {
  return {
    id: p.id,
    name: p.name,
    environment: p.environment,
    baseUrl: extra.baseUrl ?? p.baseUrl ?? '(embedded)',
    clientId: p.clientId,
    tenantId: p.tenantId,
    tenantName: extra.tenantName ?? null,
    brands: p.brandTenants.map((b) => ({ tenantId: b.tenantId, name: b.name || b.tenantId })),
    shippingSiteId: p.shippingSiteId ?? null,
    // Not shipFrom.company: that is the company on the label, not the site packing it.
    siteName: extra.siteName ?? null,
    hasSecret: extra.hasSecret,
    secretSource: extra.hasSecret ? (extra.secretSource ?? null) : null,
    active: extra.active,
    printers: p.printers.map(printerView),
    defaultPrinterId:
      p.labelPrinterId ?? p.printers.find((x) => (x.role ?? 'label') === 'label')?.id ?? null,
    rateRule: {
      strategy: p.rateRule.strategy,
      preferredServiceLevels: p.rateRule.preferredServiceLevels,
      maxTransitDays: p.rateRule.maxTransitDays ?? null,
      excludedCarriers: p.rateRule.excludedCarriers,
    },
    hotFolder: p.hotFolder ?? null,
    requireItemVerification: p.requireItemVerification === true,
  };
}

/**
 * The brand a label or order ships for, in words: one of a 3PL's brands, or, for the profile's
 * own tenant (a brand shipping for itself), the company on its ship-from address.
 */
export function brandName(profile: Profile, tenantId: string): string | null {
  const brand = profile.brandTenants.find((b) => b.tenantId === tenantId);
  if (brand?.name) return brand.name;
  if (tenantId === profile.tenantId) return profile.shipFrom.company || null;
  return null;
}

/** An item as Pack shows it: customs and hazmat fields where the order gives them. */
function itemView(i: OrderItem): V.OrderItemView {
  return {
    sku: i.sku,
    name: i.name,
    quantity: i.quantity,
    description: i.description ?? null,
    valueUsd: i.valueCents === undefined ? null : i.valueCents / 100,
    weightLbs: i.weightLbs ?? null,
    harmonizedCode: i.harmonizedCode ?? null,
    countryOfOrigin: i.countryOfOrigin ?? null,
    hazmat: i.hazmat
      ? {
          unNumber: i.hazmat.unNumber ?? null,
          hazardClass: i.hazmat.hazardClass ?? null,
          packingGroup: i.hazmat.packingGroup ?? null,
          properShippingName: i.hazmat.properShippingName ?? null,
        }
      : null,
  };
}

/** The order's options as Pack shows them (and sends them back with pack.rate). */
export function optionsView(o: ShipmentOptions | undefined): V.ShipOptionsView {
  const confirmation = o?.deliveryConfirmation;
  return {
    deliveryConfirmation:
      confirmation === 'SIGNATURE' || confirmation === 'ADULT_SIGNATURE' ? confirmation : null,
    saturdayDelivery: o?.deliveryOption === 'SATURDAY_DELIVERY',
    additionalHandling: o?.additionalHandling === true,
    customMessage1: o?.customMessage1 ?? '',
    customMessage2: o?.customMessage2 ?? '',
    customMessage3: o?.customMessage3 ?? '',
    incoTerm: (o?.incoTerm as V.ShipOptionsView['incoTerm'] | undefined) ?? null,
  };
}

/** The packer's options as the core takes them. */
export function optionsFromView(v: V.ShipOptionsView): ShipmentOptions {
  return {
    ...(v.deliveryConfirmation ? { deliveryConfirmation: v.deliveryConfirmation } : {}),
    ...(v.saturdayDelivery ? { deliveryOption: 'SATURDAY_DELIVERY' } : {}),
    ...(v.additionalHandling ? { additionalHandling: true } : {}),
    ...(v.customMessage1.trim() ? { customMessage1: v.customMessage1.trim() } : {}),
    ...(v.customMessage2.trim() ? { customMessage2: v.customMessage2.trim() } : {}),
    ...(v.customMessage3.trim() ? { customMessage3: v.customMessage3.trim() } : {}),
    ...(v.incoTerm ? { incoTerm: v.incoTerm } : {}),
  };
}

export function orderView(
  o: StoredOrder,
  brandName: string | null,
  status: string,
  shipFromCountry?: string,
): V.OrderView {
  const items = o.packages.flatMap((p) => p.items.map(itemView));
  return {
    id: String(o.id),
    orderNumber: o.orderNumber,
    tenantId: o.tenantId,
    brandName,
    shipTo: o.shipTo,
    items,
    packages: o.packages.map((p, index) => ({
      index,
      weightLbs: p.weightLbs ?? null,
      box: p.box ?? null,
      lengthIn: p.lengthIn ?? null,
      widthIn: p.widthIn ?? null,
      heightIn: p.heightIn ?? null,
      items: p.items.map(itemView),
    })),
    status,
    importedAt: o.importedAt,
    options: optionsView(o.options),
    international:
      shipFromCountry !== undefined && differentCountries(shipFromCountry, o.shipTo.countryCode),
  };
}

/** A label's facts as every History row shows them, this station's or the site's. */
export type LabelFacts = Pick<
  CoreLabelSummary,
  | 'orderNumber'
  | 'trackingNumber'
  | 'carrier'
  | 'serviceLevel'
  | 'costCents'
  | 'currency'
  | 'createdAt'
>;

export function labelFacts(
  l: LabelFacts,
): Pick<
  V.LabelSummary,
  'orderNumber' | 'trackingNumber' | 'carrier' | 'serviceLevel' | 'cost' | 'currency' | 'createdAt'
> {
  return {
    orderNumber: l.orderNumber,
    trackingNumber: l.trackingNumber,
    carrier: l.carrier,
    serviceLevel: l.serviceLevel,
    cost: l.costCents / 100,
    currency: l.currency,
    createdAt: l.createdAt,
  };
}

export function labelView(
  l: StoredLabel | CoreLabelSummary,
  brandName: string | null,
  reprints: number,
  returnTrackingNumbers: string[] = [],
  notPrinted?: V.LabelSummary['notPrinted'],
): V.LabelSummary {
  return {
    id: String(l.id),
    ...labelFacts(l),
    tenantId: l.tenantId,
    brandName,
    zplAvailable: 'zplAvailable' in l ? l.zplAvailable : l.zpl !== null,
    reprints,
    packageTrackingNumbers: l.packageTrackingNumbers.length
      ? l.packageTrackingNumbers
      : [l.trackingNumber],
    returnOfLabelId: l.returnOfLabelId ? String(l.returnOfLabelId) : null,
    returnTrackingNumbers,
    ...(notPrinted ? { notPrinted } : {}),
  };
}

/**
 * A print job as a shift lead names it: what it is and for which order ("reprint of order
 * LUM-10421 (jammed at the dock)"), not the platform's reference with its attempt id.
 */
function printJobWords(j: PrintJob): string {
  const order = j.orderReference
    ? (orderNumberInReference(j.orderReference) ?? j.orderReference)
    : null;
  const what = { label: 'label', reprint: 'reprint', slip: 'packing slip', test: 'test page' }[
    j.kind
  ];
  return `${what}${order ? ` of order ${order}` : ''}${j.reason ? ` (${j.reason})` : ''}`;
}

export function printJobView(
  j: PrintJob,
  printerName: string,
  warnings: readonly { message: string }[] = [],
): V.PrintJobView {
  return {
    id: String(j.id),
    kind: j.kind,
    labelId: j.labelId,
    printerId: j.printerId,
    printerName,
    // "May have printed" stays itself: sending it again is a person's choice (the Queue and
    // Needs attention offer "It printed" beside it), not a failure's obvious retry.
    state: j.state,
    attempts: j.attempts,
    lastError:
      j.state === 'unknown'
        ? (j.lastError ?? 'may or may not have printed: check the printer')
        : j.lastError,
    lastErrorCode: j.lastErrorCode,
    createdAt: j.createdAt,
    updatedAt: j.updatedAt,
    description: printJobWords(j),
    warnings: warnings.map((w) => w.message),
  };
}

export function carrierView(h: CarrierAccountHealth): V.CarrierAccountView {
  return {
    id: h.carrierAccountId,
    name: h.name ?? h.carrierAccountId,
    carrier: h.carrier ?? '',
    ownershipType: h.ownershipType ?? '',
    tenantId: h.tenantId,
    isActive: h.isActive,
    status: h.authorizationStatus,
    oauthUrl: h.oauthUrl,
    serviceLevels: h.serviceLevels,
  };
}

/**
 * Whether the tracker poll is behind, for the header and the Tracking board. Tracking never
 * holds up packing: a failing tracker list is "tracking delayed", not "offline".
 */
export function trackingSync(rt: {
  trackers: { syncState(scope: TrackingScope): TrackerSyncState };
  trackingScope: TrackingScope;
  client: {
    connectivity: { capability(c: 'trackers'): { state: string } };
    tokens?: { refused: unknown };
  };
}): V.TrackingSync {
  const sync = rt.trackers.syncState(rt.trackingScope);
  const delayed =
    sync.consecutiveFailures > 0 ||
    rt.client.connectivity.capability('trackers').state === 'offline';
  const since = sync.lastSuccessAt
    ? `last updated ${whenSaid(new Date(sync.lastSuccessAt))}`
    : 'no update yet';
  const why = (sync.lastError ?? 'the tracker list does not answer').replace(/\.?\s*$/, '.');
  // A missing or refused key stops rating and buying too: then "packing is not affected" would
  // be untrue (the header says what is wrong).
  const keyProblem =
    Boolean(rt.client.tokens?.refused) || /no client secret|secret-missing/i.test(why);
  return {
    delayed,
    message: delayed
      ? keyProblem
        ? `Tracking delayed (${since}): ${why}`
        : `Tracking delayed (${since}): ${why} Packing and labels are not affected; statuses catch up when it answers.`
      : null,
    lastSuccessAt: sync.lastSuccessAt,
  };
}
