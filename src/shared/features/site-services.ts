/**
 * Issue 14's calls: sign-in and roles, the shift-lead console, where the site settings a
 * station uses come from.
 */
import { z } from 'zod';
import { def, none, text } from './define.js';

export interface SignedInUserView {
  userId: string;
  name: string;
  role: 'packer' | 'lead';
}

export interface SessionView {
  /** Users are set up (here or at the site): someone must sign in to pack. */
  required: boolean;
  user: SignedInUserView | null;
  /** Why nobody is signed in, when the station signed its user out (disabled by site IT). */
  signedOut: string | null;
  /** A lead scanned their badge here: the next lead action is approved by them. */
  approvalBy: string | null;
  /** `npm run web -- --console`: a screen with no printer or scanner, the Site view only. */
  consoleOnly: boolean;
}

/**
 * A station's Shipping Platform as its own header says it (Connectivity: online, offline,
 * refused, no-secret, failing, unknown), published with its heartbeat (site migration 5).
 */
export interface ConsolePlatformView {
  state: string;
  detail: string | null;
  /**
   * The profile the station packs under (its id keys the site's History, orders and claims):
   * site IT is told of a station of the same account set up under another one.
   */
  profile?: { id: string; name: string; environment: string; tenants: string[] };
}

export interface ConsolePrinterView {
  id: string;
  name: string;
  state: string;
  detail: string | null;
}

export interface ConsoleSnapshotView {
  /** The store's clock when it was read. */
  at: string;
  /** A station is online while its last heartbeat is at most this old (the console ages it). */
  onlineWithinMs: number;
  stations: {
    stationId: string;
    stationName: string;
    lastSeenAt: string;
    online: boolean;
    appVersion: string | null;
    signedInUser: string | null;
    printers: ConsolePrinterView[];
    /** null: not published (a station of an older version, or a store before schema 5). */
    platform: ConsolePlatformView | null;
    queuedShipments: number;
    queuedPrintJobs: number;
    needsAttention: number;
    outboxDepth: number;
  }[];
  /**
   * Every station's name by id, retired ones included (their rows are kept from site migration
   * 6, off the lists): the labels, pollers and carrier readings of a retired station name it.
   */
  stationNames: Record<string, string>;
  labelsPerHour: { hour: number; stationId: string; packer: string; labels: number }[];
  costToday: {
    tenantId: string;
    carrier: string;
    currency: string;
    cents: number;
    labels: number;
    /** Labels of the day marked voided at the carrier (site migration 6): not in `labels`, `cents`. */
    voided: number;
    voidedCents: number;
  }[];
  carriersNotAuthorized: {
    tenantId: string;
    carrierAccountId: string;
    carrier: string;
    authorizationStatus: string;
    stationId: string;
    updatedAt: string;
  }[];
  /**
   * The site's one tracker poller, per polled tenant: which station polls (the last one to),
   * when it last asked, when it last succeeded, and its last error.
   */
  trackerPolling: {
    tenantId: string;
    stationId: string | null;
    lastPollAt: string | null;
    lastSuccessAt: string | null;
    lastError: string | null;
  }[];
}

export interface ConsoleView {
  /** false: no site store, or it does not answer (`note` says which). */
  reachable: boolean;
  /** This station has no site store at all: a state to explain, not a fault. */
  noStore?: boolean;
  note: string | null;
  /**
   * The site now; while the store does not answer (reachable false), the site as this station
   * last read it (`readAt`), or null when it has not read it yet.
   */
  snapshot: ConsoleSnapshotView | null;
  /** With reachable false: when this station read the `snapshot` (its clock, ISO). */
  readAt?: string;
  /** The site's Needs attention (possible double labels, unknown purchases of every station). */
  attention: { id: string; message: string; since: string }[];
  /** tenant id → brand name, for the cost table. */
  brands: Record<string, string>;
  /** The station this console runs on (marked in the list), when it has a site store. */
  thisStationId?: string;
  /**
   * With reachable false: what this station does meanwhile, for its own row ("packing on its
   * own"; under the site's offline rule "refuse": "buying no label until the store answers").
   */
  thisStationAway?: string;
}

export type SettingSourceView = 'station' | 'site' | 'station-override';

export interface SiteSettingsView {
  sources: Record<
    'offlinePurchase' | 'reprintsWithoutLead' | 'boxPresets' | 'rateRule' | 'packingSlip',
    SettingSourceView
  >;
  reprintsWithoutLead: number;
  /** Each setting's value as this station uses it, in a few words ("allowed", "3 presets: …"). */
  values?: Partial<Record<keyof SiteSettingsView['sources'], string>>;
}

/** A badge scan, or a user id and PIN. */
const credentials = z
  .object({
    badge: text(200).optional(),
    userId: text(40).optional(),
    pin: text(12).optional(),
  })
  .refine((c) => Boolean(c.badge?.trim()) || Boolean(c.userId?.trim() && c.pin), {
    message: 'Scan your badge, or type your user name and PIN.',
  });

export const siteServiceCalls = {
  'users.session': def<SessionView>()(none),
  'users.signIn': def<SessionView>()(credentials),
  'users.signOut': def<SessionView>()(none),
  /** A shift lead approves the next lead action at this station (badge, or id + PIN). */
  'users.approve': def<SessionView>()(credentials),
  /** The shift-lead console's picture of the site; the renderer reloads it on `site-changed`. */
  'console.snapshot': def<ConsoleView>()(none),
  'siteSettings.get': def<SiteSettingsView>()(none),
  /** This station keeps its own value for a site setting (true) or follows the site (false). */
  'siteSettings.override': def<SiteSettingsView>()(
    z.object({
      key: z.enum(['boxPresets', 'rateRule', 'packingSlip']),
      override: z.boolean(),
    }),
  ),
};
