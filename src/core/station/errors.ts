import type { AttentionError } from '../packing/needs-attention.js';
import { AttentionError as AttentionErrorClass } from '../packing/needs-attention.js';
import { isPlatformError, type PlatformErrorKind } from '../platform/errors.js';
import { LineError } from '../printing/drivers/tcp-line.js';
import { PrintSpoolError, type PrintSpoolErrorCode } from '../printing/spool/print-spool.js';
import { PrinterError, type PrinterErrorCode } from '../printing/types.js';
import { ReprintError, type ReprintErrorCode } from '../labels/reprint.js';
import { KeychainError } from '../profiles/os-keychain-vault.js';
import { SecretMissingError } from '../profiles/secret-vault.js';
import { SettingsError } from '../profiles/settings-store.js';
import { SiteConfigError } from '../site/config.js';
import { SiteStoreError, type SiteProblem } from '../site/errors.js';
import { DatabaseError } from '../storage/database.js';
import { isErrorCode, type ErrorCode, type StationError } from '../../shared/result.js';

/**
 * The one error path (issue 11): every failure the core raises has a kind, named by the module
 * that raises it, and `contractCode` below is the only place a kind becomes a contract code.
 * It is a `Record` over the whole union, so a new kind anywhere in the core that is not mapped
 * here is a compile error. Errors are recognised by their class, never by their message.
 */
export type CoreErrorKind =
  | `platform:${PlatformErrorKind}`
  | `printer:${PrinterErrorCode}`
  | `printer-line:${LineError['reason']}`
  | `print-spool:${PrintSpoolErrorCode}`
  | `reprint:${ReprintErrorCode}`
  | `attention:${AttentionError['code']}`
  | `database:${DatabaseError['code']}`
  | `site-store:${SiteProblem['kind']}`
  | 'site-config:invalid'
  | 'settings:invalid'
  | 'secret:missing'
  | 'secret:storage-unavailable'
  | `shipment:${ShipmentRefusal}`;

/** Why the packing workflow rated or bought nothing (see `refuse` in features/pack-views.ts). */
export type ShipmentRefusal =
  | 'already-labelled'
  | 'needs-attention'
  | 'not-found'
  | 'conflict'
  | 'claimed-elsewhere'
  | 'order-cancelled'
  | 'order-changed'
  | 'site-store-unreachable'
  | 'invalid'
  | 'connection-not-authorized'
  | 'no-rates'
  | 'failed'
  | 'outcome-unknown';

const contractCode: Record<CoreErrorKind, ErrorCode> = {
  // The platform (src/core/platform/errors.ts).
  'platform:validation': 'platform-rejected',
  'platform:auth': 'auth-failed',
  'platform:wrong-tenant': 'tenant-forbidden',
  'platform:not-found': 'not-found',
  'platform:connection-not-authorized': 'connection-not-authorized',
  'platform:retryable': 'platform-unreachable',
  'platform:network': 'platform-unreachable',
  // An answer that is not the platform's (a wrong URL that serves a web page, a proxy).
  'platform:unexpected-response': 'platform-unreachable',
  'platform:unknown-outcome': 'purchase-outcome-unknown',
  // Printers: a refused or silent printer is the printer's problem, never the platform's.
  'printer:printer-offline': 'printer-offline',
  'printer:printer-disconnected': 'printer-offline',
  'printer:printer-timeout': 'printer-offline',
  'printer:printer-fault': 'printer-fault',
  'printer:printer-not-found': 'not-found',
  'printer:printer-config-invalid': 'validation',
  'printer:aborted': 'conflict',
  'printer-line:refused': 'printer-offline',
  'printer-line:timeout': 'printer-offline',
  'printer-line:closed': 'printer-offline',
  'printer-line:aborted': 'conflict',
  'printer-line:garbled': 'printer-offline',
  'print-spool:job-not-found': 'not-found',
  'print-spool:printer-not-found': 'not-found',
  'print-spool:job-state-conflict': 'conflict',
  'print-spool:wrong-printer-role': 'validation',
  'reprint:label-not-found': 'not-found',
  'reprint:label-package-not-found': 'not-found',
  'reprint:label-zpl-expired': 'not-found',
  'reprint:label-still-waiting': 'conflict',
  'reprint:label-voided': 'conflict',
  'reprint:reprint-reason-required': 'validation',
  'attention:purchase-not-found': 'not-found',
  'attention:purchase-not-unknown': 'conflict',
  'attention:confirmation-required': 'validation',
  'database:database-from-newer-version': 'conflict',
  'database:migration-failed': 'internal',
  // The site store: a refused or silent store is the site store's problem, never the platform's.
  'site-store:unreachable': 'site-store-unreachable',
  'site-store:auth': 'validation',
  'site-store:no-database': 'validation',
  'site-store:newer-schema': 'conflict',
  'site-store:permission': 'validation',
  'site-store:duplicate-station': 'conflict',
  'site-store:busy': 'site-store-unreachable',
  'site-store:other': 'internal',
  'site-config:invalid': 'validation',
  // A profile or provisioning file that does not validate: the person fixes a field.
  'settings:invalid': 'validation',
  'secret:missing': 'secret-missing',
  'secret:storage-unavailable': 'secret-storage-unavailable',
  'shipment:already-labelled': 'already-labelled',
  'shipment:needs-attention': 'purchase-outcome-unknown',
  'shipment:not-found': 'not-found',
  'shipment:conflict': 'conflict',
  'shipment:claimed-elsewhere': 'order-claimed-elsewhere',
  'shipment:order-cancelled': 'order-cancelled',
  'shipment:order-changed': 'order-changed',
  'shipment:site-store-unreachable': 'site-store-unreachable',
  'shipment:invalid': 'validation',
  'shipment:connection-not-authorized': 'connection-not-authorized',
  'shipment:no-rates': 'no-rates',
  'shipment:failed': 'purchase-failed',
  'shipment:outcome-unknown': 'purchase-outcome-unknown',
};

