/**
 * What the renderer sees of the station: plain, serialisable view types. They are shaped for
 * the screens, not for the database; the Station facade (src/core/station) maps core records
 * onto them. Secrets never appear here: a profile only says whether it has one.
 *
 * Each type lives in its feature's module (src/shared/features/*.ts, beside the feature's
 * calls); this file gathers them so that every import of `shared/views` keeps working.
 */
export type { PrinterConfig, PrinterRole, PrinterView } from './printers.js';
export type * from './features/station.js';
export type * from './features/profiles.js';
export type * from './features/packing.js';
export type * from './features/scale.js';
export type * from './features/records.js';
export type * from './features/printers.js';
export type * from './features/settings.js';
export type * from './features/site.js';
export type * from './features/diagnostics.js';
export type * from './features/floor.js';
