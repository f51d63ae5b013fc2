import { brandName, carrierView, labelView, trackingSync } from './map.js';
import type { StationContext } from './context.js';
import type { ProfileRuntime } from './runtime.js';
import { attentionOf, queueOf, trackerRows } from './snapshots.js';

/** What a call marks as changed (`StationContext.changed`); a status follows each event. */
export type ChangeKind = 'queue' | 'attention' | 'tracking' | 'carriers' | 'status';

/** What changed since the last event (LiveChanges coalesces it over 100 ms). */
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
    const rows = trackerRows(
      rt,
      numbers
        .slice(0, MAX_TRACKER_ROWS)
        .map((n) => rt.board.get(rt.trackingScope, n))
        .filter((t) => t !== null),
    );
    ctx.events.emit('tracking-changed', {
      rows,
      more: Math.max(0, numbers.length - MAX_TRACKER_ROWS),
      sync: trackingSync(rt),
    });
  }
}

/**
 * What changed since the last live events: marked by the context's calls, sent within 100 ms of
 * the first mark (a burst is one event of each kind), then a new status for the header.
 */
export class LiveChanges {
  private statusTimer: NodeJS.Timeout | null = null;
  private due = new Set<'queue' | 'attention' | 'carriers'>();
  private readonly trackersDue = new Set<string>();
  private readonly labelsDue = new Set<string>();
  private trackingDue = false;

  constructor(private readonly ctx: StationContext) {}

  changed(what: ChangeKind): void {
    if (what === 'tracking') this.trackingDue = true;
    else if (what !== 'status') this.due.add(what);
    this.statusTimer ??= setTimeout(() => this.flush(), 100);
  }

  trackersChanged(trackingNumbers: readonly string[]): void {
    for (const n of trackingNumbers) this.trackersDue.add(n);
    this.changed('tracking');
  }

  labelStored(purchaseId: string): void {
    this.labelsDue.add(purchaseId);
    this.changed('status');
  }

  ordersChanged(change: { fileName?: string; imported?: number; orderIds?: string[] }): void {
    this.ctx.events.emit('orders-changed', {
      fileName: change.fileName ?? null,
      imported: change.imported ?? 0,
      orderIds: change.orderIds ?? [],
    });
    this.changed('status');
  }

  /** The station stops: nothing more is sent. */
  stop(): void {
    if (this.statusTimer) clearTimeout(this.statusTimer);
  }

  private flush(): void {
    this.statusTimer = null;
    const changes = {
      due: this.due,
      purchases: [...this.labelsDue],
      trackingNumbers: this.trackingDue ? [...this.trackersDue] : null,
    };
    this.due = new Set();
    this.trackersDue.clear();
    this.labelsDue.clear();
    this.trackingDue = false;
    // A label stored or the offline queue moved (whichever path: Pack, a batch, the queue's
    // drainer, Needs attention): orders' statuses changed, and an open Orders view reads again.
    if (changes.purchases.length || changes.due.has('queue'))
      this.ctx.events.emit('orders-changed', { fileName: null, imported: 0, orderIds: [] });
    const rt = this.ctx.runtimeOrNull();
    try {
      if (rt) emitChanges(this.ctx, rt, changes);
    } catch (error) {
      this.ctx.log(`station events: ${(error as Error).message}`);
    }
    this.ctx.onStatusDue?.();
  }
}
