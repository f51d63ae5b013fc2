import {
  kindForStatus,
  PlatformError,
  readErrorEnvelope,
  stationMessage,
  type PlatformErrorKind,
} from './errors.js';

/**
 * What went wrong in one HTTP exchange, as a PlatformError: no answer, an error answer, or a
 * 2xx the station cannot read. The kind decides what the station does next; the message is for
 * the person at the station.
 */

/** The exchange an error is about. */
export interface Exchange {
  operation: string;
  /** For messages: "the label", "the rate request". */
  what: string;
  method: string;
  /** The path without the query string. */
  path: string;
  tenantId: string;
  clientId: string;
  host: string;
  /** POST /api/v1/labels: a doubtful failure is `unknown-outcome`. */
  purchase: boolean;
}

/** Connect-phase failures: the request never left the station, so even a purchase is safe. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

export function wasNotSent(code: string): boolean {
  return NOT_SENT.has(code);
}

/** What a request that got no answer means: a purchase may have happened unless it never left. */
export function kindWithoutAnswer(x: Exchange, code: string): PlatformErrorKind {
  return x.purchase && !NOT_SENT.has(code) ? 'unknown-outcome' : 'network';
}

/** The kind of an error answer, from its status and the envelope's errorCode. */
export function kindOfAnswer(x: Exchange, status: number, text: string): PlatformErrorKind {
  return kindForStatus(status, readErrorEnvelope(parseJson(text), null).errorCode, x.purchase);
}

/** No HTTP answer arrived (refused, reset, DNS, timeout, or no token in time). */
export function noAnswerError(
  x: Exchange,
  kind: PlatformErrorKind,
  detail: string,
  cause?: unknown,
): PlatformError {
  return new PlatformError({
    kind,
    message: stationMessage({
      kind,
      what: x.what,
      tenantId: x.tenantId,
      clientId: x.clientId,
      host: x.host,
      status: null,
      envelope: null,
      detail,
    }),
    operation: x.operation,
    method: x.method,
    path: x.path,
    tenantId: x.tenantId,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A non-2xx answer, with the platform's envelope (errorCode, field errors, correlationId). */
export function errorAnswer(
  x: Exchange,
  status: number,
  text: string,
  headerCid: string | null,
  /** The answer's `Retry-After` in ms, read by the caller (retryAfterMs). */
  retryAfter: number | null = null,
): PlatformError {
  const envelope = readErrorEnvelope(parseJson(text) ?? text, headerCid);
  const kind = kindForStatus(status, envelope.errorCode, x.purchase);
  return new PlatformError({
    ...base(x),
    kind,
    message: stationMessage({ ...words(x), kind, status, envelope, retryAfterMs: retryAfter }),
    retryAfterMs: retryAfter,
    status,
    errorCode: envelope.errorCode,
    fieldErrors: envelope.fieldErrors,
    correlationId: envelope.correlationId,
    platformMessage: envelope.message,
  });
}

/**
 * A 2xx body that is not what the schema says (or not JSON). A label the platform sold but the
 * station cannot read must not vanish: the raw body travels on the error so the purchase record
 * can keep it for the shift lead.
 */
export function unreadableAnswer(
  x: Exchange,
  status: number,
  text: string,
  body: unknown,
  /** The schema's complaints; null when the body was not JSON at all. */
  issues: readonly { path: readonly PropertyKey[]; message: string }[] | null,
  headerCid: string | null,
): PlatformError {
  const kind: PlatformErrorKind = x.purchase ? 'unknown-outcome' : 'unexpected-response';
  const detail = issues
    ? issues
        .slice(0, 3)
        .map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`)
        .join('; ')
    : text.length === 0
      ? 'an empty body'
      : 'not JSON';
  return new PlatformError({
    ...base(x),
    kind,
    message: stationMessage({
      ...words(x),
      kind,
      status,
      envelope: readErrorEnvelope(null, headerCid),
      detail: `HTTP ${status}, ${detail}`,
    }),
    status,
    correlationId: headerCid,
    responseBody: body ?? text,
  });
}

const base = (x: Exchange) => ({
  operation: x.operation,
  method: x.method,
  path: x.path,
  tenantId: x.tenantId,
});
const words = (x: Exchange) => ({
  what: x.what,
  tenantId: x.tenantId,
  clientId: x.clientId,
  host: x.host,
});

export function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The system's code for a failed fetch (undici nests it in `cause`). */
export function networkCode(error: unknown): string {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' ? 'connection reset' : code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : 'network error';
}

/**
 * A network code with what it means for whoever set the profile up: the code stays (support
 * searches for it), the words say what to check.
 */
export function networkWords(code: string): string {
  if (/^ERR_SSL_|^EPROTO$/.test(code))
    return `${code}: the server does not answer HTTPS there; if it is a sandbox or test server on this computer, its address starts with http://`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${code}: no server of that name; check the base URL for a typo`;
  if (code === 'ECONNREFUSED') return `${code}: nothing answers at that address and port`;
  if (code === 'CERT_HAS_EXPIRED' || /CERT|SELF_SIGNED/.test(code))
    return `${code}: the server's HTTPS certificate is not one this computer trusts`;
  return code;
}
