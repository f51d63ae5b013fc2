/**
 * The sandbox clock: real time plus an offset that `advance` pushes forward. Work that falls due
 * (tracker progress, webhook retries, subscription expiry) is queued here; `advance` runs every
 * task due before the new time, in time order, before it returns, so tests are deterministic.
 * Tasks also run on their own when real time reaches them (the demo profile never advances).
 */
export type Task = () => void | Promise<void>;

interface Scheduled {
  at: number;
  seq: number;
  label: string;
  run: Task;
  cancelled: boolean;
}

export interface ScheduledHandle {
  cancel(): void;
}

interface Background {
  horizon: number;
  done: Promise<void>;
}

const MAX_TIMER_MS = 2_147_483_647;

export class SandboxClock {
  private offsetMs = 0;
  /** While a task runs the clock stands still at its due time, so retries land exactly. */
  private pinnedMs: number | undefined;
  private queue: Scheduled[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;
  /** Work started by tasks that finishes later in real time (webhook attempts in flight). */
  private readonly background = new Set<Background>();
  /** Errors thrown by tasks; a task must never take the scheduler down. */
  readonly taskErrors: { label: string; error: unknown }[] = [];

  constructor(startMs?: number) {
    if (startMs !== undefined) this.offsetMs = startMs - Date.now();
  }

  nowMs(): number {
    return this.pinnedMs ?? Date.now() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  iso(): string {
    return this.now().toISOString();
  }

  schedule(at: number, label: string, run: Task): ScheduledHandle {
    const entry: Scheduled = { at, seq: this.seq++, label, run, cancelled: false };
    // Keep the queue sorted by (at, seq); inserts are rare compared to reads.
    let i = this.queue.length;
    while (i > 0) {
      const prev = this.queue[i - 1]!;
      if (prev.at < at || (prev.at === at && prev.seq < entry.seq)) break;
      i--;
    }
    this.queue.splice(i, 0, entry);
    this.arm();
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  scheduleIn(seconds: number, label: string, run: Task): ScheduledHandle {
    return this.schedule(this.nowMs() + seconds * 1000, label, run);
  }

  /**
   * Work a task started and that finishes later in real time (a webhook attempt in flight), so
   * tasks close together in sandbox time can overlap in real time. Nothing due at or after
   * `horizon` (the earliest moment the work could schedule a follow-up) runs before it is done,
   * and advance/runDue wait for it, so the order in sandbox time is kept.
   */
  track(horizon: number, work: Promise<unknown>): void {
    const entry: Background = {
      horizon,
      done: work.then(
        () => undefined,
        (error: unknown) => {
          this.taskErrors.push({ label: 'background work', error });
        },
      ),
    };
    this.background.add(entry);
    void entry.done.then(() => this.background.delete(entry));
  }

  pending(): number {
    return this.queue.filter((t) => !t.cancelled).length;
  }

  /** Moves the clock forward and runs everything that falls due, in time order. */
  advance(seconds: number): Promise<Date> {
    const target = this.nowMs() + seconds * 1000;
    return this.serial(async () => {
      await this.drain(target);
      if (this.nowMs() < target) this.offsetMs = target - Date.now();
    }).then(() => this.now());
  }

  /** Runs the tasks already due at the current time (used after a change that fires events). */
  runDue(): Promise<void> {
    return this.serial(() => this.drain(this.nowMs()));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const next = this.running.then(fn, fn);
    this.running = next.catch(() => undefined);
    return next;
  }

  private async drain(until: number): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const next = this.queue[0];
      const due = next && next.at <= until ? next : undefined;
      if (this.background.size > 0) {
        let horizon = Infinity;
        for (const b of this.background) horizon = Math.min(horizon, b.horizon);
        if (!due || due.at >= horizon) {
          // The clock stands still while it waits, as it does while a task runs.
          const anchor = this.nowMs();
          const waiting = [...this.background];
          await Promise.all(waiting.map((b) => b.done));
          for (const b of waiting) this.background.delete(b);
          this.offsetMs = anchor - Date.now();
          continue;
        }
      }
      if (!due) break;
      this.queue.shift();
      if (due.cancelled) continue;
      // While a task runs, the clock reads its due time, so what it stamps is in time order.
      const at = Math.max(due.at, this.nowMs());
      this.pinnedMs = at;
      try {
        await due.run();
      } catch (error) {
        this.taskErrors.push({ label: due.label, error });
      } finally {
        this.pinnedMs = undefined;
        this.offsetMs = at - Date.now();
      }
    }
    this.arm();
  }

  private arm(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.queue.find((t) => !t.cancelled);
    if (!next) return;
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, next.at - this.nowMs()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runDue();
    }, wait);
  }
}
