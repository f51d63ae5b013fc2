import type { PlatformEnvironment } from '../platform/types.js';

/**
 * Which tracking data a query may see: one profile, in one environment, polled for one tenant
 * (the profile's tenant; a 3PL sees its brands' trackers through it). Identifiers of one
 * environment are never looked up in, or sent to, the other.
 */
export interface TrackingScope {
  profileId: string;
  environment: PlatformEnvironment;
  tenantId: string;
}

// The statuses of docs/platform-choices.md, in the board's order: one list, shared with the renderer.
export { trackerStatuses, type KnownTrackerStatus } from '../../shared/tracking.js';

/** A tracker whose status the platform did not give. */
export const UNKNOWN_STATUS = 'UNKNOWN';

export interface TrackerEventRecord {
  status: string | null;
  description: string | null;
  location: string | null;
  occurredAt: string | null;
}

export interface TrackerRecord {
  trackingNumber: string;
  trackerId: string | null;
  /** The tenant (brand) the shipment belongs to. */
  tenantId: string;
  carrier: string | null;
  serviceLevel: string | null;
  labelId: string | null;
  orderReference: string | null;
  status: string;
  statusDetail: string | null;
  estimatedDeliveryDate: string | null;
  events: TrackerEventRecord[];
  createdAt: string | null;
  updatedAt: string;
  firstSeenAt: string;
  lastChangedAt: string;
}

export interface TrackerChange {
  kind: 'new' | 'updated';
  trackingNumber: string;
  tenantId: string;
  orderReference: string | null;
  carrier: string | null;
  previousStatus: string | null;
  status: string;
  updatedAt: string;
}
