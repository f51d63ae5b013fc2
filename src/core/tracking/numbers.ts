/**
 * Whether what a person typed or scanned looks like a carrier tracking number rather than an
 * order number: all digits (USPS, FedEx: six or more), UPS's `1Z…`, or two letters then a digit
 * (international postal items such as `LX123456789US`). A guess for which search to try first;
 * callers try the other one when it finds nothing.
 */
export function looksLikeTrackingNumber(text: string): boolean {
  return /^\d{6,}$|^1Z|^[A-Z]{2}\d/.test(text.trim());
}
