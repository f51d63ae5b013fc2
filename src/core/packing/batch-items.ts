import type { ShipResult } from './types.js';

// A batch's shapes (issue 15.8), and what one order's shipping result makes of its item.

export type BatchState = 'running' | 'paused' | 'stopped' | 'done';
export type BatchItemState = 'waiting' | 'working' | 'bought' | 'failed' | 'skipped';

export interface BatchItem {
  position: number;
  orderId: number;
  orderNumber: string;
  state: BatchItemState;
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
  /** Items finished (bought, failed or skipped). */
  done: number;
  bought: number;
  failed: number;
  skipped: number;
  waiting: number;
  costCents: number;
  items: BatchItem[];
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
        failure: `Outcome unknown: ${result.failure.message} See Needs attention.`,
      };
    case 'failed':
      return {
        state: 'failed',
        ...none,
        shipmentId: result.shipment.id,
        failure: withCorrelation(result.failure),
      };
    case 'invalid':
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
  if (r.queued_label_id === null) return item;
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
