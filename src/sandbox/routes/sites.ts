import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { addressSchema } from '../fixtures.js';
import { newId } from '../state.js';
import { parseBody } from '../validation.js';
import { type World } from '../world.js';

const siteRequest = z.object({
  name: z.string().min(2).max(100),
  address: addressSchema.extend({
    addressLine1: z.string().min(1),
    city: z.string().min(1),
    postalCode: z.string().min(1),
    countryCode: z.string().length(2),
  }),
});

export function siteRoutes(app: FastifyInstance, world: World): void {
  const { state, clock } = world;

  app.post('/api/v1/shippingSites', async (request, reply) => {
    const ctx = world.auth(request, { tenantHeader: 'required', fullAccess: true });
    const body = parseBody(siteRequest, request.body);
    const now = clock.iso();
    const { siteId: _ignored, ...address } = body.address;
    const site = {
      id: newId('site'),
      tenantId: ctx.tenantId,
      name: body.name,
      address,
      createdAt: now,
      updatedAt: now,
    };
    state.addSite(site);
    return reply.code(201).send(site);
  });

  app.get('/api/v1/shippingSites', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    return { shippingSites: state.sitesByTenant.get(ctx.tenantId) ?? [] };
  });
}
