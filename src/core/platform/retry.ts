import { PlatformError } from './errors.js';

/** When a failed call is sent again, and how long to wait before it. */

export interface RetryPolicy {
  /** Total attempts for a repeatable request (default 3). */
  attempts: number;
  /** First backoff ceiling; doubles each retry, full jitter (default 250 ms). */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Whether a failure is worth another attempt: no answer or a 5xx/429, on a call of
 * `operation` that is not the token request's own failure (that one was already retried within
 * its own deadline).
 */
export function worthRetrying(error: unknown, operation: string): boolean {
  return (
    error instanceof PlatformError &&
    (error.kind === 'network' || error.kind === 'retryable') &&
    !(error.operation === 'issueToken' && operation !== 'issueToken')
  );
}

/** The longest wait a `Retry-After` is taken at; a longer one is read as this. */
export const RETRY_AFTER_MAX_MS = 60 * 60_000;

/**
 * A `Retry-After` header in milliseconds from `nowMs`: delay-seconds ("30") or an HTTP date
 * ("Wed, 21 Oct 2026 07:28:00 GMT"), at most RETRY_AFTER_MAX_MS. Null when there is none or it
 * cannot be read (the station's own backoff applies then). The specification shows no rate
 * limit; a platform that sends one with a 429 or 503 is taken at its word.
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at) || !/[a-z]/i.test(value)) return null;
    ms = at - nowMs;
  }
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, Math.round(ms)));
}

/** Full-jitter exponential backoff before attempt `attempt + 1`. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return random() * ceiling;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
