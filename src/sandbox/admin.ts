import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { connectionView } from './carriers.js';
import { notFound } from './errors.js';
import { faultSchema } from './faults.js';
import { AUTHORIZATION_STATUSES } from './fixtures.js';
import { TRACKING_STATUSES } from './trackers.js';
import { parseBody } from './validation.js';
import { type World, baseUrlOf } from './world.js';

const advanceRequest = z.object({
  seconds: z
    .number()
    .min(0)
    .max(10 * 365 * 86_400),
});
const statusRequest = z.object({ authorizationStatus: z.enum(AUTHORIZATION_STATUSES) });
const trackerEventRequest = z.object({
  status: z.enum(TRACKING_STATUSES),
  description: z.string().optional(),
  location: z.string().optional(),
});

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}
button{font-size:1.1rem;padding:.6rem 1.4rem}</style></head><body>${body}</body></html>`;
}

/** The `/sandbox/...` routes for tests and demos; never under /api/v1, no token needed. */
export function adminRoutes(app: FastifyInstance, world: World): void {
  const { state, clock, faults, trackers, webhooks } = world;

  app.get('/sandbox/clock', async () => ({ now: clock.iso() }));

  app.post('/sandbox/clock/advance', async (request) => {
    const { seconds } = parseBody(advanceRequest, request.body);
    const now = await clock.advance(seconds);
    return { now: now.toISOString() };
  });

  app.get('/sandbox/faults', async () => ({ faults: faults.list() }));

  app.post('/sandbox/faults', async (request, reply) => {
    const spec = parseBody(faultSchema, request.body);
    return reply.code(201).send(faults.add(spec));
  });

  app.delete('/sandbox/faults', async (_request, reply) => {
    faults.clear();
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>('/sandbox/connections/:id/status', async (request) => {
    const conn = state.connections.get(request.params.id);
    if (!conn) throw notFound(`Connection "${request.params.id}"`);
    const { authorizationStatus } = parseBody(statusRequest, request.body);
    conn.authorizationStatus = authorizationStatus;
    conn.updatedAt = clock.iso();
    return connectionView(conn, baseUrlOf(request));
  });

  app.get<{ Params: { id: string } }>('/sandbox/oauth/:id', async (request, reply) => {
    const conn = state.connections.get(request.params.id);
    if (!conn) throw notFound(`Connection "${request.params.id}"`);
    const owner = state.tenants.get(conn.ownerTenantId);
    const action = `/sandbox/oauth/${encodeURIComponent(conn.id)}/authorize`;
    return reply.type('text/html; charset=utf-8').send(
      page(
        `Authorize ${conn.carrier}`,
        `<h1>Connect ${escapeHtml(conn.carrier)} to the Shipping Platform</h1>
<p>Connection <strong>${escapeHtml(conn.name)}</strong> (account ${escapeHtml(conn.accountNumber)})
for <strong>${escapeHtml(owner?.name ?? conn.ownerTenantId)}</strong>.</p>
<p>Current status: <strong id="status">${conn.authorizationStatus}</strong></p>
<form method="post" action="${action}"><button type="submit" id="authorize">Authorize</button></form>
<p><small>Sandbox: this page stands in for the carrier's OAuth consent screen.</small></p>`,
      ),
    );
  });

  // The form posts urlencoded; accept it (and an empty body) without a JSON parser.
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, body),
    );
    scope.post<{ Params: { id: string } }>(
      '/sandbox/oauth/:id/authorize',
      async (request, reply) => {
        const conn = state.connections.get(request.params.id);
        if (!conn) throw notFound(`Connection "${request.params.id}"`);
        conn.authorizationStatus = 'AUTHORIZED';
        conn.updatedAt = clock.iso();
        const accept = request.headers.accept ?? '';
        if (accept.includes('application/json')) return connectionView(conn, baseUrlOf(request));
        return reply.type('text/html; charset=utf-8').send(
          page(
            'Authorized',
            `<h1>Authorized</h1><p>${escapeHtml(conn.carrier)} connection <strong>${escapeHtml(conn.name)}</strong>
is now <strong id="status">AUTHORIZED</strong>. You can close this window.</p>`,
          ),
        );
      },
    );
  });

  app.get('/sandbox/ledger/labels', async () => ({ labels: state.ledger }));

  app.get('/sandbox/webhook-deliveries', async () => ({ deliveries: webhooks.deliveries() }));

  app.get('/sandbox/outbox', async () => ({ emails: webhooks.outbox() }));

  app.post<{ Params: { trackingNumber: string } }>(
    '/sandbox/trackers/:trackingNumber/events',
    async (request) => {
      const tracker = trackers.get(request.params.trackingNumber);
      if (!tracker) throw notFound(`Tracker "${request.params.trackingNumber}"`);
      const body = parseBody(trackerEventRequest, request.body);
      trackers.setStatus(tracker, body.status, body.description, body.location);
      // The tracking.updated deliveries this fired are attempted before the call returns.
      await clock.runDue();
      return tracker;
    },
  );
}
