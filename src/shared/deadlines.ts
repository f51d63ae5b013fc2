/**
 * The most one platform call may take, per capability: waiting for a token, every attempt and
 * every backoff together. The core enforces them; the Pack screen tells the packer what it is
 * waiting for and for how long. A scan is answered within these: rated, queued (nothing was
 * bought) or, for a label, "not confirmed" (a shift lead resolves it; never bought again by
 * itself). The tracker poll and the other background calls may take longer.
 */
export const PLATFORM_DEADLINES_MS = {
  token: 5_000,
  rates: 8_000,
  labels: 15_000,
  trackers: 30_000,
  other: 30_000,
} as const;

/** "8 s" */
export function deadlineWords(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
