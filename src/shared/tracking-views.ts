/** These view types moved to their features' modules (src/shared/features); this file keeps old imports working. */
export type {
  TrackingStatus,
  TrackerRow,
  TrackingSync,
  TrackingBoard,
} from './features/records.js';
