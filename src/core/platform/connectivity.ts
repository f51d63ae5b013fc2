/**
 * "Is the platform reachable?" for the offline queue and the header. Every HTTP attempt
 * reports here: no answer at all (refused, reset, timeout) or a 5xx counts as a failure; any
 * other answer, even a 4xx, proves the platform is there. After `threshold` failures in a row
 * the platform is `offline` until the next answer.
 */

export type ConnectivityState = 'unknown' | 'online' | 'offline';

export interface ConnectivitySnapshot {
  state: ConnectivityState;
  /** Network errors and 5xx in a row, across every call of the client. */
  consecutiveFailures: number;
  lastFailure: { at: number; status: number | null; detail: string } | null;
  lastSuccessAt: number | null;
}

export type ConnectivityListener = (snapshot: ConnectivitySnapshot) => void;

export class ConnectivityMonitor {
  private snap: ConnectivitySnapshot = {
    state: 'unknown',
    consecutiveFailures: 0,
    lastFailure: null,
    lastSuccessAt: null,
  };
  private readonly listeners = new Set<ConnectivityListener>();

  constructor(
    private readonly threshold = 3,
    private readonly now: () => number = Date.now,
  ) {}

  snapshot(): ConnectivitySnapshot {
    return { ...this.snap };
  }

  get reachable(): boolean {
    return this.snap.state !== 'offline';
  }

  recordAnswer(): void {
    const before = this.snap.state;
    this.snap = {
      ...this.snap,
      state: 'online',
      consecutiveFailures: 0,
      lastSuccessAt: this.now(),
    };
    if (before !== 'online') this.emit();
  }

  recordFailure(status: number | null, detail: string): void {
    const before = this.snap.state;
    const consecutiveFailures = this.snap.consecutiveFailures + 1;
    this.snap = {
      ...this.snap,
      consecutiveFailures,
      lastFailure: { at: this.now(), status, detail },
      state: consecutiveFailures >= this.threshold ? 'offline' : before,
    };
    if (this.snap.state !== before) this.emit();
  }

  /** Called on every change of state; returns an unsubscribe function. */
  onChange(listener: ConnectivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    const snap = this.snapshot();
    for (const listener of this.listeners) {
      try {
        listener(snap);
      } catch {
        // A listener's bug must not break the request that reported the state.
      }
    }
  }
}
