import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CONTACT_CARRIERS, accountView, authorizationTypeFor } from '../carriers.js';
import { ApiError, type FieldError, notFound, validationError } from '../errors.js';
import { CARRIER_PATTERN, SERVICE_LEVEL_PATTERN } from '../fixtures.js';
import { defaultServiceLevels } from '../rates/pricing.js';
import { type CarrierAccount, type Connection, newId } from '../state.js';
import { parseBody, parseBodyWithRules, rawAt } from '../validation.js';
import { type World, baseUrlOf } from '../world.js';

const serviceLevels = z
  .array(z.string().regex(SERVICE_LEVEL_PATTERN, 'must have the form <CARRIER>_<SERVICE>'))
  .min(1);
const siteIds = z.array(z.string().min(1));

const createRequest = z.object({
  name: z.string().min(2).max(100),
  ownerTenantId: z.string().min(1).optional(),
  carrierAccountConnectionId: z.string().min(1).optional(),
  carrierAccountConnection: z
    .object({
      name: z.string().min(2).max(100),
      ownershipType: z.enum(['BRAND', 'PARTNER']),
      connectionDetails: z.looseObject({
        carrier: z.string().regex(CARRIER_PATTERN, 'must be an upper-case carrier code'),
        accountNumber: z.string().min(1),
        contactInfo: z.record(z.string(), z.unknown()).optional(),
        billingAddress: z.record(z.string(), z.unknown()).optional(),
        apiKey: z.string().optional(),
      }),
    })
    .optional(),
  serviceLevels: serviceLevels.optional(),
  isActive: z.boolean().optional(),
  locationIds: siteIds.optional(),
  allowedLocationIds: siteIds.optional(),
});

const updateRequest = z.object({
  name: z.string().min(2).max(100).optional(),
  serviceLevels: serviceLevels.optional(),
  isActive: z.boolean().optional(),
  allowedLocationIds: siteIds.optional(),
});

