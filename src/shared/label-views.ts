/** These view types moved to their features' modules (src/shared/features); this file keeps old imports working. */
export type {
  LabelSummary,
  LabelPage,
  LabelDetail,
  PrintJobState,
  PrintJobView,
  QueuedShipmentState,
  QueuedShipmentView,
  QueueView,
  ReprintAuditView,
} from './features/records.js';
