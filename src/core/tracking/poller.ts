import type { PlatformClient } from '../platform/client.js';
import type { Tracker } from '../platform/schemas.js';
import { isPlatformError } from '../platform/errors.js';
import type { TrackerStore } from './store.js';
import type { TrackerChange, TrackingScope } from './types.js';

export interface TrackerPollerOptions {
  client: Pick<PlatformClient, 'listTrackers' | 'environment'>;
  store: TrackerStore;
  scope: TrackingScope;
  /** Between successful polls (default 60 s), ± `jitter`. */
  intervalMs?: number;
  /** Fraction of the delay added or removed at random, so stations do not poll in step (default 0.2). */
  jitter?: number;
  /** Backoff ceiling after failures (default 15 min). */
  maxBackoffMs?: number;
  /**
   * updatedSince = newest updatedAt seen minus this (default 60 s). A tracker written a moment
   * late with a slightly older updatedAt is still caught; the re-read ones change nothing.
   */
  overlapMs?: number;
  /**
   * Page size asked of the server (default 1000, the sandbox's most; the specification does not
   * say one, and a platform that gives fewer per page is simply read page by page).
   */
  pageSize?: number;
  /** Safety stop for a server whose cursor never ends (default 10,000 pages). */
  maxPages?: number;
  random?: () => number;
  now?: () => Date;
  /**
   * Called with each page's trackers after they are stored locally (the site's tracker leader
   * writes them to the site store here); a rejection fails the pass, so the watermark stays.
   */
  onPage?: (trackers: readonly Tracker[]) => Promise<void>;
  /** Injected by tests to see and drive the schedule without waiting. */
  timers?: {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
  };
}

export interface PollResult {
  pages: number;
  /** Trackers the server returned (including unchanged ones). */
  received: number;
  changes: TrackerChange[];
  /** The updatedSince sent, or null for a full read. */
  updatedSince: string | null;
  watermarkMs: number | null;
}

export interface PollerStatus {
  running: boolean;
  polling: boolean;
  consecutiveFailures: number;
  lastError: Error | null;
  lastSuccessAt: Date | null;
  /** Delay chosen for the next scheduled poll, null when not scheduled. */
  nextDelayMs: number | null;
}

type Listener<T> = (value: T) => void;

/**
 * Keeps the local trackers in step with GET /api/v1/trackers: incremental (updatedSince), every
 * page of each pass, newer-wins upserts in one transaction per page, changes emitted after each
 * commit. Survives a server that ignores updatedSince (a full read changes nothing already
 * stored), pages out of order, and a cursor that repeats. The watermark only advances after a
 * complete pass, so a pass cut short is simply read again.
 */
export class TrackerPoller {
  private readonly o: Required<Omit<TrackerPollerOptions, 'timers' | 'onPage'>> &
    Pick<TrackerPollerOptions, 'onPage'>;
  private readonly timers: NonNullable<TrackerPollerOptions['timers']>;
  private timer: unknown = undefined;
  private inflight: Promise<PollResult> | null = null;
  private abort: AbortController | null = null;
  private running = false;
  private failures = 0;
  private lastError: Error | null = null;
  private lastSuccessAt: Date | null = null;
  private nextDelayMs: number | null = null;
  private readonly changeListeners = new Set<Listener<TrackerChange[]>>();
  private readonly errorListeners = new Set<Listener<Error>>();

