import type { KeyboardEvent } from 'react';

/**
 * A label list's moves (History, this station's or the whole site's): ↑/↓ between rows, ↑ from
 * the first back to the search box, Home and End. Returns false for any other key, which the
 * list handles itself.
 */
export function moveInList(
  e: KeyboardEvent,
  i: number,
  count: number,
  select: (i: number) => void,
  toSearch: () => void,
): boolean {
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    const next = i + (e.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) toSearch();
    else select(Math.min(next, count - 1));
  } else if (e.key === 'Home') select(0);
  else if (e.key === 'End') select(count - 1);
  else return false;
  e.preventDefault();
  return true;
}
