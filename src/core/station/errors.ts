import { isErrorCode, type ErrorCode, type StationError } from '../../shared/result.js';

/** A failure the facade raises on purpose, with a stable code and a message for the packer. */
export class StationFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'StationFailure';
  }
}

// PlatformError classes (issue 3) onto contract codes.
const platformClass: Record<string, ErrorCode> = {
  validation: 'platform-rejected',
  auth: 'auth-failed',
  'wrong-tenant': 'tenant-forbidden',
  'not-found': 'not-found',
  'connection-not-authorized': 'connection-not-authorized',
  retryable: 'platform-unreachable',
  unreachable: 'platform-unreachable',
  network: 'platform-unreachable',
  // An answer that is not the platform's (a wrong URL that serves a web page, a proxy).
  'unexpected-response': 'platform-unreachable',
  'unknown-outcome': 'purchase-outcome-unknown',
  'no-rates': 'no-rates',
};

/**
 * The core modules' own codes (PrintSpoolError, AttentionError, ReprintError, PrinterError,
 * SettingsError) and the system's network codes onto contract codes: an expected failure is
 * never `internal`. An error's own `details` (a settings file's field issues) travel along.
 */
const coreCode = new Map<string, ErrorCode>([
  ['job-not-found', 'not-found'],
  ['printer-not-found', 'not-found'],
  ['purchase-not-found', 'not-found'],
  ['label-not-found', 'not-found'],
  ['label-package-not-found', 'not-found'],
  ['label-zpl-expired', 'not-found'],
  ['job-state-conflict', 'conflict'],
  ['purchase-not-unknown', 'conflict'],
  ['confirmation-required', 'validation'],
  ['reprint-reason-required', 'validation'],
  ['printer-disconnected', 'printer-offline'],
  // A profile or provisioning file that does not validate: the person fixes a field.
  ['settings-invalid', 'validation'],
  ['ECONNREFUSED', 'platform-unreachable'],
  ['ECONNRESET', 'platform-unreachable'],
  ['ETIMEDOUT', 'platform-unreachable'],
  ['ENOTFOUND', 'platform-unreachable'],
  ['EHOSTUNREACH', 'platform-unreachable'],
]);

/**
 * Any error from the core becomes `{ code, message, details }`. Core errors are recognised by
 * shape (a `code` that is already a contract code, a PlatformError's `class`), so the facade
 * does not need to know every error class of every module.
 */
export function toStationError(error: unknown): StationError {
  if (error instanceof StationFailure)
    return withDetails({ code: error.code, message: error.message }, error.details);
  const e = (error ?? {}) as {
    name?: string;
    message?: string;
    code?: unknown;
    class?: unknown;
    kind?: unknown;
    errorCode?: unknown;
    errors?: unknown;
    correlationId?: unknown;
    status?: unknown;
    details?: unknown;
  };
  const message = typeof e.message === 'string' && e.message ? e.message : String(error);
  if (e.name === 'ZodError') return { code: 'validation', message, details: e.errors };
  const cls = typeof e.class === 'string' ? e.class : typeof e.kind === 'string' ? e.kind : null;
  if (cls && platformClass[cls]) {
    return withDetails(
      { code: platformClass[cls], message },
      compact({
        errorCode: e.errorCode,
        errors: e.errors,
        correlationId: e.correlationId,
        status: e.status,
      }),
    );
  }
  if (isErrorCode(e.code)) return { code: e.code, message };
  const core = typeof e.code === 'string' ? coreCode.get(e.code) : undefined;
  if (core) return withDetails({ code: core, message }, e.details);
  return { code: 'internal', message };
}

function compact(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return Object.keys(out).length ? out : undefined;
}

function withDetails(error: StationError, details: unknown): StationError {
  return details === undefined ? error : { ...error, details };
}
