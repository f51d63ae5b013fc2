import { deadlineWords } from '../../shared/deadlines.js';

/**
 * A call's time budget: one deadline for the token wait, every attempt and the backoff between
 * them, so the caller hears within it however many steps the call takes.
 */

/** The shortest an attempt is worth starting with (ms). */
export const MIN_ATTEMPT_MS = 250;

/** Whether an attempt after `delayMs` of backoff would still have a useful time left. */
export function roomForAnother(deadline: number, delayMs: number): boolean {
  return performance.now() + delayMs + MIN_ATTEMPT_MS <= deadline;
}

/** One attempt's timeout: its own limit, cut to what is left of the deadline (at least 1 ms). */
export function attemptTimeout(limitMs: number, deadline: number): number {
  return Math.max(1, Math.round(Math.min(limitMs, deadline - performance.now())));
}

/**
 * `pending`, or `onExpiry()`'s error once the deadline passes (whichever comes first). The
 * promise left behind is not reported as unhandled.
 */
export async function withinDeadline<V>(
  pending: Promise<V>,
  deadline: number,
  onExpiry: (leftMs: number) => Error,
): Promise<V> {
  const left = deadline - performance.now();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onExpiry(left)), Math.max(0, left));
  });
  pending.catch(() => {});
  try {
    return await Promise.race([pending, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** "250 ms", "8 s": a second or more is said as the Pack screen says a deadline. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : deadlineWords(ms);
}

/**
 * A call given up after more than one attempt without an answer: its message says how many and
 * how long in all, not only one attempt's limit ("no answer within 8 s" after 24 s of waiting
 * read as a broken deadline to the shift lead who waited).
 */
export function saidWithTries(error: unknown, attempts: number, startedAt: number): unknown {
  if (attempts < 2 || !(error instanceof Error)) return error;
  const waited = seconds(performance.now() - startedAt);
  error.message = error.message.replace(
    /\(no answer within ([^()]+)\)/,
    (_, limit: string) => `(no answer within ${limit}; asked ${attempts} times in ${waited})`,
  );
  return error;
}
