import type { PackingWorkflow } from '../packing/packing-workflow.js';

/**
 * Drains the offline queue in order while the station runs: the head shipment is continued
 * through the packing workflow (which rates, buys and prints it, or re-queues it when the
 * platform is still away). Backoff grows while the platform stays unreachable.
 * (The queue module has the repository but no drainer yet; this loop only sequences calls to
 * PackingWorkflow.continueQueued and records the outcome on the queue entry.)
 */
export class OfflineDrainer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private delayMs = 1000;
  private stopped = true;

  constructor(
    private readonly workflow: PackingWorkflow,
    private readonly log: (line: string) => void,
    private readonly changed: () => void,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(500);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Try the queue now (after "retry now", or when the platform answers again). */
  kick(): void {
    if (this.stopped) return;
    this.delayMs = 1000;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }, ms);
  }

  private async drain(): Promise<void> {
    const queue = this.workflow.queue;
    const scope = this.workflow.scope;
    try {
      for (;;) {
        if (this.stopped) return;
        const head = queue.head(scope);
        if (!head) {
          this.delayMs = 1000;
          break;
        }
        if (Date.parse(head.nextAttemptAt) > Date.now()) break;
        const result = await this.workflow.continueQueued(head.shipmentId);
        switch (result.outcome) {
          case 'queued':
            queue.retryLater(head.id, new Date(Date.now() + this.delayMs), result.failure.message);
            this.delayMs = Math.min(this.delayMs * 2, 30_000);
            this.changed();
            return this.schedule(this.delayMs);
          case 'printed':
          case 'purchased-not-printed':
            queue.finish(head.id, 'done', null);
            break;
          case 'unknown':
          case 'needs-attention':
            queue.finish(
              head.id,
              'needs-attention',
              'outcome' in result && result.outcome === 'unknown'
                ? result.failure.message
                : 'an earlier purchase needs attention',
            );
            break;
          case 'failed':
          case 'invalid':
            queue.finish(head.id, 'failed', result.failure.message);
            break;
          case 'already-labelled':
            queue.finish(head.id, 'done', 'the order already had a label');
            break;
          default: {
            const never: never = result;
            throw new Error(`unexpected ${JSON.stringify(never)}`);
          }
        }
        this.delayMs = 1000;
        this.changed();
      }
    } catch (error) {
      this.log(`offline queue: ${(error as Error).message}`);
    }
    this.schedule(this.delayMs);
  }
}
