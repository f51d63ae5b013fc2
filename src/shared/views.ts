/**
 * What the renderer sees of the station: plain, serialisable view types. They are shaped for
 * the screens, not for the database; the Station facade (src/core/station) maps core records
 * onto them. Secrets never appear here: a profile only says whether it has one.
 */

export type Environment = 'embedded-sandbox' | 'sandbox' | 'production';

export interface Address {
  name?: string;
  company?: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  stateProvince?: string;
  postalCode: string;
  countryCode: string;
  phone?: string;
  email?: string;
  isResidential?: boolean;
}

export interface TenantNode {
  tenantId: string;
  name: string;
  type: string;
  children: TenantNode[];
}

export interface ShippingSiteView {
  id: string;
  name: string;
  address?: Address;
}

export type { PrinterConfig, PrinterRole, PrinterView } from './printers.js';
import type { PrinterConfig, PrinterView } from './printers.js';

export interface RateRule {
  strategy: 'cheapest' | 'fastest';
  preferredServiceLevels: string[];
  maxTransitDays: number | null;
  excludedCarriers: string[];
}

export interface ProfileView {
  id: string;
  name: string;
  environment: Environment;
  baseUrl: string;
  clientId: string;
  tenantId: string;
  tenantName: string | null;
  brands: { tenantId: string; name: string }[];
  shippingSiteId: string | null;
  siteName: string | null;
  /** The client secret is stored in the OS keychain; the renderer only learns that it is there. */
  hasSecret: boolean;
  /** Where its secret comes from, in words for site IT; null when it has none. */
  secretSource: string | null;
  active: boolean;
  printers: PrinterView[];
  defaultPrinterId: string | null;
  rateRule: RateRule;
  hotFolder: string | null;
}

export type Connectivity = 'online' | 'offline' | 'unknown';

export type PrinterState =
  | 'ready'
  | 'paper-out'
  | 'ribbon-out'
  | 'head-open'
  | 'paused'
  | 'buffer-full'
  | 'offline'
  | 'unknown';

export interface PrinterStatusView {
  printerId: string;
  name: string;
  state: PrinterState;
  /** In words a packer understands: "ZD421 at 10.1.4.20 is out of paper". */
  message: string;
}

export interface StationStatus {
  profile: ProfileView | null;
  /** Whether packing can reach the platform: its token, rates and labels (not trackers). */
  connectivity: Connectivity;
  connectivityDetail: string | null;
  /**
   * The tracker poll is failing: "Tracking delayed: …" for the header. Packing goes on; the
   * Tracking board catches up when the tracker list answers again. null when tracking is fine.
   */
  trackingDelayed: string | null;
  printer: PrinterStatusView | null;
  queue: { shipments: number; printJobs: number };
  needsAttention: number;
  /** Carrier accounts whose connection is EXPIRED: the header raises a banner. */
  expiredAccounts: CarrierAccountView[];
  dataDir: string;
  host: 'electron' | 'web';
  /** Where client secrets typed in Settings are kept, in words for site IT. */
  secretStorage: string;
  version: string;
  /** The site store line of the header; absent or null on a station without a site store. */
  site?: SiteHeaderView | null;
}

/** "Site: synced" / "Site: 37 changes waiting, 4 min" / "Site: not reachable". */
export interface SiteHeaderView {
  state: 'synced' | 'waiting' | 'unreachable';
  text: string;
  depth: number;
  /** How old the oldest waiting change is, in ms (the lag); 0 when synced. */
  lagMs: number;
  problem: string | null;
}

/** Settings → Site store: where it is, who this station is, and how it is doing. */
export interface SiteStatusView {
  configured: boolean;
  /** user@host:port/database, never the password. */
  where: string | null;
  stationId: string | null;
  stationName: string | null;
  /** Whether a password is stored in the keychain or STATION_SECRET_SITE_STORE is set. */
  hasPassword: boolean;
  header: SiteHeaderView | null;
  lastSyncedAt: string | null;
  offlinePurchase: 'allow' | 'refuse';
  /** Other stations' network printers a reprint can be sent to (`site.reprint` printerId). */
  sitePrinters: { id: string; name: string }[];
  /** Every station of the site: its outbox (waiting changes, lag) and its own queues. */
  stations: {
    stationId: string;
    stationName: string;
    lastSeenAt: string;
    depth: number;
    lagMs: number;
    queuedShipments: number;
    queuedPrintJobs: number;
    needsAttention: number;
  }[];
}

/** A label of any station of the site, as History lists it. */
export interface SiteLabelView {
  /** The station that bought it, and its label id there. */
  stationId: string;
  stationName: string;
  labelId: string;
  orderNumber: string;
  trackingNumber: string;
  carrier: string;
  serviceLevel: string;
  cost: number;
  currency: string;
  tenantId: string;
  brandName: string | null;
  packer: string | null;
  createdAt: string;
  reprints: number;
  /** True for labels this station bought. */
  here: boolean;
}

export interface SiteLabelPage {
  labels: SiteLabelView[];
  more: boolean;
  /** What was searched: the whole site, or this station only. */
  scope: 'site' | 'station';
  /** Why the search is narrower than asked ("The site store does not answer: …"), or null. */
  note: string | null;
}

