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
    return sameValue(JSON.parse(a), JSON.parse(b));
  } catch {
    return false;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return (
      a.length === (b as unknown[]).length && a.every((v, i) => sameValue(v, (b as unknown[])[i]))
    );
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(x);
  return (
    keys.length === Object.keys(y).length &&
    keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && sameValue(x[k], y[k]))
  );
}
