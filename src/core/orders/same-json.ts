import { isDeepStrictEqual } from 'node:util';

/**
 * Whether two JSON texts hold the same value, whatever the order of their objects' keys: an
 * order fetched from the site store comes back from PostgreSQL's JSONB with its keys sorted
 * there, and the same order read from its file again must still be "the same" (it was taken for
 * a new version, and a labelled order was said to have changed).
 */
export function sameJson(a: string | null, b: string | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  try {
    return isDeepStrictEqual(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}
