/**
 * "Can the station pack right now?" for the offline queue and the header, judged per
 * capability of the platform: the token endpoint, rates, labels, trackers (and everything
 * else). Every HTTP attempt reports here: no answer at all (reset, timeout) or a 5xx counts
 * as a failure of that capability; any other answer, even a 4xx, proves it works. After
 * `threshold` failures in a row a capability is `offline` until its next answer.
 *
 * Packing needs a token, rates and labels; a failing tracker list (or carrier account list)
 * never makes the station queue scans: it shows as "tracking delayed" instead. A connection
 * that cannot even be opened (refused, DNS) is the whole host: it counts against every
 * capability, and any answer from any route clears it.
 */

export type ConnectivityState = 'unknown' | 'online' | 'offline';

export type PlatformCapability = 'token' | 'rates' | 'labels' | 'trackers' | 'other';

/** What packing needs: without any of these a scan is queued. */
export const PACKING_CAPABILITIES: readonly PlatformCapability[] = ['token', 'rates', 'labels'];

const CAPABILITIES: readonly PlatformCapability[] = [
  'token',
  'rates',
  'labels',
  'trackers',
  'other',
];

/** The capability an operation of the client exercises. */
export function capabilityOf(operation: string): PlatformCapability {
  switch (operation) {
    case 'issueToken':
      return 'token';
    case 'getRates':
      return 'rates';
    // Buying labels: a purchase, or the station's own question of the purchase route while
    // purchases fail (PlatformProbe). A label's file (getLabelZpl) is another route: its answer
    // says nothing of whether purchases go through.
    case 'purchaseLabel':
    case 'probeLabelRoute':
      return 'labels';
    case 'listTrackers':
      return 'trackers';
    default:
      return 'other';
  }
}

export interface Failure {
  at: number;
  status: number | null;
  detail: string;
}

export interface CapabilitySnapshot {
  state: ConnectivityState;
  consecutiveFailures: number;
  lastFailure: Failure | null;
  lastSuccessAt: number | null;
  /** When the current streak of failures began (null: answering). */
  failingSince: number | null;
}

export interface ConnectivitySnapshot {
  /** For packing: `offline` when the token, rates or labels (or the host itself) fail. */
  state: ConnectivityState;
  /** The longest failure streak among what packing needs. */
  consecutiveFailures: number;
  /** The latest failure among what packing needs. */
  lastFailure: Failure | null;
  lastSuccessAt: number | null;
  capabilities: Record<PlatformCapability, CapabilitySnapshot>;
}

export type ConnectivityListener = (snapshot: ConnectivitySnapshot) => void;

const fresh = (): CapabilitySnapshot => ({
  state: 'unknown',
  consecutiveFailures: 0,
  lastFailure: null,
  lastSuccessAt: null,
  failingSince: null,
});

export class ConnectivityMonitor {
  private readonly caps = new Map<PlatformCapability, CapabilitySnapshot>(
    CAPABILITIES.map((c) => [c, fresh()]),
  );
  /** Connections that could not be opened at all, in a row, on any route. */
  private host: CapabilitySnapshot = fresh();
  private lastSuccessAt: number | null = null;
  private readonly listeners = new Set<ConnectivityListener>();

  constructor(
    private readonly threshold = 3,
    private readonly now: () => number = Date.now,
  ) {}

  /** Packing's overall state, without building a snapshot (asked on every answer). */
  private overall(): ConnectivityState {
    if (!this.reachable) return 'offline';
    return this.lastSuccessAt !== null ? 'online' : 'unknown';
  }

  snapshot(): ConnectivitySnapshot {
    const packing = [...PACKING_CAPABILITIES.map((c) => this.caps.get(c)!), this.host];
    const offline = packing.some((c) => c.state === 'offline');
    const failures = packing.flatMap((c) => (c.lastFailure ? [c.lastFailure] : []));
    const capabilities = Object.fromEntries(
      CAPABILITIES.map((c) => [c, { ...this.caps.get(c)! }]),
    ) as Record<PlatformCapability, CapabilitySnapshot>;
    return {
      state: offline ? 'offline' : this.lastSuccessAt !== null ? 'online' : 'unknown',
      consecutiveFailures: Math.max(...packing.map((c) => c.consecutiveFailures)),
      lastFailure: offline
        ? failures.reduce<Failure | null>((a, b) => (a && a.at > b.at ? a : b), null)
        : null,
      lastSuccessAt: this.lastSuccessAt,
      capabilities,
    };
  }

  /** Whether packing can reach the platform (token, rates and labels not failing). */
  get reachable(): boolean {
    // Asked before every rating and purchase: no snapshot built for it.
    if (this.host.state === 'offline') return false;
    for (const c of PACKING_CAPABILITIES) if (this.caps.get(c)!.state === 'offline') return false;
    return true;
  }

