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

  app.get('/api/v1/tenants', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
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
