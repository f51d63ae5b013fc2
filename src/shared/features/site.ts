/**
 * The site store (issue 12): its calls, and the views of its header line, its Settings panel and
 * the whole-site History (plain, serialisable, re-exported by views.ts). Handlers:
 * src/core/station/features/site.ts.
 */
import { z } from 'zod';
import { def, id, none, text } from './define.js';
import {
  labelSearch,
  type LabelSummary,
  type PrintJobView,
  type ReprintAuditView,
} from './records.js';

/** "Site: synced" / "Site: 37 changes waiting, 4 min" / "Site: not reachable". */
export interface SiteHeaderView {
  state: 'synced' | 'waiting' | 'unreachable';
  text: string;
  depth: number;
  /** How old the oldest waiting change is, in ms (the lag); 0 when synced. */
  lagMs: number;
  problem: string | null;
}

/**
 * The site-wide part of the header's Needs attention count: the open items Needs attention
 * lists under Whole site (possible double labels, other stations' unknown purchases), less this
 * station's own, which its own count holds.
 */
export interface SiteAttentionCountView {
  /** Included in the header's count: as last read from the store (0 before the first read). */
  count: number;
  /** false: the store is not answering (or was not read yet), so the site's items may differ. */
  current: boolean;
  /** When `count` was read (ISO); null: never. */
  readAt: string | null;
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
  /**
   * Where the password the station uses comes from, in words for site IT ("held in memory for
   * this run only", "from STATION_SECRET_SITE_STORE"); null when there is none.
   */
  passwordFrom?: string | null;
  header: SiteHeaderView | null;
  /**
   * The store is at an older schema than this version's (it works, without what the later
   * migrations add): what is missing and who mends it, for site IT. null otherwise.
   */
  schemaNote?: string | null;
  /**
   * Stations of the site that pack the same account and brands under another profile id (so
   * they share no History, orders or console with this one): who, and what to do. null: none.
   */
  profileNote?: string | null;
  /**
   * `site.configure` only: the store just saved could not be read (it does not answer, the
   * login is refused…), in site IT's words. It is saved all the same; the station works on its
   * own until the store answers.
   */
  saveWarning?: string | null;
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
    /** Its profile when it is not this station's ("Chicago packing (chicago-packing)"). */
    otherProfile?: string | null;
  }[];
}

/**
 * A label of any station of the site, as History lists it: a label's summary fields (the same
 * as this station's `LabelSummary`), and which station bought it and who packed it.
 */
export interface SiteLabelView extends Pick<
  LabelSummary,
  | 'orderNumber'
  | 'trackingNumber'
  | 'carrier'
  | 'serviceLevel'
  | 'cost'
  | 'currency'
  | 'brandName'
  | 'createdAt'
  | 'reprints'
  | 'voided'
> {
  /** The station that bought it, and its label id there. */
  stationId: string;
  stationName: string;
  labelId: string;
  tenantId: string;
  packer: string | null;
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

/** Where an order of the site stands (`site.orders`). */
export const SITE_ORDER_STATES = ['open', 'being-labelled', 'labelled', 'cancelled'] as const;
export type SiteOrderState = (typeof SITE_ORDER_STATES)[number];

/** An order imported at any station of the site, as Orders (Whole site) lists it. */
export interface SiteOrderView {
  orderNumber: string;
  tenantId: string;
  brandName: string | null;
  /** "Ada Rivera, Austin". */
  shipTo: string;
  /** The station that imported it, or last changed it (a cancel, a reopen). */
  stationName: string;
  here: boolean;
  updatedAt: string;
  state: SiteOrderState;
  /** The state in words: "Labelled at Station A by ana, 14:05". */
  stateText: string;
}

export interface SiteOrderPage {
  orders: SiteOrderView[];
  /** More orders match than are listed (200): narrow by number or state. */
  more: boolean;
}

/**
 * The details of an `order-claimed-elsewhere` refusal: the station of the site that holds the
 * order, and its label, which the packer reprints here (`site.reprint` with its station id and
 * label id) instead of buying another.
 */
export interface LabelledElsewhereView {
  stationId: string;
  stationName: string;
  packer: string | null;
  /** When that station claimed the order for its purchase (ISO 8601), as the store has it. */
  at?: string;
  /** Null while that station's purchase is in flight or its label has not reached the store. */
  label: {
    labelId: string;
    trackingNumber: string;
    /**
     * Marked voided at the carrier at that station (who, why, when): not reprinted anywhere;
     * another label is bought instead. Absent when not, or when the store could not say.
     */
    voided?: LabelSummary['voided'];
  } | null;
}

export interface SiteAttentionView {
  reachable: boolean;
  note: string | null;
  /**
   * When `items` were read from the store (ISO): now when it answered; while it does not, the
   * last read (its items shown, marked as possibly out of date); null: never read.
   */
  readAt?: string | null;
  /** The site's items, less this station's own unknown purchases (listed with its own items). */
  items: {
    id: string;
    kind: 'possible-double-label' | 'unknown-purchase';
    orderNumber: string;
    message: string;
    since: string;
    labels: SiteLabelView[];
  }[];
}

export const siteCalls = {
  'site.status': def<SiteStatusView>()(none),
  /** null removes the site store; the password is stored in the keychain, never returned. */
  'site.configure': def<SiteStatusView>()(
    z.object({
      siteStore: z
        .object({
          url: text(500).min(1),
          stationId: text(63).min(1),
          stationName: text(100).min(1),
        })
        .nullable(),
      password: text(500).min(1).optional(),
    }),
  ),
  'site.labels': def<SiteLabelPage>()(
    labelSearch.extend({
      stationId: text(63).optional(),
      packer: text(100).optional(),
      scope: z.enum(['site', 'station']).default('site'),
    }),
  ),
  /** The site's orders, newest change first (read-only: a scan at Pack fetches one to pack). */
  'site.orders': def<SiteOrderPage>()(
    z.object({
      query: text(100).optional(),
      state: z.enum(SITE_ORDER_STATES).optional(),
      tenantId: text(100).optional(),
    }),
  ),
  'site.reprint': def<PrintJobView>()(
    z.object({
      stationId: text(63).min(1),
      labelId: id,
      reason: text(500).trim().min(3),
      printerId: id.optional(),
    }),
  ),
  /** Every reprint of one label of the site, at whichever station made it. */
  'site.labelReprints': def<ReprintAuditView[]>()(
    z.object({ stationId: text(63).min(1), labelId: id }),
  ),
  'site.attention': def<SiteAttentionView>()(none),
  'site.resolveAttention': def<{ resolved: true }>()(
    z.object({ id, note: text(500).trim().min(3) }),
  ),
};
