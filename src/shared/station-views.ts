/**
 * Views of the station itself: the header's status line, its settings and the devices it finds.
 * Plain, serialisable, re-exported by views.ts.
 */
import type { PrinterConfig } from './printers.js';
import type { BoxPreset } from './order-views.js';
import type { CarrierAccountView, ProfileView } from './profile-views.js';
import type { SiteHeaderView } from './features/site.js';

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
   * stored with a fixed key. Read only: true once the person at the station accepted it in the
   * main process's own dialog (`settings.update` cannot set it).
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

export interface WeightReading {
  weightLbs: number | null;
  stable: boolean;
  message: string;
}
