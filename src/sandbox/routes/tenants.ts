import { type FastifyInstance } from 'fastify';
import { notFound } from '../errors.js';
import { type SandboxState } from '../state.js';
import { type World } from '../world.js';

export interface TenantView {
  tenantId: string;
  name: string;
  type: string;
  parentTenantId: string | null;
  children: TenantView[];
}

export function tenantTree(state: SandboxState, tenantId: string): TenantView {
  const t = state.tenants.get(tenantId)!;
  return {
    tenantId: t.tenantId,
    name: t.name,
    type: t.type,
    parentTenantId: t.parentTenantId,
    children: (state.children.get(tenantId) ?? []).map((child) => tenantTree(state, child)),
  };
}

export function tenantRoutes(app: FastifyInstance, world: World): void {
  const { state } = world;

  // The list is how a key learns which tenants it may act for, so x-tenant-id is optional here:
  // without it the list is the key's own tenant and its children (a new station discovers its
  // tenant this way). Every other tenant-scoped route still requires the header.
  app.get('/api/v1/tenants', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'optional' });
    return { tenants: [tenantTree(state, ctx.tenantId)] };
  });

  app.get<{ Params: { tenantId: string } }>('/api/v1/tenants/:tenantId', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    const { tenantId } = request.params;
    if (!state.tenants.has(tenantId) || !state.isSelfOrDescendant(tenantId, ctx.tenantId)) {
      throw notFound(`Tenant "${tenantId}"`);
    }
    return tenantTree(state, tenantId);
  });
}
