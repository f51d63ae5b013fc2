import type { ShipResult } from './types.js';

// A batch's shapes (issue 15.8), and what one order's shipping result makes of its item.

export type BatchState = 'running' | 'paused' | 'stopped' | 'done';
export type BatchItemState = 'waiting' | 'working' | 'bought' | 'failed' | 'skipped';
/**
 * An item as a shift lead is shown it: a stored `failed` item is told apart as `unknown` while a
 * purchase of its order has an unknown outcome (its label may have been bought: Needs attention
 * decides), and as `queued` while its shipment waits in the offline queue (bought when the
 * platform answers). Worked out on every read, so it follows Needs attention and the queue.
 */
export type BatchItemShown = BatchItemState | 'unknown' | 'queued';

export interface BatchItem {
  position: number;
  orderId: number;
  orderNumber: string;
  state: BatchItemShown;
  labelId: number | null;
  /** The platform's id of that label (what its print jobs are filed under). */
  platformLabelId: string | null;
  trackingNumber: string | null;
  costCents: number | null;
  /** Why it failed or was skipped, in words. */
  reason: string | null;
}

export interface BatchSummary {
  id: string;
  state: BatchState;
  description: string;
  createdBy: string | null;
  createdAt: string;
  total: number;
  /** Items the batch is through with (bought, failed, skipped, unknown or queued). */
  done: number;
  bought: number;
  /** Failed for a known reason: nothing was bought. */
  failed: number;
  skipped: number;
  /** Of unknown outcome: the label may have been bought (Needs attention). */
  unknown: number;
  /** Left to the offline queue, not bought yet. */
  queued: number;
  waiting: number;
  costCents: number;
  items: BatchItem[];
  /** Paused by the station: labels it bought wait at a printer with a fault (its words). */
  heldBy: string | null;
  /**
   * Running, but waiting for a printer with no fault to print the labels it bought before it
   * buys more (BATCH_PRINT_LEAD ahead at most), said once it has waited a few seconds.
   */
  waitingForPrinter: string | null;
}

/** The most orders one batch may hold (the contract's, so the Orders view can say it first). */
export { MAX_BATCH_ORDERS } from '../../shared/features/floor.js';

/** What one order's `ship()` result makes of its batch item. */
export function settle(result: ShipResult): {
  state: BatchItemState;
  shipmentId: number | null;
  labelId: number | null;
  costCents: number | null;
  failure: string | null;
} {
  const none = { shipmentId: null, labelId: null, costCents: null };
  switch (result.outcome) {
    case 'printed':
      return {
        state: 'bought',
        shipmentId: result.shipment.id,
        labelId: result.label.id,
        costCents: result.label.costCents,
        failure: null,
      };
    case 'purchased-not-printed':
      return {
        state: 'bought',
        shipmentId: result.shipment.id,
        labelId: result.label.id,
        costCents: result.label.costCents,
        failure: `Bought, not printed yet: ${result.failure.message}`,
      };
    case 'already-labelled':
      return { state: 'skipped', ...none, failure: 'Already has a label; nothing was bought.' };
    case 'needs-attention':
      return {
        state: 'failed',
        ...none,
        failure: 'An earlier purchase of this order has an unknown outcome. See Needs attention.',
      };
    case 'queued':
      return {
        state: 'failed',
        ...none,
        shipmentId: result.shipment.id,
        failure: `Queued: ${result.failure.message} The offline queue buys it when the platform is back.`,
      };
    case 'unknown':
      return {
        state: 'failed',
        ...none,
        shipmentId: result.shipment.id,
        failure: `Outcome unknown: ${result.failure.message.replace(/[.\s]*$/, '.')}${/Needs attention/.test(result.failure.message) ? '' : ' See Needs attention.'}`,
      };
    case 'failed':
      return {
        state: 'failed',
        ...none,
        shipmentId: result.shipment.id,
        failure: withCorrelation(result.failure),
      };
    case 'invalid':
      // Cancelled by a shift lead (here or at another station of the site), or labelled at
      // another station: not a failure, nothing to put right here.
      if (
        result.failure.code === 'order-cancelled' ||
        (result.failure.code === 'order-claimed-elsewhere' && result.claimedBy?.label)
      )
        return { state: 'skipped', ...none, failure: result.failure.message };
      return { state: 'failed', ...none, failure: withCorrelation(result.failure) };
    default: {
      const never: never = result;
      throw new Error(`unexpected ${JSON.stringify(never)}`);
    }
  }
}

