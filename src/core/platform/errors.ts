/**
 * Everything that can go wrong talking to the Shipping Platform becomes one PlatformError with
 * a `kind` the station can act on and a message written for the person at the station. The
 * client secret never appears here: errors are built from the response, never the request, and
 * a token request's error has the secret taken out wherever the answer quoted it
 * (`withoutSecret`: a proxy or platform that echoes the request body in its error).
 */

export type PlatformErrorKind =
  /** 4xx: the request was wrong (fields, no rates, inactive account, conflict). Fix and retry. */
  | 'validation'
  /** 401 on the token or after one re-authentication, or a key that lacks access. */
  | 'auth'
  /** 403 on the tenant: the tenant id may be wrong, or the key may not act for it. */
  | 'wrong-tenant'
  /** 404: it does not exist, or belongs to another tenant or environment. */
  | 'not-found'
  /** The carrier account's connection is not AUTHORIZED (PENDING, EXPIRED, ERROR…). */
  | 'connection-not-authorized'
  /** 5xx or 429 on a request that is safe to repeat: try again later. */
  | 'retryable'
  /** A label purchase whose outcome is not known (timeout, reset, 5xx): never buy again blindly. */
  | 'unknown-outcome'
  /** No HTTP answer at all: refused, reset, DNS, timeout. */
  | 'network'
  /** A 2xx whose body is not what the specification describes (not JSON, a required field missing). */
  | 'unexpected-response';

