/** These view types moved to their features' modules (src/shared/features); this file keeps old imports working. */
export type {
  OrderItemView,
  PackageView,
  OrderView,
  ScanResult,
  ImportReport,
  ImportProgressView,
  ImportError,
} from './features/packing.js';
export type { BoxPreset } from './features/settings.js';