export function carrierAccountRoutes(app: FastifyInstance, world: World): void {
  const { state, clock } = world;

  const checkServiceLevels = (field: string, carrier: string, levels: string[]): FieldError[] =>
    levels.flatMap((level, i) =>
      level.startsWith(`${carrier}_`)
        ? []
        : [
            {
              field: `${field}[${i}]`,
              message: `"${level}" is not a service level of carrier ${carrier}`,
              code: 'invalid_value',
            },
          ],
    );
  const checkSites = (field: string, ids: string[] | undefined): FieldError[] =>
    (ids ?? []).flatMap((id, i) =>
      state.sites.has(id)
        ? []
        : [
            {
              field: `${field}[${i}]`,
              message: `unknown shipping site "${id}"`,
              code: 'not_found',
            },
          ],
    );

  const owned = (tenantId: string, id: string): CarrierAccount => {
    const account = state.accounts.get(id);
    // Isolation: an account is visible only under its own tenant, never a parent or a child.
    if (!account || account.tenantId !== tenantId) throw notFound(`Carrier account "${id}"`);
    return account;
  };

  app.post('/api/v1/carrierAccounts', async (request, reply) => {
    const ctx = world.auth(request, { tenantHeader: 'required', fullAccess: true });
    // Schema problems and the rules below are reported together, every bad field at once.
    const body = parseBodyWithRules(createRequest, request.body, (raw) => {
      const errors: FieldError[] = [];
      const hasConnection = raw.carrierAccountConnection !== undefined;
      const hasId = raw.carrierAccountConnectionId !== undefined;
      if (hasConnection && hasId) {
        errors.push({
          field: 'carrierAccountConnectionId',
          message: 'send either carrierAccountConnectionId or carrierAccountConnection, not both',
          code: 'conflict',
        });
      }
      if (!hasConnection && !hasId) {
        errors.push({
          field: 'carrierAccountConnection',
          message:
            'is required unless carrierAccountConnectionId links an existing connection (credentials come with a new connection only)',
          code: 'required',
        });
      }
      const details = rawAt(raw, 'carrierAccountConnection', 'connectionDetails');
      const carrier = rawAt(details, 'carrier');
      if (typeof carrier === 'string' && CONTACT_CARRIERS.has(carrier)) {
        for (const key of ['contactInfo', 'billingAddress'] as const) {
          if (rawAt(details, key) === undefined)
            errors.push({
              field: `carrierAccountConnection.connectionDetails.${key}`,
              message: `is required for carrier ${carrier}`,
              code: 'required',
            });
        }
      }
      for (const key of ['locationIds', 'allowedLocationIds'] as const) {
        const list = raw[key];
        if (Array.isArray(list))
          list.forEach((id, i) => {
            if (typeof id === 'string' && !state.sites.has(id))
              errors.push({
                field: `${key}[${i}]`,
                message: `unknown shipping site "${id}"`,
                code: 'not_found',
              });
          });
      }
      return errors;
    });

    const ownerTenantId = body.ownerTenantId ?? ctx.tenantId;
    if (
      !state.tenants.has(ownerTenantId) ||
      !state.isSelfOrDescendant(ownerTenantId, ctx.tenantId)
    ) {
      throw new ApiError(
        403,
        'TENANT_NOT_FOUND',
        `ownerTenantId "${ownerTenantId}" is not a tenant below "${ctx.tenantId}"`,
        [
          {
            field: 'ownerTenantId',
            message: 'is not a tenant below the caller',
            code: 'not_found',
          },
        ],
      );
    }

    const now = clock.iso();
    let conn: Connection;
    if (body.carrierAccountConnectionId) {
      const existing = state.connections.get(body.carrierAccountConnectionId);
      // A key may share only connections owned within its own scope, and only downwards.
      if (
        !existing ||
        !state.isSelfOrDescendant(existing.ownerTenantId, ctx.tokenTenantId) ||
        !state.isSelfOrDescendant(ownerTenantId, existing.ownerTenantId)
      ) {
        throw new ApiError(
          404,
          'NOT_FOUND',
          `Connection "${body.carrierAccountConnectionId}" was not found`,
          [
            {
              field: 'carrierAccountConnectionId',
              message: 'unknown connection',
              code: 'not_found',
            },
          ],
        );
      }
      conn = existing;
    } else {
      const input = body.carrierAccountConnection!;
      const carrier = input.connectionDetails.carrier;
      const oauth = authorizationTypeFor(state, carrier) === 'OAUTH2';
      conn = {
        id: newId('conn'),
        name: input.name,
        ownerTenantId: input.ownershipType === 'PARTNER' ? ctx.tenantId : ownerTenantId,
        ownershipType: input.ownershipType,
        carrier,
        accountNumber: input.connectionDetails.accountNumber,
        authorizationType: oauth ? 'OAUTH2' : 'APIKEY',
        authorizationStatus: oauth
          ? 'PENDING'
          : input.connectionDetails.apiKey === 'invalid'
            ? 'ERROR'
            : 'AUTHORIZED',
        createdAt: now,
        updatedAt: now,
      };
    }
    const levels = body.serviceLevels ?? defaultServiceLevels(conn.carrier);
    const levelErrors = checkServiceLevels('serviceLevels', conn.carrier, levels);
    if (levelErrors.length > 0) throw validationError(levelErrors);
    if (!state.connections.has(conn.id)) state.connections.set(conn.id, conn);

    const account: CarrierAccount = {
      id: newId('ca'),
      name: body.name,
      tenantId: ownerTenantId,
      carrierAccountConnectionId: conn.id,
      serviceLevels: levels,
      isActive: body.isActive ?? true,
      locationIds: body.locationIds ?? [],
      allowedLocationIds: body.allowedLocationIds ?? [],
      createdAt: now,
      updatedAt: now,
    };
    state.addAccount(account);
    return reply.code(201).send(accountView(state, account, baseUrlOf(request)));
  });

  app.get('/api/v1/carrierAccounts', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    const base = baseUrlOf(request);
    return {
      carrierAccounts: state.accountsOf(ctx.tenantId).map((a) => accountView(state, a, base)),
    };
  });

  app.get<{ Params: { id: string } }>('/api/v1/carrierAccounts/:id', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    return accountView(state, owned(ctx.tenantId, request.params.id), baseUrlOf(request));
  });

  app.put<{ Params: { id: string } }>('/api/v1/carrierAccounts/:id', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required', fullAccess: true });
    const account = owned(ctx.tenantId, request.params.id);
    const body = parseBody(updateRequest, request.body);
    const conn = state.connections.get(account.carrierAccountConnectionId)!;
    const errors = [
      ...checkServiceLevels('serviceLevels', conn.carrier, body.serviceLevels ?? []),
      ...checkSites('allowedLocationIds', body.allowedLocationIds),
    ];
    if (errors.length > 0) throw validationError(errors);
    if (body.name !== undefined) account.name = body.name;
    if (body.serviceLevels !== undefined) account.serviceLevels = body.serviceLevels;
    if (body.isActive !== undefined) account.isActive = body.isActive;
    if (body.allowedLocationIds !== undefined) account.allowedLocationIds = body.allowedLocationIds;
    account.updatedAt = clock.iso();
    return accountView(state, account, baseUrlOf(request));
  });

  app.delete<{ Params: { id: string } }>('/api/v1/carrierAccounts/:id', async (request, reply) => {
    const ctx = world.auth(request, { tenantHeader: 'required', fullAccess: true });
    const account = owned(ctx.tenantId, request.params.id);
    // The connection and the other accounts on it stay as they are (spec rule 3).
    state.removeAccount(account.id);
    return reply.code(204).send();
  });
}
