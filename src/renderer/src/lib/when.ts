/**
 * A time as History, Site History and the reprint audits all write it: "11/28, 15:22" (the
 * station's locale order, 24-hour), with the year when it is not this year's.
 */
export function when(iso: string, now = new Date()): string {
  const at = new Date(iso);
  return at.toLocaleString(undefined, {
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

/**
 * A time of day as the rest of the station writes it: "18:39" (24-hour, no seconds). Every
 * view uses this or `when` (until 2026-11-29 Settings → Site store showed "6:39:23 PM" beside
 * "18:39" in its list of stations).
 */
export function clock(at: string | number | Date): string {
  return new Date(at).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}

/** Today's time as `clock` ("18:39"), another day's as `when` ("11/28, 15:22"). */
export function clockOrWhen(at: string | number | Date, now = new Date()): string {
  const d = new Date(at);
  return d.toDateString() === now.toDateString() ? clock(d) : when(d.toISOString(), now);
}
