/** These view types moved to their features' modules (src/shared/features); this file keeps old imports working. */
export type { Connectivity, StationStatus } from './features/station.js';
export type { PrinterState, PrinterStatusView, DiscoveredPrinter } from './features/printers.js';
export type { StationSettings } from './features/settings.js';
export type { DiscoveredScale, ScaleDiscovery, WeightReading } from './features/scale.js';