/** The contract code of a core error kind (the table above, nothing else). */
export function codeOf(kind: CoreErrorKind): ErrorCode {
  return contractCode[kind];
}

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

/** Why the packing workflow rated or bought nothing, as a core kind (mapped by the table). */
export class ShipmentRefused extends Error {
  constructor(
    readonly refusal: ShipmentRefusal,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ShipmentRefused';
  }
}

/** The kind of an error the core raised, from its class; null for anything else (a bug). */
export function coreErrorKind(error: unknown): CoreErrorKind | null {
  if (isPlatformError(error)) return `platform:${error.kind}`;
  if (error instanceof ShipmentRefused) return `shipment:${error.refusal}`;
  if (error instanceof PrinterError) return `printer:${error.code}`;
  if (error instanceof LineError) return `printer-line:${error.reason}`;
  if (error instanceof PrintSpoolError) return `print-spool:${error.code}`;
  if (error instanceof ReprintError) return `reprint:${error.code}`;
  if (error instanceof AttentionErrorClass) return `attention:${error.code}`;
  if (error instanceof DatabaseError) return `database:${error.code}`;
  if (error instanceof SiteStoreError) return `site-store:${error.problem.kind}`;
  if (error instanceof SiteConfigError) return 'site-config:invalid';
  if (error instanceof SettingsError) return 'settings:invalid';
  if (error instanceof SecretMissingError) return 'secret:missing';
  if (error instanceof KeychainError) return 'secret:storage-unavailable';
  return null;
}

/**
 * Any error from the core becomes `{ code, message, details }`: the message is the one the
 * module wrote for the person at the station, and the platform's correlationId travels in
 * `details` (the platform's messages also end with "(ref …)"). A raw system error (a bare
 * ECONNREFUSED from who knows which socket) is not guessed at: it is `internal`, and logged.
 */
export function toStationError(error: unknown): StationError {
  if (error instanceof StationFailure)
    return withDetails({ code: error.code, message: error.message }, error.details);
  const message =
    error instanceof Error && error.message ? error.message : String(error ?? 'unknown error');
  const kind = coreErrorKind(error);
  if (kind) return withDetails({ code: codeOf(kind), message }, detailsOf(error));
  if (error instanceof Error && error.name === 'ZodError')
    return withDetails({ code: 'validation', message }, (error as { issues?: unknown }).issues);
  // An error made with a contract code on purpose (`Object.assign(new Error(…), { code })`).
  const code = (error as { code?: unknown } | null)?.code;
  if (isErrorCode(code)) return { code, message };
  return { code: 'internal', message };
}

function detailsOf(error: unknown): unknown {
  if (isPlatformError(error))
    return compact({
      errorCode: error.errorCode ?? undefined,
      errors: error.fieldErrors.length
        ? error.fieldErrors.map((e) => ({ field: e.field ?? '', message: e.message }))
        : undefined,
      correlationId: error.correlationId ?? undefined,
      status: error.status ?? undefined,
    });
  if (error instanceof ShipmentRefused || error instanceof SettingsError) return error.details;
  if (error instanceof SiteConfigError) return [{ field: error.field, message: error.message }];
  return undefined;
}

function compact(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return Object.keys(out).length ? out : undefined;
}

function withDetails(error: StationError, details: unknown): StationError {
  return details === undefined ? error : { ...error, details };
}
