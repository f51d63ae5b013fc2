/**
 * The order number inside a reference a purchase attempt made (`LUM-10421-1A2B3C4D` →
 * `LUM-10421`: the attempt id is 8 hex digits of a UUID; see orderReferenceFor in
 * src/core/packing/label-purchase.ts), or null for a reference of another form, such as that of
 * a label bought outside Shipping Station.
 */
export function orderNumberInReference(reference: string): string | null {
  return /^(.+)-[0-9A-F]{8}$/.exec(reference)?.[1] ?? null;
}
