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
