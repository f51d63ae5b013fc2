/**
 * Every reply that crosses the contract is a Result (Signal's wrapResult, Actual's errors.ts):
 * the renderer never sees a thrown exception, only a stable code it can act on and a message
 * written for the person at the station.
 */
export const errorCodes = [
  'validation',
  'not-found',
  'no-profile',
  'printer-offline',
  'printer-fault',
  'connection-not-authorized',
  'purchase-outcome-unknown',
  'purchase-failed',
  'already-labelled',
  'platform-unreachable',
  'platform-rejected',
  'auth-failed',
  'tenant-forbidden',
  'no-rates',
  'secret-storage-unavailable',
  /** The active profile has no client secret (keychain empty, environment variable unset). */
  'secret-missing',
  'not-available',
  'conflict',
  'order-claimed-elsewhere',
  /** A shift lead cancelled the order (here, or at another station of the site). */
  'order-cancelled',
  /**
   * The order was imported again (here, or at another station of the site) with another ship-to,
   * weight or box since it was rated: those rates were not bought. `details.changed` says what
   * changed; Pack shows the order as it is now and rates it again.
   */
  'order-changed',
  'site-store-unreachable',
  /** Users are set up and nobody is signed in at this station (issue 14). */
  'sign-in-required',
  /** The action needs a shift lead: a lead scans their badge at this station to approve. */
  'lead-required',
  /** The page lost its station host (the web host or the app's main process stopped). */
  'host-lost',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface StationError {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: StationError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string, details?: unknown): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
});

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

/**
 * A message as a sentence, ended: some messages are phrases without the final stop (the
 * platform client's, so that a reference or a reason can follow), and a caller that goes on
 * after one ends it first.
 */
export function asSentence(text: string): string {
  const t = text.trimEnd();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
