import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound, validationError } from '../errors.js';
import { type ManifestRecord, newId } from '../state.js';
import { parseBody } from '../validation.js';
import { type World } from '../world.js';

/**
 * POST /api/v1/manifests: the spec says a manifest needs a shippingSiteId and shows nothing
 * else. The sandbox's reading (docs/sandbox.md): the tenant's labels from that site not yet on
 * a manifest, optionally of one carrier and/or the labels named, go on a new manifest. Labels
 * already on one are listed in `alreadyManifested`, never added twice; nothing new is a 400.
 */
const manifestRequest = z.looseObject({
  shippingSiteId: z.string().min(1),
  carrier: z.string().min(1).optional(),
  labelIds: z.array(z.string().min(1)).max(10_000).optional(),
});

export function manifestRoutes(app: FastifyInstance, world: World): void {
  const { state, clock } = world;

  app.post('/api/v1/manifests', async (request, reply) => {
    const ctx = world.auth(request, { tenantHeader: 'required', fullAccess: true });
    const body = parseBody(manifestRequest, request.body);
    const site = state.sites.get(body.shippingSiteId);
    if (!site || !state.lineage(ctx.tenantId).includes(site.tenantId))
      throw validationError([
        { field: 'shippingSiteId', message: 'unknown shipping site', code: 'not_found' },
      ]);
    const named = body.labelIds ? new Set(body.labelIds) : null;
    const errors = (body.labelIds ?? []).flatMap((id, i) => {
      const label = state.labels.get(id);
      return label && label.tenantId === ctx.tenantId
        ? []
        : [{ field: `labelIds[${i}]`, message: `label "${id}" was not found`, code: 'not_found' }];
    });
    if (errors.length) throw validationError(errors);
    const candidates = [...state.labels.values()].filter(
      (l) =>
        l.tenantId === ctx.tenantId &&
        l.shippingSiteId === site.id &&
        (!body.carrier || l.carrier === body.carrier) &&
        (!named || named.has(l.id)),
    );
    const already = candidates.filter((l) => l.manifestId !== null);
    const fresh = candidates.filter((l) => l.manifestId === null);
    if (fresh.length === 0)
      throw validationError(
        [
          {
            field: 'labelIds',
            message:
              'nothing to manifest: every label asked for is already on a manifest, or there is none',
            code: 'empty',
          },
        ],
        `Nothing to manifest: no label of site ${site.id}${body.carrier ? ` and carrier ${body.carrier}` : ''} is left off a manifest`,
      );
    const manifest: ManifestRecord = {
      id: newId('mf'),
      tenantId: ctx.tenantId,
      shippingSiteId: site.id,
      carrier: body.carrier ?? null,
      labelIds: fresh.map((l) => l.id),
      trackingNumbers: fresh.flatMap((l) => l.packages.map((p) => p.trackingNumber)),
      createdAt: new Date(clock.nowMs()).toISOString(),
    };
    for (const l of fresh) l.manifestId = manifest.id;
    state.manifests.set(manifest.id, manifest);
    return reply.code(201).send({
      ...manifest,
      labelCount: fresh.length,
      alreadyManifested: already.map((l) => ({ labelId: l.id, manifestId: l.manifestId })),
    });
  });

  app.get<{ Params: { id: string } }>('/api/v1/manifests/:id', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    const manifest = state.manifests.get(request.params.id);
    if (!manifest || !state.isSelfOrDescendant(manifest.tenantId, ctx.tenantId))
      throw notFound(`Manifest "${request.params.id}"`);
    return { ...manifest, labelCount: manifest.labelIds.length };
  });
}