export interface SiteAttentionView {
  reachable: boolean;
  note: string | null;
  items: {
    id: string;
    kind: 'possible-double-label' | 'unknown-purchase';
    orderNumber: string;
    message: string;
    since: string;
    labels: SiteLabelView[];
  }[];
}

export interface OrderItemView {
  sku: string;
  name: string;
  quantity: number;
}

export interface PackageView {
  index: number;
  weightLbs: number | null;
  /** The box code the order file gave this package (BOX-M), if any. */
  box: string | null;
  lengthIn: number | null;
  widthIn: number | null;
  heightIn: number | null;
  items: OrderItemView[];
}

export interface OrderView {
  id: string;
  orderNumber: string;
  tenantId: string | null;
  brandName: string | null;
  shipTo: Address;
  items: OrderItemView[];
  packages: PackageView[];
  status: string;
  importedAt: string;
}

export interface BoxPreset {
  id: string;
  name: string;
  /** A barcode on the box station; scanning it selects the box. */
  code: string;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

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

export type ScanResult =
  | { kind: 'order'; order: OrderView; existingLabels: LabelSummary[] }
  | { kind: 'label'; label: LabelSummary }
  | { kind: 'box'; box: BoxPreset }
  | { kind: 'not-found'; value: string };

export interface RateView {
  id: string;
  carrierAccountId: string;
  carrierAccountName: string | null;
  carrier: string;
  serviceLevel: string;
  amount: number;
  currency: string;
  transitDays: number | null;
}

export interface AccountIssue {
  carrierAccountId: string;
  name: string;
  carrier: string;
  status: string;
  oauthUrl: string | null;
}

export interface RateQuote {
  orderId: string;
  orderNumber: string;
  /** The rated shipment to buy with `pack.buy` (also set when it was queued). */
  shipmentId: string;
  /** When the rates were asked for; `pack.buy` asks again once they are stale (10 min). */
  ratedAt: string | null;
  rates: RateView[];
  /** The rate the profile's rule picked; `reason` says why. */
  chosenRateId: string | null;
  reason: string;
  accountIssues: AccountIssue[];
  /** The platform is unreachable: the shipment was queued and will be rated and bought later. */
  queued: boolean;
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

export interface PurchaseView {
  outcome: 'printed' | 'printing' | 'print-waiting' | 'queued-offline';
  label: LabelSummary | null;
  printJob: PrintJobView | null;
  message: string;
}

export type AttentionKind = 'purchase-unknown' | 'purchase-failed' | 'print-failed';

export interface AttentionItem {
  id: string;
  kind: AttentionKind;
  orderNumber: string | null;
  title: string;
  detail: string;
  reasons: string[];
  createdAt: string;
  actions: AttentionAction[];
}

export type AttentionAction =
  | 'check-trackers'
  | 'mark-not-bought'
  | 'buy-again'
  | 'retry'
  | 'cancel'
  | 'mark-printed'
  | 'dismiss';

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

export interface CarrierAccountView {
  id: string;
  name: string;
  carrier: string;
  ownershipType: string;
  tenantId: string;
  isActive: boolean;
  status: string;
  oauthUrl: string | null;
  serviceLevels: string[];
}

export interface DiscoveredPrinter {
  name: string;
  /** Where it is, in words ("10.1.4.20:9100", "queue zebra1"). */
  address: string;
  /** Ready for `profiles.update` once given an id. */
  printer: Omit<PrinterConfig, 'id'>;
}

export interface StationSettings {
  userName: string;
  sounds: boolean;
  boxes: BoxPreset[];
  scale: { enabled: boolean; device: string | null };
  /**
   * Electron on Linux without a keychain (safeStorage's basic_text backend): secrets would be
   * stored with a fixed key. Refused unless the person at the station accepts it here.
   */
  acceptBasicTextSecrets: boolean;
}

export interface DiscoveredScale {
  /** What `settings.update` takes as `scale.device`: "vendor:product" in hex ("0922:8003"). */
  device: string;
  /** "Dymo M25", or the product name the scale gives. */
  model: string;
}

export interface ScaleDiscovery {
  scales: DiscoveredScale[];
  /** Why none could be listed ("USB is not available on this computer: …"); null when searched. */
  note: string | null;
}

export interface ImportReport {
  imported: number;
  skipped: number;
  /** The first problems (500 at most), in file order. */
  errors: ImportError[];
  /** Every problem found, including those beyond `errors`. */
  errorCount: number;
}

/** A long order import is under way (sent a few times a second while it runs). */
export interface ImportProgressView {
  fileName: string;
  phase: 'reading' | 'checking' | 'storing';
  done: number;
  total: number;
}

/** One bad row of an order file, located the way the person who wrote the file sees it. */
export interface ImportError {
  /**
   * CSV: the row number a spreadsheet shows (the header is row 1, so the first order is row 2).
   * JSON: the order's position in the file (1 = first). 0: the whole file or its header.
   */
  row: number;
  /** The order the row belongs to, when the row names one. */
  orderNumber: string | null;
  field: string;
  reason: string;
  /** "row 14 (order LUM-10424)", "order 3 in the file (LUM-7)", "the header". */
  where: string;
}

export interface WeightReading {
  weightLbs: number | null;
  stable: boolean;
  message: string;
}
