/**
 * Bearer tokens: cached per (base URL, clientId, tenant), renewed in the background about a
 * minute before expiry, one token request at a time (single-flight). A call only waits for a
 * token when there is no valid one at all: the very first call, or after an expiry the
 * background renewal could not prevent (the station slept, the platform was down). The old
 * token stays in use until the new one arrives: the platform keeps it valid for calls in flight.
 */

export interface IssuedToken {
  accessToken: string;
  /** Local clock, ms. Measured from when the request was sent, so it errs early. */
  issuedAt: number;
  expiresAt: number;
  /** When to renew in the background: a minute before expiry (or half-life for short tokens). */
  refreshAt: number;
}

interface TokenSlot {
  token?: IssuedToken;
  inflight?: Promise<IssuedToken>;
  /** After a failed background renewal, wait before trying again (ms, local clock). */
  retryBackgroundAt?: number;
}

/**
 * Where tokens live. One per app is the usual choice, so every client of one profile (the
 * packing workflow, the poller, the queue drainer) shares one token and one renewal.
 */
export class TokenStore {
  private readonly slots = new Map<string, TokenSlot>();

  static key(baseUrl: string, clientId: string, tenantId: string): string {
    return JSON.stringify([baseUrl.replace(/\/+$/, ''), clientId, tenantId]);
  }

  slot(key: string): TokenSlot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {};
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** Forget a cached token (e.g. after the profile's secret changed). */
  forget(key: string): void {
    this.slots.delete(key);
  }
}

export interface TokenStats {
  /** Token requests sent (first, background, after a 401). */
  tokenFetches: number;
  tokenFetchFailures: number;
  /** Renewals started ahead of expiry while the old token was still in use. */
  backgroundRefreshes: number;
  /** Calls that had to wait for a token request before they could be sent. */
  requestsWaitedForToken: number;
  /** Calls answered 401 that re-authenticated once and were sent again. */
  reauthenticatedRetries: number;
}

export interface TokenManagerOptions {
  key: string;
  store: TokenStore;
  /** Performs POST /api/v1/tokens/m2m; returns the token and its lifetime in seconds. */
  issue: () => Promise<{ accessToken: string; expiresInSeconds: number }>;
  now: () => number;
  /** Renew this long before expiry (default 60 s, the spec's "about one minute"). */
  refreshMarginMs?: number;
  /** Also renew on a timer, so an idle station has a fresh token at the next scan (default true). */
  proactive?: boolean;
  /** How long to leave the platform alone after a background renewal failed (default 5 s). */
  backgroundRetryMs?: number;
}

export class TokenManager {
  readonly stats: TokenStats = {
    tokenFetches: 0,
    tokenFetchFailures: 0,
    backgroundRefreshes: 0,
    requestsWaitedForToken: 0,
    reauthenticatedRetries: 0,
  };
  /**
   * The platform refused the key at its last token request (a wrong secret or client id,
   * a key revoked): the message said, until a token is issued again. Not an outage: the
   * platform answers, and no retry mends it.
   */
  refused: { message: string; at: number } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly margin: number;

  constructor(private readonly options: TokenManagerOptions) {
    this.margin = options.refreshMarginMs ?? 60_000;
  }

  private get slot(): TokenSlot {
    return this.options.store.slot(this.options.key);
  }

  /**
   * A token to send now. `waited` says whether this call had to wait for a token request.
   * A token in its renewal window is still returned at once; the renewal runs beside it.
   */
  async current(): Promise<{ accessToken: string; waited: boolean }> {
    const token = this.slot.token;
    const now = this.options.now();
    if (token && now < token.expiresAt) {
      if (now >= token.refreshAt) this.renewInBackground();
      return { accessToken: token.accessToken, waited: false };
    }
    this.stats.requestsWaitedForToken++;
    const fresh = await this.fetch();
    return { accessToken: fresh.accessToken, waited: true };
  }

  /**
   * The platform answered 401 to `rejected`. Renew once (joining a renewal already running, or
   * taking a token that another call already got) and return the token to retry with.
   */
  async afterRejection(rejected: string): Promise<string> {
    this.stats.reauthenticatedRetries++;
    const slot = this.slot;
    const token = slot.token;
    if (token && token.accessToken !== rejected && this.options.now() < token.expiresAt) {
      return token.accessToken;
    }
    if (token?.accessToken === rejected) delete slot.token;
    this.stats.requestsWaitedForToken++;
    return (await this.fetch()).accessToken;
  }

  /** Starts a renewal unless one is running or a failed one asked to wait. Never throws. */
  renewInBackground(): void {
    const slot = this.slot;
    if (slot.inflight || this.closed) return;
    if (slot.retryBackgroundAt !== undefined && this.options.now() < slot.retryBackgroundAt) return;
    this.stats.backgroundRefreshes++;
    this.fetch().then(
      () => {
        delete this.slot.retryBackgroundAt;
      },
      () => {
        this.slot.retryBackgroundAt = this.options.now() + (this.options.backgroundRetryMs ?? 5000);
      },
    );
  }

  /** Single-flight: every caller during a token request shares its promise. */
  private fetch(): Promise<IssuedToken> {
    const slot = this.slot;
    if (slot.inflight) return slot.inflight;
    const issuedAt = this.options.now();
    this.stats.tokenFetches++;
    const inflight = this.options
      .issue()
      .then(({ accessToken, expiresInSeconds }) => {
        const lifetime = expiresInSeconds * 1000;
        const token: IssuedToken = {
          accessToken,
          issuedAt,
          expiresAt: issuedAt + lifetime,
          refreshAt: issuedAt + Math.max(lifetime - this.margin, lifetime / 2),
        };
        slot.token = token;
        this.refused = null;
        this.schedule(token);
        return token;
      })
      .catch((error: unknown) => {
        this.stats.tokenFetchFailures++;
        if ((error as { kind?: unknown }).kind === 'auth')
          this.refused = { message: (error as Error).message, at: this.options.now() };
        throw error;
      })
      .finally(() => {
        if (slot.inflight === inflight) delete slot.inflight;
      });
    slot.inflight = inflight;
    return inflight;
  }

  private schedule(token: IssuedToken): void {
    if (this.options.proactive === false || this.closed) return;
    clearTimeout(this.timer);
    const delay = Math.max(0, token.refreshAt - this.options.now());
    // Timers beyond ~24.8 days overflow; tokens never live that long, but stay safe.
    this.timer = setTimeout(
      () => {
        if (this.slot.token === token) this.renewInBackground();
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    this.timer.unref();
  }

  /** Drops the cached token (the profile's secret or tenant changed); the next call gets a new one. */
  forget(): void {
    clearTimeout(this.timer);
    this.options.store.forget(this.options.key);
  }

  /** Resolves once no token request is running (for shutdown and tests). */
  async settled(): Promise<void> {
    await this.slot.inflight?.catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}
