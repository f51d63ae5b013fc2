import { type FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import { type SandboxClock } from './clock.js';
import { type SandboxState } from './state.js';

/** Who is calling and for which tenant, resolved from the bearer token and `x-tenant-id`. */
export interface CallContext {
  clientId: string;
  access: 'full' | 'readOnly';
  /** The tenant the token was issued for: the caller may act for it and its descendants. */
  tokenTenantId: string;
  /** The tenant acted for (`x-tenant-id`, or the token's tenant where the header is optional). */
  tenantId: string;
}

export interface AuthOptions {
  /** `required` for every route but the webhook ones, where the header is optional. */
  tenantHeader: 'required' | 'optional';
  /** The call changes something: read-only keys are refused. */
  fullAccess?: boolean;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) return value[0];
  return value;
}

export function authenticate(
  request: FastifyRequest,
  state: SandboxState,
  clock: SandboxClock,
  options: AuthOptions,
): CallContext {
  const authorization = header(request, 'authorization');
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match) {
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      'Missing bearer token: send "Authorization: Bearer <accessToken>" from POST /api/v1/tokens/m2m',
    );
  }
  const token = state.tokens.get(match[1]!);
  if (!token) throw new ApiError(401, 'UNAUTHORIZED', 'The bearer token is not valid');
  if (clock.nowMs() >= token.expiresAtMs) {
    throw new ApiError(401, 'TOKEN_EXPIRED', 'The bearer token has expired: request a new one');
  }

  const requested = header(request, 'x-tenant-id')?.trim();
  let tenantId: string;
  if (!requested) {
    if (options.tenantHeader === 'required') {
      throw new ApiError(403, 'TENANT_REQUIRED', 'The x-tenant-id header is required');
    }
    tenantId = token.tenantId;
  } else {
    if (!state.tenants.has(requested) || !state.isSelfOrDescendant(requested, token.tenantId)) {
      throw new ApiError(403, 'TENANT_FORBIDDEN', `This key may not act for tenant "${requested}"`);
    }
    tenantId = requested;
  }

  if (options.fullAccess && token.access !== 'full') {
    throw new ApiError(
      403,
      'READ_ONLY_KEY',
      'This API key is read-only: a key with full access is needed',
    );
  }
  return {
    clientId: token.clientId,
    access: token.access,
    tokenTenantId: token.tenantId,
    tenantId,
  };
}
