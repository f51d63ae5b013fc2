import type { PackingWorkflow } from './packing-workflow.js';
import type { ShipResult } from './types.js';
import type { QueueCounts, QueueEntry } from '../queue/offline-queue-repository.js';

export interface DrainOutcome {
  entry: QueueEntry;
  result: ShipResult['outcome'] | 'skipped';
  message: string | null;
}

export interface OfflineDrainerOptions {
  /** First retry after this long; doubles per attempt (default 2 s). */
  baseDelayMs?: number;
  /** Longest wait between attempts (default 60 s). */
  maxDelayMs?: number;
  /** How often an idle drainer looks for new work (default 2 s). */
  pollMs?: number;
  random?: () => number;
  now?: () => Date;
  onOutcome?: (outcome: DrainOutcome) => void;
  /** The station's log (the rotating file); stderr when omitted. */
  log?: (line: string) => void;
  /** Before a queued order is bought: the site's newest version of it is taken (a correction). */
  beforeShip?: (orderId: number) => Promise<unknown>;
}

/**
 * Drains the offline queue: the oldest shipment first, rated by the profile's rule, bought
 * through the same crash-safe purchase and printed. While the platform stays unreachable the
 * head waits with exponential backoff (with jitter) and nothing behind it overtakes it.
 */
export class OfflineQueueDrainer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<DrainOutcome[]> | undefined;
  private stopped = true;
  private readonly o: Required<Omit<OfflineDrainerOptions, 'onOutcome' | 'log' | 'beforeShip'>> &
    Pick<OfflineDrainerOptions, 'onOutcome' | 'beforeShip'> & { log: (line: string) => void };

  constructor(
    private readonly workflow: PackingWorkflow,
    options: OfflineDrainerOptions = {},
  ) {
    this.o = {
      baseDelayMs: options.baseDelayMs ?? 2000,
      maxDelayMs: options.maxDelayMs ?? 60_000,
      pollMs: options.pollMs ?? 2000,
      random: options.random ?? Math.random,
      now: options.now ?? (() => new Date()),
      onOutcome: options.onOutcome,
      log: options.log ?? ((line) => console.error(line)),
      beforeShip: options.beforeShip,
    };
  }

  /** For the header: how many shipments wait, failed, or need a shift lead. */
  counts(): QueueCounts {
    return this.workflow.queue.counts(this.workflow.scope);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Try now (e.g. the connectivity signal says the platform is back). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /**
   * Works through the queue until it is empty or the head must wait. `force` ignores the
   * head's backoff time (a person pressed "retry now").
   */
  drain(force = false): Promise<DrainOutcome[]> {
    if (this.running) return this.running;
    this.running = this.drainLoop(force).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain().then(
        () => this.scheduleNext(),
        (error: unknown) => {
          this.o.log(`offline queue: ${(error as Error).message}`);
          this.scheduleNext();
        },
      );
    }, delayMs);
    this.timer.unref?.();
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    const head = this.workflow.queue.head(this.workflow.scope);
    const wait = head
      ? Math.max(0, Date.parse(head.nextAttemptAt) - this.o.now().getTime())
      : this.o.pollMs;
    this.schedule(Math.min(wait, this.o.pollMs * 30));
  }

  private async drainLoop(force: boolean): Promise<DrainOutcome[]> {
    const outcomes: DrainOutcome[] = [];
    const { queue, scope, shipments } = this.workflow;
    for (;;) {
      const entry = queue.head(scope);
      if (!entry) return outcomes;
      if (!force && Date.parse(entry.nextAttemptAt) > this.o.now().getTime()) return outcomes;
      const shipment = shipments.get(entry.shipmentId);
      let outcome: DrainOutcome;
      const state = shipment?.state;
      switch (state) {
        case 'queued':
        case 'ready':
        case 'rated': {
          if (state !== 'queued') shipments.setState(entry.shipmentId, 'queued');
          // Corrected at another station of the site meanwhile: not bought as the old version.
          if (shipment) await this.o.beforeShip?.(shipment.orderId);
          const result = await this.workflow.continueQueued(entry.shipmentId);
          outcome = this.record(entry, result);
          break;
        }
        case 'purchased':
        case 'print-queued':
          queue.finish(entry.id, 'done', null);
          outcome = { entry, result: 'skipped', message: 'already bought' };
          break;
        case 'purchasing':
        case 'unknown':
          queue.finish(entry.id, 'needs-attention', 'the purchase outcome is unknown');
          outcome = { entry, result: 'skipped', message: 'needs attention' };
          break;
        case 'failed':
        case 'cancelled':
        case undefined:
          queue.finish(entry.id, 'failed', shipment?.failure?.message ?? 'cancelled');
          outcome = { entry, result: 'skipped', message: 'no longer to be shipped' };
          break;
        default: {
          const never: never = state;
          throw new Error(`unknown shipment state ${String(never)}`);
        }
      }
      outcomes.push(outcome);
      this.o.onOutcome?.(outcome);
      if (outcome.result === 'queued') return outcomes;
      force = false;
    }
  }

  private record(entry: QueueEntry, result: ShipResult): DrainOutcome {
    const { queue } = this.workflow;
    const outcome = (message: string | null): DrainOutcome => ({
      entry,
      result: result.outcome,
      message,
    });
    switch (result.outcome) {
      case 'printed':
        queue.finish(entry.id, 'done', null);
        return outcome(null);
      case 'purchased-not-printed':
        queue.finish(entry.id, 'done', result.failure.message);
        return outcome(result.failure.message);
      case 'already-labelled':
        queue.finish(entry.id, 'done', 'the order already had a label');
        return outcome('the order already had a label');
      case 'queued': {
        const delay = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** entry.attempts);
        // Not sooner than the platform asked (Retry-After on a 429 or 503).
        const jittered = Math.max(
          delay / 2 + this.o.random() * (delay / 2),
          result.failure.retryAfterMs ?? 0,
        );
        queue.retryLater(
          entry.id,
          new Date(this.o.now().getTime() + jittered),
          result.failure.message,
        );
        return outcome(result.failure.message);
      }
      case 'invalid':
        if (result.failure.code === 'site-store-unreachable') {
          // The site store could not give the order's claim (busy, away under a `refuse` rule,
          // a login refused): nothing was bought, and the order waits for the store as it did
          // for the platform, instead of failing for good.
          const delay = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** entry.attempts);
          queue.retryLater(
            entry.id,
            new Date(this.o.now().getTime() + delay),
            result.failure.message,
          );
          return { entry, result: 'queued', message: result.failure.message };
        }
        if (result.failure.code === 'order-busy') {
          // The packer is shipping this order right now: look again shortly, nothing failed.
          queue.retryLater(
            entry.id,
            new Date(this.o.now().getTime() + this.o.baseDelayMs),
            result.failure.message,
          );
          return { entry, result: 'queued', message: result.failure.message };
        }
        queue.finish(entry.id, 'failed', result.failure.message);
        return outcome(result.failure.message);
      case 'failed':
        queue.finish(entry.id, 'failed', result.failure.message);
        return outcome(result.failure.message);
      case 'unknown':
        queue.finish(entry.id, 'needs-attention', result.failure.message);
        return outcome(result.failure.message);
      case 'needs-attention':
        queue.finish(entry.id, 'needs-attention', 'an earlier purchase of this order is unknown');
        return outcome('an earlier purchase of this order is unknown');
      default: {
        const never: never = result;
        throw new Error(`unexpected result ${JSON.stringify(never)}`);
      }
    }
  }
}
