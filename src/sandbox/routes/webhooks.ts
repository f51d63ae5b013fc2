import { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, type FieldError, notFound, validationError } from '../errors.js';
import { parseBody, parseBodyWithRules, rawAt } from '../validation.js';
import { type EventRecord, type Subscription } from '../webhooks/service.js';
import { uriProblem, urlKey } from '../webhooks/uri.js';
import { type World } from '../world.js';
import { pageQuery } from './trackers.js';

const EVENT_TYPES = ['tracking.updated'] as const;
/** A subscription this close to its expiry may be replaced by a new one for the same URL. */
export const RENEWAL_WINDOW_DAYS = 30;
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'authorization',
  'host',
  'x-hmac-sha256',
  'x-service-event-id',
  'transfer-encoding',
  'connection',
]);

const credentials = z.object({ username: z.string().min(1), password: z.string().min(1) });
const customHeader = z.object({
  key: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a valid HTTP header name'),
  value: z
    .string()
    .max(1000)
    .regex(/^[^\r\n]*$/, 'must be a single line'),
});

const createRequest = z.object({
  uri: z.string().min(1).max(2000),
  email: z.email(),
  registeredEvents: z.array(z.enum(EVENT_TYPES)).min(1),
  secret: z.string().min(1).max(200).optional(),
  credentials: credentials.optional(),
  customHeader: customHeader.optional(),
});

const updateRequest = z.object({
  uri: z.string().min(1).max(2000).optional(),
  email: z.email().optional(),
  registeredEvents: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
  secret: z.string().min(1).max(200).nullable().optional(),
  credentials: credentials.nullable().optional(),
  customHeader: customHeader.nullable().optional(),
  isActive: z.boolean().optional(),
  updateSecret: z.boolean().optional(),
  updateCredentials: z.boolean().optional(),
  updateCustomHeader: z.boolean().optional(),
});

const eventsQuery = pageQuery.extend({ webhookId: z.string().min(1).optional() });

function encodePosition(index: number): string {
  return Buffer.from(`evt|${index}`, 'utf8').toString('base64url');
}

function decodePosition(cursor: string): number {
  const match = /^evt\|(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match)
    throw validationError([
      { field: 'cursor', message: 'is not a cursor this server issued', code: 'invalid' },
    ]);
  return Number(match[1]);
}

/** Which stored write-only values a PATCH changes: with its update flag, or when none is stored. */
function changesOf(sub: Subscription, body: Record<string, unknown>) {
  return {
    secret: body.updateSecret === true || (sub.secret === null && body.secret != null),
    credentials:
      body.updateCredentials === true || (sub.credentials === null && body.credentials != null),
    customHeader:
      body.updateCustomHeader === true || (sub.customHeader === null && body.customHeader != null),
  };
}

export function webhookView(sub: Subscription) {
  return {
    id: sub.id,
    webhookId: sub.id,
    tenantId: sub.tenantId,
    uri: sub.uri,
    email: sub.email,
    registeredEvents: [...sub.registeredEvents],
    isActive: sub.status === 'ACTIVE',
    status: sub.status,
    expirationDate: sub.expirationDate,
    hasSecret: sub.secret !== null,
    hasCredentials: sub.credentials !== null,
    hasCustomHeader: sub.customHeader !== null,
    createdAt: sub.createdAt,
    updatedAt: sub.updatedAt,
  };
}