  /**
   * Packing is offline, but its last failure is at least `afterMs` old: one request may try the
   * platform again (a packer's rating), so the station comes back when the platform does, not
   * only when something is queued and the queue's retry finds out.
   */
  mayTryAgain(afterMs = 5000): boolean {
    if (this.reachable) return true;
    let last = 0;
    for (const c of [...PACKING_CAPABILITIES.map((k) => this.caps.get(k)!), this.host])
      if (c.state === 'offline' && c.lastFailure) last = Math.max(last, c.lastFailure.at);
    return this.now() - last >= afterMs;
  }

  /**
   * Why packing cannot reach the platform, for the packer ("The platform has not answered rate
   * requests 3 times in a row (HTTP 503)."), or null while it can.
   */
  outage(): string | null {
    const words: Record<string, string> = {
      token: 'the token request',
      rates: 'rate requests',
      labels: 'label requests',
      host: 'any request (no connection could be opened)',
    };
    const failing = [
      ...PACKING_CAPABILITIES.map((c) => [c, this.caps.get(c)!] as const),
      ['host', this.host] as const,
    ].filter(([, c]) => c.state === 'offline');
    if (failing.length === 0) return null;
    const [name, cap] = failing.reduce((a, b) =>
      (a[1].lastFailure?.at ?? 0) >= (b[1].lastFailure?.at ?? 0) ? a : b,
    );
    const detail = cap.lastFailure ? ` (${cap.lastFailure.detail})` : '';
    return `The platform has not answered ${words[name]} ${cap.consecutiveFailures} times in a row${detail}.`;
  }

  /**
   * What packing needs that is offline while other requests of the platform were answered since
   * it began failing: the platform is there and those requests fail at it ("rates failing"), not
   * an outage of the platform or the network. Empty while packing is not offline, while the host
   * cannot be reached, or when nothing else answered since (the whole platform may be down).
   * The one that failed last comes first (the header names it: labels failing now, not the rates
   * that failed a while before and were not asked since).
   */
  failingAlone(): PlatformCapability[] {
    if (this.host.state === 'offline') return [];
    const offline = PACKING_CAPABILITIES.filter((c) => this.caps.get(c)!.state === 'offline');
    if (offline.length === 0) return [];
    const since = Math.min(...offline.map((c) => this.caps.get(c)!.failingSince ?? 0));
    const answered = CAPABILITIES.some(
      (c) => !offline.includes(c) && (this.caps.get(c)!.lastSuccessAt ?? -1) >= since,
    );
    const last = (c: PlatformCapability) => this.caps.get(c)!.lastFailure?.at ?? 0;
    return answered ? offline.sort((a, b) => last(b) - last(a)) : [];
  }

  /**
   * The latest failure of a capability while its requests go unanswered (a reset, a timeout, a
   * 5xx since its last answer), else null. Asked before every purchase: nothing is copied.
   */
  unanswered(capability: PlatformCapability): Failure | null {
    const c = this.caps.get(capability)!;
    return c.consecutiveFailures > 0 ? c.lastFailure : null;
  }

  /** One capability's state: `trackers` offline is "tracking delayed", not an outage. */
  capability(capability: PlatformCapability): CapabilitySnapshot {
    return { ...this.caps.get(capability)! };
  }

  recordAnswer(capability: PlatformCapability = 'other'): void {
    this.change(() => {
      const at = this.now();
      this.lastSuccessAt = at;
      this.caps.set(capability, {
        ...this.caps.get(capability)!,
        state: 'online',
        consecutiveFailures: 0,
        lastSuccessAt: at,
        failingSince: null,
      });
      this.host = {
        ...this.host,
        state: 'online',
        consecutiveFailures: 0,
        lastSuccessAt: at,
        failingSince: null,
      };
    });
  }

  /**
   * `hostWide`: the connection could not be opened (refused, DNS), so no route of the
   * platform can work either.
   */
  recordFailure(
    status: number | null,
    detail: string,
    capability: PlatformCapability = 'other',
    hostWide = false,
  ): void {
    this.change(() => {
      const failure = { at: this.now(), status, detail };
      const fail = (c: CapabilitySnapshot): CapabilitySnapshot => {
        const consecutiveFailures = c.consecutiveFailures + 1;
        return {
          ...c,
          consecutiveFailures,
          lastFailure: failure,
          failingSince: c.failingSince ?? failure.at,
          state: consecutiveFailures >= this.threshold ? 'offline' : c.state,
        };
      };
      this.caps.set(capability, fail(this.caps.get(capability)!));
      if (hostWide) this.host = fail(this.host);
    });
  }

  /** Called on every change of state (overall or of one capability); returns an unsubscribe function. */
  onChange(listener: ConnectivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private states(): string {
    return [
      this.overall(),
      this.host.state,
      ...CAPABILITIES.map((c) => this.caps.get(c)!.state),
      // Another route answering while rates fail changes what the header says.
      this.failingAlone().join('+'),
    ].join();
  }

  private change(apply: () => void): void {
    const before = this.states();
    apply();
    if (this.states() !== before) this.emit();
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
