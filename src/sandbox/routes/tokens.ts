import { randomBytes } from 'node:crypto';
import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { parseBody } from '../validation.js';
import { type World } from '../world.js';

const tokenRequest = z.object({
  grantType: z.literal('clientCredentials'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  tenantId: z.string().min(1).optional(),
});

export function tokenRoutes(app: FastifyInstance, world: World): void {
  const { state, clock, options } = world;

  app.post('/api/v1/tokens/m2m', async (request) => {
    const body = parseBody(tokenRequest, request.body);
    const client = state.clients.get(body.clientId);
    if (!client || client.clientSecret !== body.clientSecret) {
      throw new ApiError(401, 'INVALID_CLIENT', 'Unknown clientId or wrong clientSecret');
    }
    const tenantId = body.tenantId ?? client.tenantId;
    if (!state.tenants.has(tenantId) || !state.isSelfOrDescendant(tenantId, client.tenantId)) {
      throw new ApiError(403, 'TENANT_FORBIDDEN', `This key may not act for tenant "${tenantId}"`);
    }
    if (state.tokens.size >= 10_000) {
      // Benchmarks ask for many tokens: forget the ones that have expired.
      const now = clock.nowMs();
      for (const [key, t] of state.tokens) if (t.expiresAtMs <= now) state.tokens.delete(key);
    }
    const accessToken = `sbx_at_${randomBytes(24).toString('base64url')}`;
    state.tokens.set(accessToken, {
      token: accessToken,
      clientId: client.clientId,
      tenantId,
      access: client.access,
      expiresAtMs: clock.nowMs() + options.tokenTtlSeconds * 1000,
    });
    return {
      accessToken,
      tokenType: 'Bearer',
      expiresIn: options.tokenTtlSeconds,
      refreshToken: `sbx_rt_${randomBytes(24).toString('base64url')}`,
    };
  });
}