export interface FieldError {
  /** Dotted path into the request body (`shipment.packages[0].weightLbs`), when the platform gave one. */
  field: string | null;
  message: string;
  code: string | null;
}

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  message: string;
  operation: string;
  method: string;
  path: string;
  tenantId: string;
  status?: number | null;
  errorCode?: string | null;
  fieldErrors?: FieldError[];
  correlationId?: string | null;
  platformMessage?: string | null;
  /** For a label whose 2xx body could not be read: the raw body, so it is not lost. */
  responseBody?: unknown;
  /** How long the platform asked the station to wait (its `Retry-After`), when it said. */
  retryAfterMs?: number | null;
  cause?: unknown;
}

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  /** HTTP status, or null when no HTTP answer arrived. */
  readonly status: number | null;
  readonly errorCode: string | null;
  readonly fieldErrors: readonly FieldError[];
  readonly correlationId: string | null;
  /** The platform's own message, untouched (the `message` is rewritten for the station). */
  readonly platformMessage: string | null;
  /** Which client method failed: `purchaseLabel`, `getRates`, … */
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  /** The tenant the request acted for (x-tenant-id). */
  readonly tenantId: string;
  readonly responseBody: unknown;
  /** The platform's `Retry-After` in ms (a 429 or 503 that said how long to wait), else null. */
  readonly retryAfterMs: number | null;

  constructor(init: PlatformErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PlatformError';
    this.kind = init.kind;
    this.status = init.status ?? null;
    this.errorCode = init.errorCode ?? null;
    this.fieldErrors = init.fieldErrors ?? [];
    this.correlationId = init.correlationId ?? null;
    this.platformMessage = init.platformMessage ?? null;
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.tenantId = init.tenantId;
    this.responseBody = init.responseBody;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  /** True when repeating the same request later may succeed without changing it. */
  get retryable(): boolean {
    return this.kind === 'retryable' || this.kind === 'network';
  }

  /** Plain data for logs and the station contract (no secrets exist on an error to leak). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      errorCode: this.errorCode,
      fieldErrors: this.fieldErrors,
      correlationId: this.correlationId,
      operation: this.operation,
      method: this.method,
      path: this.path,
      tenantId: this.tenantId,
      ...(this.retryAfterMs !== null ? { retryAfterMs: this.retryAfterMs } : {}),
    };
  }
}

export function isPlatformError(value: unknown): value is PlatformError {
  return value instanceof PlatformError;
}

/** The error envelope, read tolerantly: any field may be missing or shaped a little differently. */
export interface ErrorEnvelope {
  message: string | null;
  errorCode: string | null;
  fieldErrors: FieldError[];
  correlationId: string | null;
}

export function readErrorEnvelope(
  body: unknown,
  headerCorrelationId: string | null,
): ErrorEnvelope {
  const obj = isRecord(body) ? body : {};
  const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
  return {
    message: str(obj.message) ?? str(obj.error) ?? (typeof body === 'string' ? str(body) : null),
    errorCode: str(obj.errorCode) ?? str(obj.code),
    fieldErrors: readFieldErrors(obj.errors),
    correlationId: str(obj.correlationId) ?? headerCorrelationId,
  };
}

function readFieldErrors(errors: unknown): FieldError[] {
  if (Array.isArray(errors)) {
    return errors.flatMap((e): FieldError[] => {
      if (typeof e === 'string') return [{ field: null, message: e, code: null }];
      if (!isRecord(e)) return [];
      const message = typeof e.message === 'string' ? e.message : null;
      if (!message) return [];
      const field =
        typeof e.field === 'string' ? e.field : typeof e.path === 'string' ? e.path : null;
      return [{ field, message, code: typeof e.code === 'string' ? e.code : null }];
    });
  }
  // Some APIs send `{ field: message }` or `{ field: [messages] }`.
  if (isRecord(errors)) {
    return Object.entries(errors).flatMap(([field, v]) =>
      (Array.isArray(v) ? v : [v])
        .filter((m): m is string => typeof m === 'string')
        .map((message) => ({ field, message, code: null })),
    );
  }
  return [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which kind an HTTP error answer is. `purchase` marks POST /api/v1/labels. */
export function kindForStatus(
  status: number,
  errorCode: string | null,
  purchase: boolean,
): PlatformErrorKind {
  if (errorCode === 'CONNECTION_NOT_AUTHORIZED') return 'connection-not-authorized';
  if (status === 401) return 'auth';
  if (status === 403) {
    // A read-only key is an access problem of the key, not of the tenant id.
    if (errorCode === 'READ_ONLY_KEY') return 'auth';
    return 'wrong-tenant';
  }
  if (status === 404) return 'not-found';
  if (status === 408 || status === 429 || status >= 500) {
    // The spec reads 500 as "retry and quote correlationId", but it never promises that a 500
    // means nothing was bought: the platform may fail after the carrier sold the label (a
    // gateway 502/504 certainly can). Reading it as "failed" risks a double charge; reading it
    // as "unknown" costs a shift lead one look. So a purchase's 5xx is unknown-outcome.
    return purchase ? 'unknown-outcome' : 'retryable';
  }
  return 'validation';
}

/**
 * "must be greater than 0" on `shipment.packages[0].weightLbs` reads "Weight must be greater
 * than 0" at the station. Messages that already say what they are about are left alone.
 */
export function fieldSentence(e: FieldError): string {
  if (
    !e.field ||
    !/^(is|are|must|should|has|have|cannot|can't|was|needs?|expected|not)\b/i.test(e.message)
  ) {
    return e.message;
  }
  const last = (e.field.split('.').at(-1) ?? e.field).replace(/\[\d+\]$/, '');
  const words = last
    .replace(/(?<=[a-z])(Lbs|In|Oz)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const pkg = /packages\[(\d+)\]\./.exec(e.field);
  const side = /\bshipTo\./.test(e.field)
    ? 'ship-to '
    : /\bshipFrom\./.test(e.field)
      ? 'ship-from '
      : '';
  const text = `${pkg ? `package ${Number(pkg[1]) + 1} ` : ''}${side}${words} ${e.message}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface MessageContext {
  kind: PlatformErrorKind;
  /** What the request was about, for the sentence: "the label", "the rate request". */
  what: string;
  tenantId: string;
  clientId: string;
  host: string;
  status: number | null;
  envelope: ErrorEnvelope | null;
  /** For network errors: the system's code (ECONNREFUSED, timeout…). */
  detail?: string;
  /** The platform's `Retry-After`, when it gave one. */
  retryAfterMs?: number | null;
}

/** "30 s", "2 min": how long the platform asked the station to wait. */
function waitWords(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.ceil(s / 60)} min`;
}

/** A sentence for the packer or the shift lead, ending with the platform's reference. */
export function stationMessage(ctx: MessageContext): string {
  const env = ctx.envelope;
  const ref = env?.correlationId ? ` (ref ${env.correlationId})` : '';
  const reasons = env?.fieldErrors.length
    ? env.fieldErrors.map(fieldSentence).join('; ')
    : (env?.message ?? null);
  const because = reasons ? `: ${reasons}` : '';
  switch (ctx.kind) {
    case 'validation':
      return `The platform refused ${ctx.what}${because}${ref}`;
    case 'auth':
      return env?.errorCode === 'READ_ONLY_KEY'
        ? `The API key of client ${ctx.clientId} is read-only, so the platform refused it for ${ctx.what}; ask the administrator for a full-access key${ref}`
        : `The platform did not accept the API key of client ${ctx.clientId}; check the client id and secret in the site profile${ref}`;
    case 'wrong-tenant':
      // A grant's ownerTenantId outside the caller (spec part 7): the owner named is wrong, not
      // the tenant the request acted for. The platform's own words name the owner given.
      if (
        env?.errorCode === 'TENANT_NOT_FOUND' ||
        env?.fieldErrors.some((f) => f.field === 'ownerTenantId')
      )
        return `The platform refused ${ctx.what}: the owner tenant is not a tenant below ${ctx.tenantId}${env.message ? ` (${env.message})` : ''}. Nothing was changed; give the tenant id of a brand below ${ctx.tenantId} as the owner${ref}`;
      return `The platform denied access to tenant ${ctx.tenantId} for ${ctx.what}: the tenant id may be wrong, or this API key may not act for it${because}. It refused the request, so nothing was bought or changed; site IT checks the profile's tenant and API key (Settings → Profiles)${ref}`;
    case 'not-found':
      if (env?.errorCode === 'ROUTE_NOT_FOUND') {
        return `The platform at ${ctx.host} does not offer ${ctx.what} (unknown route: check the profile's base URL)${ref}`;
      }
      // The platform's own words when it gave them (a shipping site that does not exist, and
      // which field named it); the general reason otherwise.
      return env?.message || reasons
        ? `The platform could not find ${ctx.what}: ${env?.message || reasons}${ref}`
        : `The platform could not find ${ctx.what}: it does not exist, or it belongs to another tenant or environment${ref}`;
    case 'connection-not-authorized':
      return `The carrier connection is not authorized, so it cannot be used for ${ctx.what}${because}${ref}`;
    case 'retryable':
      return ctx.status === null
        ? `The platform did not answer ${ctx.what} in time; try again${ref}`
        : ctx.status === 429
          ? ctx.retryAfterMs != null
            ? `The platform is busy with too many requests (HTTP 429) and asked the station to wait ${waitWords(ctx.retryAfterMs)} before trying ${ctx.what} again${ref}`
            : `The platform is busy and asked the station to slow down (too many requests, HTTP 429) for ${ctx.what}: wait a moment and try again${ref}`
          : ctx.retryAfterMs != null
            ? `The platform had a problem with ${ctx.what} (HTTP ${ctx.status}) and asked the station to wait ${waitWords(ctx.retryAfterMs)} before trying again; quote the reference to support if it persists${ref}`
            : `The platform had a problem with ${ctx.what} (HTTP ${ctx.status}); try again, and quote the reference to support if it persists${ref}`;
    case 'unknown-outcome':
      // A 429 is the platform turning the request away (too many requests): almost certainly
      // nothing was bought, but the station does not buy again on a guess.
      return ctx.status === 429
        ? `The platform turned ${ctx.what} away as too many requests (HTTP 429): almost certainly nothing was bought, but it did not say so. Do not buy again; a shift lead looks it up under Needs attention (if the look-up finds no label, Not bought releases the order)${ref}`
        : `The platform did not confirm ${ctx.what} (${ctx.detail ?? `HTTP ${ctx.status}`}): it may or may not have been bought. Do not buy again; a shift lead checks it under Needs attention${ref}`;
    case 'network':
      return `The platform at ${ctx.host} could not be reached for ${ctx.what} (${ctx.detail ?? 'network error'})`;
    case 'unexpected-response':
      return `The platform answered ${ctx.what} with something the station cannot read (${ctx.detail ?? 'unexpected response'})${ref}`;
    default: {
      const never: never = ctx.kind;
      return String(never);
    }
  }
}

/** What a secret quoted in a platform's answer becomes. */
export const SECRET_REMOVED = '[redacted]';

/**
 * The same error with `secret` replaced wherever the platform's answer quoted it: in the
 * message, the platform's own words, field errors and a kept body. A platform, proxy or firewall
 * that echoes the token request in its error answer would otherwise carry the client secret into
 * the packer's screen, Needs attention and the station's database. Anything else is unchanged
 * (the correlationId above all). Too short to be a secret (under 4 characters): left alone.
 */
export function withoutSecret(error: unknown, secret: string | undefined): unknown {
  if (!(error instanceof PlatformError) || typeof secret !== 'string') return error;
  const values = [
    ...new Set([secret, secret.trim()].flatMap((v) => [v, JSON.stringify(v).slice(1, -1)])),
  ]
    .filter((v) => v.length >= 4)
    .sort((a, b) => b.length - a.length);
  if (values.length === 0) return error;
  const text = (t: string) => values.reduce((out, v) => out.split(v).join(SECRET_REMOVED), t);
  const deep = (v: unknown, depth = 0): unknown =>
    typeof v === 'string'
      ? text(v)
      : Array.isArray(v)
        ? v.map((x) => deep(x, depth + 1))
        : v !== null && typeof v === 'object' && depth < 8
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x, depth + 1)]))
          : v;
  return new PlatformError({
    kind: error.kind,
    message: text(error.message),
    operation: error.operation,
    method: error.method,
    path: error.path,
    tenantId: error.tenantId,
    status: error.status,
    errorCode: error.errorCode,
    fieldErrors: error.fieldErrors.map((f) => ({
      ...f,
      field: f.field === null ? null : text(f.field),
      message: text(f.message),
    })),
    correlationId: error.correlationId,
    platformMessage: error.platformMessage === null ? null : text(error.platformMessage),
    responseBody: deep(error.responseBody),
    retryAfterMs: error.retryAfterMs,
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  });
}
