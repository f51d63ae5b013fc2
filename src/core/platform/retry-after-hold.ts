import { capabilityOf, type PlatformCapability } from './connectivity.js';
import { PlatformError } from './errors.js';
import type { Exchange } from './exchange-errors.js';

/**
 * A platform's `Retry-After` (on a 429 or 503) remembered past the call that heard it, for rate
 * requests and label purchases: until it is over, a new call of that kind is not sent at all and
 * fails at once, saying how long is left. Without it the platform's "wait 30 s" held only the
 * call's own retries: the packer's next scan asked again within seconds, and a purchase went out
 * into the same limit (a 429 on a purchase is an outcome for a shift lead to look up). A held
 * purchase is never sent, so it is queued and bought once the wait is over.
 *
 * The token request and the tracker list keep their own handling (the token manager's retries,
 * the poller's pause); other requests are not held.
 */
const HELD: ReadonlySet<PlatformCapability> = new Set(['rates', 'labels']);

/**
 * The longest the packers' requests are held: a platform (or a proxy in front of it) that says
 * "an hour" would otherwise stop every scan for an hour; after two minutes one request tries
 * again, and a refusal holds again. The offline queue and the pre-rater keep the whole wait.
 */
export const HOLD_MAX_MS = 120_000;

export class RetryAfterHold {
  private readonly until = new Map<PlatformCapability, { at: number; status: number | null }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A call of `operation` failed with `error`: its Retry-After, if any, holds that capability. */
  heard(operation: string, error: unknown): void {
    if (!(error instanceof PlatformError) || !error.retryAfterMs) return;
    const capability = capabilityOf(operation);
    if (!HELD.has(capability)) return;
    const at = this.now() + Math.min(error.retryAfterMs, HOLD_MAX_MS);
    if ((this.until.get(capability)?.at ?? 0) < at)
      this.until.set(capability, { at, status: error.status });
  }

  /**
   * The error a call of `operation` fails with while its capability is held, else null (asked
   * before every call: the exchange is made only when it is held).
   */
  check(operation: string, exchange: () => Exchange): PlatformError | null {
    if (this.until.size === 0) return null;
    const capability = capabilityOf(operation);
    const held = this.until.get(capability);
    if (!held) return null;
    const x = exchange();
    const left = held.at - this.now();
    if (left <= 0) {
      this.until.delete(capability);
      return null;
    }
    const s = Math.ceil(left / 1000);
    const wait = s < 120 ? `${s} s` : `${Math.ceil(s / 60)} min`;
    const why = held.status === 429 ? 'too many requests, HTTP 429' : `HTTP ${held.status ?? '?'}`;
    return new PlatformError({
      // Never sent: a purchase held here bought nothing (`network`: not sent, so it may queue).
      kind: x.purchase ? 'network' : 'retryable',
      message: `The platform asked the station to wait before ${capability === 'rates' ? 'asking for rates' : 'buying labels'} again (${why}): ${wait} more. Nothing was sent`,
      operation: x.operation,
      method: x.method,
      path: x.path,
      tenantId: x.tenantId,
      status: null,
      retryAfterMs: left,
    });
  }
}
