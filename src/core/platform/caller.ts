import { type z } from 'zod';
import { PLATFORM_DEADLINES_MS } from '../../shared/deadlines.js';
import { ConnectivityMonitor, type PlatformCapability } from './connectivity.js';
import { TokenResponseSchema } from './schemas.js';
import { TokenManager, TokenStore } from './tokens.js';
import { Transport, type Endpoint, type RequestObserver } from './transport.js';
import { HttpReader } from './http-read.js';
import { collectingWhileWaiting } from './idle-collect.js';
import { withoutSecret } from './errors.js';
import {
  type CallOptions,
  type PlatformClientOptions,
  type PlatformClientStats,
  type PlatformEnvironment,
} from './types.js';

/** What a whole call may take (token wait, attempts and backoff): see src/shared/deadlines.ts. */
export const DEFAULT_DEADLINES: Record<PlatformCapability, number> = { ...PLATFORM_DEADLINES_MS };

/**
 * How the client's endpoint methods reach the platform, for one profile: the transport, the
 * token and the connectivity judgement they share, the observers, and the two shapes of call
 * (a read, repeated where safe; a change, sent once). PlatformClient (client.ts) adds one
 * method per endpoint on top.
 */
export abstract class PlatformCaller {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly tenantId: string;
  readonly environment: PlatformEnvironment;
  readonly connectivity: ConnectivityMonitor;
  readonly tokens: TokenManager;
  private readonly transport: Transport;
  protected readonly origin: string;

  constructor(options: PlatformClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.clientId = options.clientId;
    this.tenantId = options.tenantId;
    this.environment = options.environment;
    const now = options.now ?? Date.now;
    this.connectivity = new ConnectivityMonitor(options.offlineThreshold ?? 3, now);
    this.transport = new Transport({
      baseUrl: `${this.baseUrl}/`,
      clientId: options.clientId,
      tenantId: options.tenantId,
      timeoutMs: options.timeoutMs ?? 15_000,
      labelTimeoutMs: options.labelTimeoutMs ?? 30_000,
      deadlines: { ...DEFAULT_DEADLINES, ...options.deadlines },
      retry: { attempts: 3, baseDelayMs: 250, maxDelayMs: 4000, ...options.retry },
      fetch: collectingWhileWaiting(options.fetch ?? globalThis.fetch),
      ...(options.fetch ? {} : { reader: new HttpReader() }),
      connectivity: this.connectivity,
      random: options.random ?? Math.random,
      now,
    });
    const getSecret = options.getSecret;
    this.tokens = new TokenManager({
      key: TokenStore.key(this.baseUrl, options.clientId, options.tenantId),
      store: options.tokenStore ?? new TokenStore(),
      now,
      ...(options.tokenRefreshMarginMs !== undefined
        ? { refreshMarginMs: options.tokenRefreshMarginMs }
        : {}),
      proactive: options.proactiveTokenRefresh ?? true,
      issue: async () => {
        const secret = await getSecret();
        const token = await this.transport
          .call({
            operation: 'issueToken',
            what: 'the token request',
            method: 'POST',
            path: 'api/v1/tokens/m2m',
            body: {
              grantType: 'clientCredentials',
              clientId: options.clientId,
              clientSecret: secret,
              // No tenant: the key's own (the spec's default), e.g. to discover it in a new profile.
              ...(options.tenantId ? { tenantId: options.tenantId } : {}),
            },
            schema: TokenResponseSchema,
            idempotent: true,
            anonymous: true,
          })
          // An answer that quotes the request (a proxy echoing it) must not carry the secret on.
          .catch((error: unknown) => {
            throw withoutSecret(error, secret);
          });
        return { accessToken: token.accessToken, expiresInSeconds: token.expiresIn ?? 3600 };
      },
    });
    this.transport.tokens = this.tokens;
    if (options.onRequest) this.transport.observers.add(options.onRequest);
  }

  /** Observe every HTTP attempt (timing, status, token waits); returns an unsubscribe function. */
  observe(observer: RequestObserver): () => void {
    this.transport.observers.add(observer);
    return () => this.transport.observers.delete(observer);
  }

  stats(): PlatformClientStats {
    return { ...this.tokens.stats, ...this.transport.stats };
  }

  /** Makes sure a token is there (e.g. when a profile is opened), so the first scan does not wait. */
  async warmUp(): Promise<void> {
    await this.tokens.current();
  }

  /** Stops the background token timer. */
  close(): void {
    this.tokens.close();
    this.transport.close();
  }

  protected call<T>(ep: Endpoint<T>, opts?: CallOptions): Promise<T> {
    return this.transport.call(ep, opts);
  }

  /** A read: repeated with backoff on network errors and 5xx. */
  protected get<T>(
    operation: string,
    what: string,
    path: string,
    schema: z.ZodType<T>,
    opts?: CallOptions,
    query?: Endpoint<T>['query'],
  ): Promise<T> {
    const ep: Endpoint<T> = { operation, what, method: 'GET', path, schema, idempotent: true };
    return this.call(query ? { ...ep, query } : ep, opts);
  }

  /** A change: sent once; the caller decides whether trying again is right. */
  protected change<T>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    operation: string,
    what: string,
    path: string,
    body: unknown,
    schema: z.ZodType<T> | undefined,
    opts?: CallOptions,
  ): Promise<T> {
    const ep: Endpoint<T> = { operation, what, method, path, body, idempotent: false };
    return this.call(schema ? { ...ep, schema } : ep, opts);
  }
}
