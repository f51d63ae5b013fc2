/** The station itself: the header's status line. Handlers: src/core/station/features/status.ts. */
import { def, none } from './define.js';
import type { PrinterStatusView } from './printers.js';
import type { ProfileView } from './profiles.js';
import type { CarrierAccountView } from './records.js';
import type { SiteAttentionCountView, SiteHeaderView } from './site.js';

/**
 * refused: the platform answers but refuses the profile's API key (nothing can be bought);
 * no-secret: the profile has none to ask with; failing: its last request(s) for packing went
 * unanswered (a timeout, a 5xx), not yet enough in a row to count it offline; rates-failing,
 * labels-failing, token-failing: those requests failed enough in a row to stop packing while
 * the platform answered others since (the tracker list, carrier accounts): not an outage of the
 * platform or the network but of that endpoint; offline: packing's requests fail and nothing
 * else answered since (or no connection opens).
 */
export type Connectivity =
  | 'online'
  | 'offline'
  | 'unknown'
  | 'refused'
  | 'no-secret'
  | 'failing'
  | 'rates-failing'
  | 'labels-failing'
  | 'token-failing';

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
  /** This station's items under Needs attention, plus the site's (`siteAttention.count`). */
  needsAttention: number;
  /**
   * The site-wide items counted in needsAttention, and whether that is the store's answer now
   * or the last one before it went away; absent or null on a station without a site store.
   */
  siteAttention?: SiteAttentionCountView | null;
  /** Carrier accounts whose connection is EXPIRED: the header raises a banner. */
  expiredAccounts: CarrierAccountView[];
  dataDir: string;
  host: 'electron' | 'web';
  /** Where client secrets typed in Settings are kept, in words for site IT. */
  secretStorage: string;
  version: string;
  /** The site store line of the header; absent or null on a station without a site store. */
  site?: SiteHeaderView | null;
  /**
   * Users are set up (or were just copied from the site): someone must sign in to pack. The
   * page shows the sign-in screen when this turns on while it is open.
   */
  signInRequired?: boolean;
  /** Who is signed in (null: nobody): a user the station signed out is seen by the page. */
  signedInUserId?: string | null;
  /**
   * The box presets in use (the station's, or the site's), as a fingerprint: a page whose
   * presets were read under another one reads them again, so Pack never offers a box the
   * station no longer has (site IT changed the site's presets while Pack was open).
   */
  boxPresets?: string;
}

export const stationCalls = {
  'station.status': def<StationStatus>()(none),
};