  constructor(options: TrackerPollerOptions) {
    if (options.client.environment !== options.scope.environment) {
      throw new Error(
        `The tracker poller for ${options.scope.environment} was given a ${options.client.environment} client; identifiers never cross environments`,
      );
    }
    this.o = {
      intervalMs: 60_000,
      jitter: 0.2,
      maxBackoffMs: 15 * 60_000,
      overlapMs: 60_000,
      pageSize: 1000,
      maxPages: 10_000,
      random: Math.random,
      now: () => new Date(),
      ...options,
    };
    this.timers = options.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    };
  }

  /** Sets (or clears) the onPage hook after construction (the site's tracker leader does). */
  setPageSink(sink: TrackerPollerOptions['onPage'] | null): void {
    if (sink) this.o.onPage = sink;
    else delete this.o.onPage;
  }

  onChanges(listener: Listener<TrackerChange[]>): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onError(listener: Listener<Error>): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  status(): PollerStatus {
    return {
      running: this.running,
      polling: this.inflight !== null,
      consecutiveFailures: this.failures,
      lastError: this.lastError,
      lastSuccessAt: this.lastSuccessAt,
      nextDelayMs: this.nextDelayMs,
    };
  }

  /** Polls at once, then on the interval. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Stops the schedule and cancels a poll in flight; resolves once it has stopped. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.nextDelayMs = null;
    this.abort?.abort();
    await this.inflight?.catch(() => undefined);
  }

  /** One complete pass now (joins a pass already running). Rejects with the failure. */
  pollNow(): Promise<PollResult> {
    if (this.inflight) return this.inflight;
    const abort = new AbortController();
    this.abort = abort;
    const pass = this.pass(abort.signal).then(
      (result) => {
        this.failures = 0;
        this.lastError = null;
        this.lastSuccessAt = this.o.now();
        return result;
      },
      (error: unknown) => {
        const err = error instanceof Error ? error : new Error(String(error));
        // Cancelled by stop(): not a failure of the platform.
        if (abort.signal.aborted) throw err;
        this.failures++;
        this.lastError = err;
        this.o.store.recordFailure(this.o.scope, err.message, this.o.now().toISOString());
        throw err;
      },
    );
    this.inflight = pass.finally(() => {
      this.inflight = null;
      this.abort = null;
    });
    return this.inflight;
  }

  /** The delay before the next poll: the interval, or a doubling backoff after failures; jittered. */
  delayAfter(failures: number): number {
    const base =
      failures === 0
        ? this.o.intervalMs
        : Math.min(this.o.maxBackoffMs, this.o.intervalMs * 2 ** failures);
    const spread = base * this.o.jitter;
    return Math.max(0, Math.round(base - spread + 2 * spread * this.o.random()));
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.nextDelayMs = delayMs;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, delayMs);
  }

  private async tick(): Promise<void> {
    try {
      await this.pollNow();
    } catch (error) {
      if (this.running) this.emit(this.errorListeners, error as Error);
    }
    // A platform that said how long to wait (Retry-After on a 429 or 503) is not asked sooner.
    const asked = isPlatformError(this.lastError) ? (this.lastError.retryAfterMs ?? 0) : 0;
    this.schedule(Math.max(this.delayAfter(this.failures), asked));
  }

  private async pass(signal: AbortSignal): Promise<PollResult> {
    const { scope, store, client } = this.o;
    const sync = store.syncState(scope);
    const updatedSince =
      sync.watermarkMs === null
        ? null
        : new Date(Math.max(0, sync.watermarkMs - this.o.overlapMs)).toISOString();
    let newest = sync.watermarkMs;
    const changes: TrackerChange[] = [];
    const seenCursors = new Set<string>();
    let pages = 0;
    let received = 0;
    const fetchPage = (cursor: string | undefined) =>
      client.listTrackers(
        {
          limit: this.o.pageSize,
          ...(updatedSince ? { updatedSince } : {}),
          ...(cursor ? { cursor } : {}),
        },
        { tenantId: scope.tenantId, signal },
      );
    let pending = fetchPage(undefined);
    for (;;) {
      const page = await pending;
      pages++;
      received += page.items.length;
      const next = page.nextCursor;
      const more =
        page.hasMore && next !== null && !seenCursors.has(next) && pages < this.o.maxPages;
      if (more) {
        // The next page is asked for before this one is stored, so the platform prepares it
        // while SQLite works; one turn of the event loop lets the request leave first. A
        // failure surfaces when it is awaited, and the pass fails as before.
        seenCursors.add(next);
        pending = fetchPage(next);
        pending.catch(() => {});
        await new Promise((resolve) => setImmediate(resolve));
      }
      const { changes: pageChanges, newestMs } = store.ingestPage(
        scope,
        page.items,
        this.o.now().toISOString(),
      );
      if (this.o.onPage) await this.o.onPage(page.items);
      if (newestMs !== null && (newest === null || newestMs > newest)) newest = newestMs;
      if (pageChanges.length > 0) {
        changes.push(...pageChanges);
        this.emit(this.changeListeners, pageChanges);
      }
      if (!more) break;
    }
    store.recordSuccess(scope, newest, this.o.now().toISOString());
    return { pages, received, changes, updatedSince, watermarkMs: newest };
  }

  private emit<T>(listeners: Set<Listener<T>>, value: T): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch {
        // A listener's bug must not stop tracking.
      }
    }
  }
}
