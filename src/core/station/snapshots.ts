import { attentionList, workCounts } from '../packing/attention.js';
import { orderNumberInReference } from '../packing/label-purchase.js';
import type { PrintJob } from '../printing/spool/jobs.js';
import type { TrackerRecord } from '../tracking/types.js';
import type * as V from '../../shared/views.js';
import type { StationContext } from './context.js';
import type { ProfileRuntime } from './runtime.js';
import { printJobView } from './map.js';

/**
 * What a list call answers and what its event carries are the same snapshot, read here once:
 * the Queue page, Needs attention and the header's counts. Each gathers from the modules that
 * own the rule (src/core/packing/attention.ts, the queue's `pending`); nothing is decided here.
 */

const STUCK = { states: ['failed', 'unknown'] as ('failed' | 'unknown')[] };

/**
 * A test page that failed or may have printed is over: it is never sent again, and its outcome
 * is said in Settings, where it was asked for (as a silent printer's test print is). It is no
 * Needs attention item with a label's decisions, and not on the Queue or in the header's counts.
 */
const settledTestPage = (j: PrintJob) =>
  j.kind === 'test' && (j.state === 'failed' || j.state === 'unknown');

/** Print jobs that failed or may not have printed and wait for a person's decision. */
const stuckJobs = (ctx: StationContext) => ctx.spool.list(STUCK).filter((j) => !settledTestPage(j));

/**
 * Names printers by id for a list of jobs: the profile in use's, else (a job queued under another
 * profile of this station, which prints on that profile's printer) another profile's, named with
 * it. The stored profiles are read once per list, and only if a job needs them.
 */
export function printerNamer(ctx: StationContext): (id: string) => string {
  let others: Map<string, string> | undefined;
  return (id) => {
    const own = ctx.runtimeOrNull()?.profile.printers.find((p) => p.id === id);
    if (own) return own.name;
    // Another station's network printer (a reprint from whole-site History): "ZD421 (Station 4)".
    const remote = ctx.site?.remotePrinters().find((p) => p.id === id);
    if (remote) return remote.name;
    if (!others) {
      others = new Map();
      try {
        for (const profile of ctx.profiles.list())
          for (const p of profile.printers)
            if (!others.has(p.id)) others.set(p.id, `${p.name} (profile ${profile.name})`);
      } catch {
        // stored profiles unreadable: the id is all there is
      }
    }
    return others.get(id) ?? id;
  };
}

/** The Queue page: shipments waiting for the platform and print jobs not yet done. */
export function queueOf(ctx: StationContext): V.QueueView {
  const r = ctx.runtime();
  const shipments = r.queue.pending(r.scope, 200).map((q) => ({
    id: String(q.id),
    orderNumber: q.orderNumber,
    state: q.state,
    attempts: q.attempts,
    lastError: q.lastError,
    createdAt: q.createdAt,
  }));
  const name = printerNamer(ctx);
  const printJobs = ctx.spool
    .list({ limit: 200 })
    .filter((j) => j.state !== 'printed' && j.state !== 'cancelled' && !settledTestPage(j))
    .map((j) => printJobView(j, name(j.printerId)));
  return { shipments, printJobs };
}

/** Needs attention, as the page lists it. */
export function attentionOf(ctx: StationContext): V.AttentionItem[] {
  const r = ctx.runtime();
  return attentionList(r.workflow, stuckJobs(ctx), printerNamer(ctx), r.importAlerts.open(r.scope));
}

/**
 * The counts of the header and the site store: the Queue page's rows, shipments (a failed one or
 * one bought with the outcome unknown included) and print jobs (a job that failed or may have
 * printed is there too, as on Needs attention), and Needs attention's items.
 */
export function countsOf(ctx: StationContext): {
  shipments: number;
  printJobs: number;
  needsAttention: number;
} {
  const r = ctx.runtimeOrNull();
  if (!r) return { shipments: 0, printJobs: 0, needsAttention: 0 };
  const stuck = stuckJobs(ctx).length;
  const work = workCounts(r.workflow, stuck, r.importAlerts.count(r.scope));
  return {
    shipments: work.queuedShipments,
    printJobs: ctx.spool.list({ states: ['queued', 'sending'] }).length + stuck,
    needsAttention: work.needsAttention,
  };
}

/**
 * Trackers as the Tracking board shows them, with the order number the shift lead knows (the
 * platform's orderReference adds an attempt id to it): this station's own label's (one query
 * for the rows), else the one in a reference Shipping Station made (a label another station of
 * the site bought), else the reference as the platform has it (a label bought elsewhere: the
 * only order identifier there is).
 */
export function trackerRows(
  rt: Pick<ProfileRuntime, 'labels' | 'scope'>,
  trackers: readonly TrackerRecord[],
): V.TrackerRow[] {
  const own = rt.labels.orderNumbersOf(
    rt.scope,
    trackers.map((t) => t.trackingNumber),
  );
  return trackers.map((t) =>
    trackerRow(
      t,
      own.get(t.trackingNumber) ??
        (t.orderReference === null
          ? null
          : (orderNumberInReference(t.orderReference) ?? t.orderReference)),
    ),
  );
}

function trackerRow(t: TrackerRecord, orderNumber: string | null): V.TrackerRow {
  return {
    id: t.trackerId ?? t.trackingNumber,
    trackingNumber: t.trackingNumber,
    carrier: t.carrier ?? '',
    status: t.status,
    statusDetail: t.statusDetail,
    orderNumber,
    orderReference: t.orderReference,
    tenantId: t.tenantId,
    estimatedDeliveryDate: t.estimatedDeliveryDate,
    updatedAt: t.updatedAt,
  };
}
