import type { Steps } from './slices.js';
import type { ImportProgress } from './types.js';

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The top-level items of a JSON array, each as its own slice of the text, found in steps that
 * yield every 64 KB. One JSON.parse of a 20 MB file holds the station for a second or more;
 * parsing item by item lets the import pause between them. Returns null when the text is not
 * a plain top-level array (an object such as `{ "orders": [...] }`, or broken JSON): the caller
 * then parses it whole, which also gives the exact error.
 */
export function* topLevelItems(text: string): Steps<ImportProgress, string[] | null> {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 0x5b) return null;
  i++;
  const items: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  let afterComma = false;
  for (; i < n; i++) {
    if ((i & 0xffff) === 0) yield { phase: 'reading', done: Math.round((i / n) * 100), total: 100 };
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      if (start < 0) start = i;
    } else if (c === 0x5b || c === 0x7b) {
      if (start < 0) start = i;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) {
        depth--;
        continue;
      }
      // The array's own closing bracket: nothing but space may follow it.
      if (c !== 0x5d || (start < 0 && afterComma)) return null;
      if (start >= 0) items.push(text.slice(start, i));
      for (let j = i + 1; j < n; j++) if (!isSpace(text.charCodeAt(j))) return null;
      return items;
    } else if (c === 0x2c && depth === 0) {
      if (start < 0) return null;
      items.push(text.slice(start, i));
      start = -1;
      afterComma = true;
    } else if (start < 0 && !isSpace(c)) start = i;
  }
  return null;
}

/**
 * A JSON text that stops inside a string, an array or an object: its writer is not done with it
 * (a hot folder file written in bursts), where a finished file that is broken is not.
 */
export function unfinishedJson(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return inString || depth > 0;
}
