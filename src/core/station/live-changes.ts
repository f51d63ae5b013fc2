import { brandName, carrierView, labelView, trackingSync } from './map.js';
import type { StationContext } from './context.js';
import type { ProfileRuntime } from './runtime.js';
import { attentionOf, queueOf, trackerRow } from './snapshots.js';

/** What changed since the last event (StationContext coalesces it over 100 ms). */
export interface DueChanges {
  due: ReadonlySet<'queue' | 'attention' | 'carriers'>;
  /** Labels stored, by purchase id. */
  purchases: readonly string[];
  /** Trackers a poll changed; null when tracking did not change. */
  trackingNumbers: readonly string[] | null;
}

/** Most tracker rows sent in one event; the rest are counted (`more`) and the view reloads. */
const MAX_TRACKER_ROWS = 200;

/**
 * The renderer's live events for what changed, each carrying the data as it is now: the
 * queue, Needs attention, the carrier accounts, the labels just stored, the changed trackers.
 */
export function emitChanges(ctx: StationContext, rt: ProfileRuntime, changes: DueChanges): void {
  const { due, purchases, trackingNumbers: numbers } = changes;
  if (due.has('queue')) ctx.events.emit('queue-changed', queueOf(ctx));
  if (due.has('attention')) ctx.events.emit('attention-changed', { items: attentionOf(ctx) });
  if (due.has('carriers'))
    ctx.events.emit('carriers-changed', { accounts: rt.carriers().map(carrierView) });
  if (purchases.length) {
    const labels = purchases
      .map((id) => rt.labels.getByPurchase(id))
      .filter((l) => l !== undefined)
      .map((l) => labelView(l, brandName(rt.profile, l.tenantId), 0));
    if (labels.length) ctx.events.emit('labels-changed', { labels });
  }
  if (numbers) {
    const rows = numbers
      .slice(0, MAX_TRACKER_ROWS)
      .map((n) => rt.board.get(rt.trackingScope, n))
      .filter((t) => t !== null)
      .map(trackerRow);
    ctx.events.emit('tracking-changed', {
      rows,
      more: Math.max(0, numbers.length - MAX_TRACKER_ROWS),
      sync: trackingSync(rt),
    });
  }
}
