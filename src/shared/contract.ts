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

/**
 * Every event the renderer can receive, with its payload type. Each says what changed, so a
 * page shows it without asking again (Actual's server-events): the list as it is now, or the
 * rows that changed. A renderer that may have missed some (the web host's socket came back)
 * asks for its page once on reconnect; nothing polls.
 */
export interface Events {
  status: V.StationStatus;
  'print-job': V.PrintJobView;
  /**
   * Orders came in from a file (import, hot folder: which file, how many were new or updated),
   * or the state of these orders changed (scan to verify, an override): the Orders view asks for
   * its page again.
   */
  'orders-changed': { fileName: string | null; imported: number; orderIds: string[] };
  /**
   * Labels this station stored since the last such event (bought, drained from the offline
   * queue, or found on the platform by a shift lead): History asks for the page on screen again.
   */
  'labels-changed': { labels: V.LabelSummary[] };
  /** The Queue page as it is now. */
  'queue-changed': V.QueueView;
  /** Needs attention as it is now (the header counts these plus the queue's). */
  'attention-changed': { items: V.AttentionItem[] };
  /**
   * Trackers a poll changed, as the board shows them now (at most 200; `more` counts the others,
   * a board then asks for its page again), and the board's sync state.
   */
  'tracking-changed': { rows: V.TrackerRow[]; more: number; sync: V.TrackingSync };
  /** The profile's carrier accounts as they are now. */
  'carriers-changed': { accounts: V.CarrierAccountView[] };
  'import-progress': V.ImportProgressView;
  /** Another station of the site committed changes (the site store's NOTIFY). */
  'site-changed': { stationId: string };
  /** A batch moved on (after every label, and on pause, stop, done; issue 15.8). */
  'batch-progress': V.BatchView;
}
export type EventName = keyof Events;
