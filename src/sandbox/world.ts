import { type FastifyRequest } from 'fastify';
import { type AuthOptions, type CallContext, authenticate } from './auth.js';
import { type SandboxClock } from './clock.js';
import { type FaultInjector } from './faults.js';
import { type SandboxState } from './state.js';
import { type TrackerStore } from './trackers.js';
import { type WebhookService } from './webhooks/service.js';

export interface WorldOptions {
  latencyMs: number;
  tokenTtlSeconds: number;
  allowHttpWebhooks: boolean;
}

/** Everything a route needs, passed to each route module. */
export interface World {
  state: SandboxState;
  clock: SandboxClock;
  faults: FaultInjector;
  trackers: TrackerStore;
  webhooks: WebhookService;
  options: WorldOptions;
  /** Unexpected errors, kept for debugging (the sandbox never prints unless asked). */
  internalErrors: unknown[];
  /** Every API request (method, path, wall-clock ms), for tests that count calls (bounded). */
  requests: { method: string; path: string; at: number }[];
  auth(request: FastifyRequest, options: AuthOptions): CallContext;
}

export function makeAuth(state: SandboxState, clock: SandboxClock): World['auth'] {
  return (request, options) => authenticate(request, state, clock, options);
}

/** The absolute base address the caller used, for links such as oauth_url and labelUrl. */
export function baseUrlOf(request: FastifyRequest): string {
  const host = request.headers.host ?? `${request.hostname}`;
  return `${request.protocol}://${host}`;
}
