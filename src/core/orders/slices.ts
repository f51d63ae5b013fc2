import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Long work (an order file of 100,000 rows) written once as a generator that yields at safe
 * points, and run either at once (small files, tests) or in slices that give the event loop
 * back every few milliseconds, so the station keeps answering scans while it imports.
 */
export type Steps<P, R> = Generator<P, R, void>;

/** Runs the steps to the end without pausing. */
export function runAtOnce<P, R>(steps: Steps<P, R>): R {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export interface SliceOptions<P> {
  /** Work this long, then let other calls run (default 15 ms). */
  sliceMs?: number;
  /** Called between slices with the latest progress (at most every `progressMs`, default 250). */
  onProgress?: (progress: P) => void;
  progressMs?: number;
}

/** Runs the steps in slices of about `sliceMs`, yielding to the event loop in between. */
export async function runInSlices<P, R>(
  steps: Steps<P, R>,
  options: SliceOptions<P> = {},
): Promise<R> {
  const sliceMs = options.sliceMs ?? 15;
  const progressMs = options.progressMs ?? 250;
  let sliceStart = performance.now();
  let reported = -Infinity;
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    const now = performance.now();
    if (now - sliceStart < sliceMs) continue;
    if (options.onProgress && now - reported >= progressMs) {
      reported = now;
      options.onProgress(next.value);
    }
    await nextTurn();
    sliceStart = performance.now();
  }
}
