/**
 * What the renderer sees of the station: plain, serialisable view types. They are shaped for
 * the screens, not for the database; the Station facade (src/core/station) maps core records
 * onto them. Secrets never appear here: a profile only says whether it has one.
 *
 * The types live by feature in the `*-views.ts` files beside this one; this file gathers them so
 * that every import of `shared/views` keeps working.
 */
export type { PrinterConfig, PrinterRole, PrinterView } from './printers.js';
export type * from './profile-views.js';
export type * from './station-views.js';
export type * from './site-views.js';
export type * from './order-views.js';
export type * from './label-views.js';
export type * from './purchase-views.js';
export type * from './tracking-views.js';
export type * from './floor-views.js';
