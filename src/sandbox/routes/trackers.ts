import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldError } from '../errors.js';
import { parseBody } from '../validation.js';
import { type World } from '../world.js';

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().min(1).optional(),
});

/** Opaque cursors: base64url of `<updatedAt>|<id>` (or `<createdDate>|<id>`). */
export function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { at: string; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const i = text.indexOf('|');
  if (i <= 0 || Number.isNaN(Date.parse(text.slice(0, i)))) {
    throw fieldError('cursor', 'is not a cursor this server issued', 'invalid');
  }
  return { at: text.slice(0, i), id: text.slice(i + 1) };
}

const trackerQuery = pageQuery.extend({
  updatedSince: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 timestamp')
    .optional(),
  trackingNumber: z.string().min(1).optional(),
});

export function trackerRoutes(app: FastifyInstance, world: World): void {
  const { state, trackers } = world;

  app.get('/api/v1/trackers', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'required' });
    const query = parseBody(trackerQuery, request.query ?? {});
    const after = decodeCursor(query.cursor);
    const page = trackers.list({
      // A 3PL sees the trackers of every merchant below the tenant it acts for.
      tenantIds: new Set(state.subtree(ctx.tenantId)),
      updatedSince: query.updatedSince ? new Date(query.updatedSince).toISOString() : undefined,
      trackingNumber: query.trackingNumber,
      after: after ? { updatedAt: after.at, id: after.id } : undefined,
      limit: query.limit,
    });
    const last = page.trackers[page.trackers.length - 1];
    return {
      trackers: page.trackers,
      nextCursor: page.hasMore && last ? encodeCursor(last.updatedAt, last.id) : null,
      hasMore: page.hasMore,
    };
  });
}
