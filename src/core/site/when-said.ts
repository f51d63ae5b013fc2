const two = (n: number) => String(n).padStart(2, '0');

/** A time of day as every screen of the station writes it: "14:05" (24-hour, no seconds). */
export function clockTime(at: Date): string {
  return `${two(at.getHours())}:${two(at.getMinutes())}`;
}

/**
 * A time in a station's sentence, in the screens' one format: "14:05" today, "11/27, 14:05"
 * another day, "11/27/2025, 14:05" another year (src/renderer/src/lib/when.ts writes the same).
 */
export function whenSaid(at: Date, now = new Date()): string {
  const hhmm = clockTime(at);
  if (at.toDateString() === now.toDateString()) return hhmm;
  const year = at.getFullYear() === now.getFullYear() ? '' : `/${at.getFullYear()}`;
  return `${two(at.getMonth() + 1)}/${two(at.getDate())}${year}, ${hhmm}`;
}