export function webhookRoutes(app: FastifyInstance, world: World): void {
  const { clock, webhooks, options } = world;
  // The webhook requests need only the bearer token; x-tenant-id, when sent, must be in scope.
  const authWrite = { tenantHeader: 'optional', fullAccess: true } as const;

  const checkUri = (tenantId: string, uri: string, except?: string): void => {
    const problem = uriProblem(uri, options.allowHttpWebhooks);
    if (problem) throw validationError([{ field: 'uri', message: problem, code: 'invalid_uri' }]);
    const renewFrom = clock.nowMs() + RENEWAL_WINDOW_DAYS * 86_400_000;
    const key = urlKey(uri);
    for (const sub of webhooks.subscriptions.values()) {
      // One subscription per URL; an expired one, or one in its last 30 days, does not count,
      // so its replacement can be created before it expires (spec part 6, "Expiry").
      const replaceable = sub.status === 'EXPIRED' || Date.parse(sub.expirationDate) <= renewFrom;
      const same = sub.tenantId === tenantId && urlKey(sub.uri) === key;
      if (same && sub.id !== except && !replaceable) {
        throw new ApiError(
          409,
          'WEBHOOK_URI_EXISTS',
          `A subscription for ${uri} already exists (${sub.id})`,
          [{ field: 'uri', message: 'already has a subscription', code: 'conflict' }],
        );
      }
    }
  };
  const checkHeader = (header: { key: string } | null | undefined): FieldError[] =>
    header && RESERVED_HEADERS.has(header.key.toLowerCase())
      ? [
          {
            field: 'customHeader.key',
            message: `"${header.key}" is set by the platform`,
            code: 'reserved',
          },
        ]
      : [];
  const owned = (tenantId: string, id: string): Subscription => {
    const sub = webhooks.subscriptions.get(id);
    if (!sub || sub.tenantId !== tenantId) throw notFound(`Webhook subscription "${id}"`);
    return sub;
  };

  app.post('/api/v1/webhooks', async (request, reply) => {
    const ctx = world.auth(request, authWrite);
    // Schema problems and the rules are reported together, every bad field at once.
    const body = parseBodyWithRules(createRequest, request.body, (raw) => {
      const errors: FieldError[] = [];
      const key = rawAt(raw, 'customHeader', 'key');
      if (typeof key === 'string') errors.push(...checkHeader({ key }));
      if (raw.secret == null && raw.credentials == null) {
        errors.push({
          field: 'secret',
          message: 'secret or credentials is required (a secret is recommended)',
          code: 'required',
        });
      }
      if (typeof raw.uri === 'string' && raw.uri !== '') {
        const problem = uriProblem(raw.uri, options.allowHttpWebhooks);
        if (problem) errors.push({ field: 'uri', message: problem, code: 'invalid_uri' });
      }
      return errors;
    });
    checkUri(ctx.tenantId, body.uri);
    const sub = webhooks.add({
      tenantId: ctx.tenantId,
      uri: body.uri,
      email: body.email,
      registeredEvents: [...new Set(body.registeredEvents)],
      secret: body.secret ?? null,
      credentials: body.credentials ?? null,
      customHeader: body.customHeader ?? null,
    });
    return reply.code(201).send(webhookView(sub));
  });

  app.get('/api/v1/webhooks', async (request) => {
    const ctx = world.auth(request, authWrite);
    const list = [...webhooks.subscriptions.values()].filter((s) => s.tenantId === ctx.tenantId);
    return { webhooks: list.map(webhookView) };
  });

  app.get<{ Params: { id: string } }>('/api/v1/webhooks/:id', async (request) => {
    const ctx = world.auth(request, authWrite);
    return webhookView(owned(ctx.tenantId, request.params.id));
  });

  app.patch<{ Params: { id: string } }>('/api/v1/webhooks/:id', async (request) => {
    const ctx = world.auth(request, authWrite);
    const sub = owned(ctx.tenantId, request.params.id);
    // Schema problems and the rules below are reported together, every bad field at once.
    const body = parseBodyWithRules(updateRequest, request.body, (raw) => {
      const errors: FieldError[] = [];
      const key = rawAt(raw, 'customHeader', 'key');
      if (typeof key === 'string') errors.push(...checkHeader({ key }));
      if (typeof raw.uri === 'string' && raw.uri !== '' && raw.uri !== sub.uri) {
        const problem = uriProblem(raw.uri, options.allowHttpWebhooks);
        if (problem) errors.push({ field: 'uri', message: problem, code: 'invalid_uri' });
      }
      const change = changesOf(sub, raw);
      // Stored write-only values change only with their update flag (spec, PATCH row).
      for (const [value, changing, flag, what] of [
        [raw.secret, change.secret, 'updateSecret', 'secret'],
        [raw.credentials, change.credentials, 'updateCredentials', 'credentials'],
        [raw.customHeader, change.customHeader, 'updateCustomHeader', 'custom header'],
      ] as const) {
        if (value !== undefined && !changing)
          errors.push({
            field: flag,
            message: `must be true to change the stored ${what}`,
            code: 'required',
          });
      }
      const nextSecret = change.secret ? raw.secret : sub.secret;
      const nextCredentials = change.credentials ? raw.credentials : sub.credentials;
      if (errors.length === 0 && !nextSecret && !nextCredentials)
        errors.push({
          field: 'secret',
          message: 'secret or credentials is required',
          code: 'required',
        });
      if (raw.isActive === true && sub.status === 'EXPIRED')
        errors.push({
          field: 'isActive',
          message: 'the subscription has expired: create a new one, then delete this one',
          code: 'expired',
        });
      return errors;
    });
    const change = changesOf(sub, body);
    const nextSecret = change.secret ? (body.secret ?? null) : sub.secret;
    const nextCredentials = change.credentials ? (body.credentials ?? null) : sub.credentials;
    const headerChange = change.customHeader;
    if (body.uri !== undefined && body.uri !== sub.uri) checkUri(ctx.tenantId, body.uri, sub.id);

    if (body.uri !== undefined) sub.uri = body.uri;
    if (body.email !== undefined) sub.email = body.email;
    if (body.registeredEvents !== undefined)
      sub.registeredEvents = [...new Set(body.registeredEvents)];
    sub.secret = nextSecret;
    sub.credentials = nextCredentials;
    if (headerChange) sub.customHeader = body.customHeader ?? null;
    if (body.isActive === true && sub.status === 'DISABLED') {
      sub.status = 'ACTIVE';
      sub.consecutiveFailedEvents = 0;
    } else if (body.isActive === false && sub.status === 'ACTIVE') {
      sub.status = 'DISABLED';
    }
    sub.updatedAt = clock.iso();
    return webhookView(sub);
  });

  app.delete<{ Params: { id: string } }>('/api/v1/webhooks/:id', async (request, reply) => {
    const ctx = world.auth(request, authWrite);
    webhooks.remove(owned(ctx.tenantId, request.params.id));
    return reply.code(204).send();
  });

  app.get('/api/v1/webhookEvents', async (request) => {
    const ctx = world.auth(request, { tenantHeader: 'optional' });
    const query = parseBody(eventsQuery, request.query ?? {});
    // The cursor is the position after the last event returned (events are only appended).
    const start = query.cursor === undefined ? 0 : decodePosition(query.cursor);
    const matches: { record: EventRecord; index: number }[] = [];
    for (let i = start; i < webhooks.events.length && matches.length <= query.limit; i++) {
      const record = webhooks.events[i]!;
      if (record.subscriberTenantId !== ctx.tenantId || record.attempts === 0) continue;
      if (query.webhookId && record.webhookId !== query.webhookId) continue;
      matches.push({ record, index: i });
    }
    const page = matches.slice(0, query.limit);
    const hasMore = matches.length > query.limit;
    const last = page[page.length - 1];
    return {
      webhookEvents: page.map(({ record: r }) => ({
        ...r.envelope,
        webhookId: r.webhookId,
        deliveryStatus: r.deliveryStatus,
        attempts: r.attempts,
      })),
      nextCursor: hasMore && last ? encodePosition(last.index + 1) : null,
      hasMore,
    };
  });
}
