import { clockTime } from './claims.js';

/** A time of the site's as a station says it: "14:05" today, "Nov 27 14:05" another day. */
export function whenSaid(at: Date, now = new Date()): string {
  const hhmm = clockTime(at);
  return at.toDateString() === now.toDateString()
    ? hhmm
    : `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} ${hhmm}`;
}
