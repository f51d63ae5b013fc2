/**
 * The station contract: every call the renderer can make and every event it can receive.
 * Each feature declares its calls (input schema + output view type) in its own module under
 * src/shared/features; this file only joins them. Both hosts serve the joined map through
 * `dispatch` (Actual's handler maps), and the Station facade must provide exactly one handler
 * per call (`satisfies Handlers` in src/core/station/station.ts). Inputs are validated at the
 * host boundary with these schemas: the renderer is untrusted.
 */
import type { z } from 'zod';
import type * as V from './views.js';
import type { FeatureHandlers } from './features/define.js';
import { packingCalls } from './features/packing.js';
import { floorCalls } from './features/floor.js';
import { printerCalls } from './features/printers.js';
import { profileCalls } from './features/profiles.js';
import { recordCalls } from './features/records.js';
import { scaleCalls } from './features/scale.js';
import { settingsCalls } from './features/settings.js';
import { siteCalls } from './features/site.js';
import { siteServiceCalls } from './features/site-services.js';
import { stationCalls } from './features/station.js';
import { diagnosticsCalls } from './features/diagnostics.js';

export type { CallDef } from './features/define.js';

export const calls = {
  ...stationCalls,
  ...profileCalls,
  ...packingCalls,
  ...floorCalls,
  ...scaleCalls,
  ...recordCalls,
  ...printerCalls,
  ...settingsCalls,
  ...siteCalls,
  ...siteServiceCalls,
  ...diagnosticsCalls,
};

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type Input<K extends CallName> = z.input<Calls[K]['input']>;
export type ParsedInput<K extends CallName> = z.output<Calls[K]['input']>;
export type Output<K extends CallName> = NonNullable<Calls[K]['output']>;
/** One handler per call, exactly: what the Station facade provides. */
export type Handlers = FeatureHandlers<Calls>;

export function isCallName(value: unknown): value is CallName {
  return typeof value === 'string' && Object.hasOwn(calls, value);
}

/** Every event the renderer can receive, with its payload type. */
export interface Events {
  status: V.StationStatus;
  'print-job': V.PrintJobView;
  'orders-changed': { count: number };
  'queue-changed': { shipments: number; printJobs: number };
  'attention-changed': { count: number };
  'tracking-changed': { changed: number };
  'carriers-changed': { expired: number };
  'import-progress': V.ImportProgressView;
  /** Another station of the site committed changes (the site store's NOTIFY). */
  'site-changed': { stationId: string };
  /** A batch moved on (after every label, and on pause, stop, done; issue 15.8). */
  'batch-progress': V.BatchView;
}
export type EventName = keyof Events;
