import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { adminRoutes } from './admin.js';
import { ApiError, type ErrorEnvelope, errorCodeForStatus } from './errors.js';
import { carrierAccountRoutes } from './routes/carrierAccounts.js';
import { labelRoutes } from './routes/labels.js';
import { manifestRoutes } from './routes/manifests.js';
import { rateRoutes } from './routes/rates.js';
import { siteRoutes } from './routes/sites.js';
import { tenantRoutes } from './routes/tenants.js';
import { tokenRoutes } from './routes/tokens.js';
import { trackerRoutes } from './routes/trackers.js';
import { webhookRoutes } from './routes/webhooks.js';
import { type World } from './world.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

function envelopeFor(error: unknown, correlationId: string): ErrorEnvelope {
  if (error instanceof ApiError) {
    return {
      message: error.message,
      statusCode: error.statusCode,
      errorCode: error.errorCode,
      errors: error.errors,
      correlationId,
    };
  }
  const fe = error as Partial<FastifyError> & { name?: string };
  const base = { message: '', statusCode: 0, errorCode: '', errors: [], correlationId };
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        ...base,
        statusCode: 413,
        errorCode: 'PAYLOAD_TOO_LARGE',
        message: `The request body is larger than ${BODY_LIMIT_BYTES} bytes`,
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        ...base,
        statusCode: 400,
        errorCode: 'MALFORMED_JSON',
        message: 'The request body is not valid JSON',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        ...base,
        statusCode: 415,
        errorCode: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as application/json',
      };
    default:
      break;
  }
  if (fe.name === 'SyntaxError' && fe.statusCode === 400) {
    return {
      ...base,
      statusCode: 400,
      errorCode: 'MALFORMED_JSON',
      message: 'The request body is not valid JSON',
    };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return {
      ...base,
      statusCode: status,
      errorCode: status === 400 ? 'BAD_REQUEST' : errorCodeForStatus(status),
      message: 'The request could not be processed',
    };
  }
  return {
    ...base,
    statusCode: 500,
    errorCode: 'INTERNAL_ERROR',
    message: 'The sandbox failed to process the request: retry, and quote the correlationId',
  };
}

/** The Fastify app: error envelope, correlation ids, faults, latency, every route. */
export function buildServer(world: World): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
    genReqId: () => `cor_${randomBytes(9).toString('base64url')}`,
    return503OnClosing: false,
  });

  // Empty bodies with a JSON content type are accepted (a DELETE sent by a generic client);
  // anything else must parse.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new ApiError(400, 'MALFORMED_JSON', 'The request body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-correlation-id', request.id);
    const path = request.url.split('?', 1)[0] ?? request.url;
    if (path.startsWith('/sandbox')) return;
    world.requests.push({ method: request.method, path, at: Date.now() });
    if (world.requests.length > 100_000) world.requests.splice(0, 10_000);
    const fault = world.faults.take(request.method, path, false);
    if (fault && (await world.faults.apply(fault, request, reply))) return reply;
    if (world.options.latencyMs > 0 && path.startsWith('/api/v1')) {
      await world.faults.sleep(world.options.latencyMs);
    }
  });

  // Faults with `after: true` let the request do its work and then lose or delay the answer.
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    if (path.startsWith('/sandbox')) return payload;
    const fault = world.faults.take(request.method, path, true);
    if (!fault) return payload;
    switch (fault.kind) {
      case 'delay':
        await world.faults.sleep(fault.delayMs);
        return payload;
      case 'status': {
        const envelope = envelopeFor(
          new ApiError(
            fault.status,
            errorCodeForStatus(fault.status),
            `Injected fault: ${fault.status} on ${fault.method} ${fault.path}`,
          ),
          request.id,
        );
        reply.code(fault.status).header('content-type', 'application/json; charset=utf-8');
        if (fault.retryAfterSeconds !== null)
          void reply.header('retry-after', String(fault.retryAfterSeconds));
        return JSON.stringify(envelope);
      }
      case 'reset':
        request.raw.socket.destroy();
        return payload;
      case 'hang':
        await world.faults.holdOpen(request.raw.socket);
        return payload;
      default: {
        const never: never = fault.kind;
        return never;
      }
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const envelope = envelopeFor(error, request.id);
    if (envelope.statusCode >= 500 && !(error instanceof ApiError))
      world.internalErrors.push(error);
    return reply.code(envelope.statusCode).send(envelope);
  });

  app.setNotFoundHandler((request, reply) => {
    const envelope: ErrorEnvelope = {
      message: `No route ${request.method} ${request.url.split('?', 1)[0]}`,
      statusCode: 404,
      errorCode: 'ROUTE_NOT_FOUND',
      errors: [],
      correlationId: request.id,
    };
    return reply.code(404).send(envelope);
  });

  tokenRoutes(app, world);
  tenantRoutes(app, world);
  siteRoutes(app, world);
  carrierAccountRoutes(app, world);
  rateRoutes(app, world);
  labelRoutes(app, world);
  manifestRoutes(app, world);
  trackerRoutes(app, world);
  webhookRoutes(app, world);
  adminRoutes(app, world);
  return app;
}