function withCorrelation(f: { message: string; correlationId?: string | undefined }): string {
  return f.correlationId && !f.message.includes(f.correlationId)
    ? `${f.message} (correlation id ${f.correlationId})`
    : f.message;
}

/** A batch item as BatchRunner.summary reads it (with the label the offline queue bought since). */
export interface BatchItemRow {
  position: number;
  order_id: number;
  order_number: string;
  state: BatchItemState;
  label_id: number | null;
  tracking_number: string | null;
  cost_cents: number | null;
  failure: string | null;
  platform_label_id: string | null;
  queued_label_id: number | null;
  queued_tracking_number: string | null;
  queued_platform_label_id: string | null;
  queued_cost_cents: number | null;
  shipment_state: string | null;
  outcome_unknown: 0 | 1;
  order_labelled: 0 | 1;
}

/** A batch item row as the shift lead sees it. */
export function batchItemOf(r: BatchItemRow): BatchItem {
  const item: BatchItem = {
    position: r.position,
    orderId: r.order_id,
    orderNumber: r.order_number,
    state: r.state,
    labelId: r.label_id,
    platformLabelId: r.platform_label_id,
    trackingNumber: r.tracking_number,
    costCents: r.cost_cents,
    reason: r.failure,
  };
  // Left to the offline queue (the platform was away), and bought by it since.
  if (r.queued_label_id === null) {
    if (r.state !== 'failed') return item;
    if (r.outcome_unknown) return { ...item, state: 'unknown' };
    if (r.shipment_state === 'queued') return { ...item, state: 'queued' };
    if (r.order_labelled)
      return {
        ...item,
        state: 'skipped',
        reason: 'Labelled since (an earlier attempt whose label was found, or bought elsewhere).',
      };
    return item;
  }
  return {
    ...item,
    state: 'bought',
    labelId: r.queued_label_id,
    platformLabelId: r.queued_platform_label_id,
    trackingNumber: r.queued_tracking_number,
    costCents: r.queued_cost_cents,
    reason: 'Bought by the offline queue once the platform answered.',
  };
}

/** A batch's counts from its row and items (`heldBy`: see BatchSummary). */
export function summarize(
  row: {
    id: string;
    state: BatchState;
    description: string;
    created_by: string | null;
    created_at: string;
  },
  items: BatchItem[],
  heldBy: string | null,
  waitingForPrinter: string | null = null,
): BatchSummary {
  const count = (s: BatchItemShown) => items.filter((i) => i.state === s).length;
  const bought = count('bought');
  const failed = count('failed');
  const skipped = count('skipped');
  const unknown = count('unknown');
  const queued = count('queued');
  return {
    id: row.id,
    state: row.state,
    description: row.description,
    createdBy: row.created_by,
    createdAt: row.created_at,
    total: items.length,
    done: bought + failed + skipped + unknown + queued,
    bought,
    failed,
    skipped,
    unknown,
    queued,
    waiting: count('waiting') + count('working'),
    costCents: items.reduce((n, i) => n + (i.state === 'bought' ? (i.costCents ?? 0) : 0), 0),
    items,
    heldBy,
    waitingForPrinter,
  };
}

/**
 * Why a running batch buys nothing: its printer, with no fault, has not printed the first label
 * of the `lead` it may buy ahead (one that peels labels waits for each to be taken).
 */
export function printerWaitWords(
  items: readonly BatchItem[],
  labelId: string,
  printer: string,
  lead: number,
): string {
  const at = items.findIndex((i) => i.platformLabelId === labelId);
  const which =
    at < 0 ? 'its labels' : `the label of ${items[at]!.orderNumber} (${at + 1} of ${items.length})`;
  return `Waiting for ${printer} to print ${which}: the batch buys at most ${lead} labels ahead of its printer, and ${printer} reports no fault. If it peels labels, take the printed labels off; otherwise look at the printer and at Queue (Alt+3).`;
}
