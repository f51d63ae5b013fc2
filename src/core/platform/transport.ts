import { type z } from 'zod';
import { capabilityOf, type ConnectivityMonitor, type PlatformCapability } from './connectivity.js';
import {
  attemptTimeout,
  roomForAnother,
  saidWithTries,
  seconds,
  withinDeadline,
} from './budget.js';
import { type PlatformError, type PlatformErrorKind } from './errors.js';
import {
  errorAnswer,
  kindOfAnswer,
  kindWithoutAnswer,
  networkCode,
  networkWords,
  noAnswerError,
  parseJson,
  unreadableAnswer,
  wasNotSent,
  type Exchange,
} from './exchange-errors.js';
import { backoffDelay, retryAfterMs, sleep, worthRetrying, type RetryPolicy } from './retry.js';
import { RetryAfterHold } from './retry-after-hold.js';
import { type TokenManager } from './tokens.js';
import { type CallOptions } from './types.js';
import { type HttpReader } from './http-read.js';

/**
 * One HTTP exchange with the platform: headers, timeout, token, the single 401 retry, retries
 * where repeating is safe, response validation, and the observer events a benchmark sums. The
 * call's time budget is in budget.ts, when to send again in retry.ts, and what a failure becomes
 * in exchange-errors.ts.
 *
 * HTTP goes through Node's global `fetch` (undici). Its global dispatcher keeps connections
 * alive and reuses them per origin (and honours the server's Keep-Alive timeout hint, so a
 * request is not written onto a socket the server is about to close), which is what a
 * station making a rate + label call per scan needs. We chose it over `node:http` + a
 * keepAlive Agent because it needs no extra dependency, gives AbortSignal timeouts that also
 * cover reading the body, and a host may still inject its own `fetch` (e.g. with a custom
 * undici dispatcher, or Electron's net.fetch).
 *
 * Long lists (`bulk` reads: the tracker poll's pages) go through `reader` when there is one
 * (http-read.ts: Node's own client, which hands a large body over for a fraction of `fetch`'s
 * CPU); the client gives one unless the host injected its own `fetch`, which then carries
 * everything. Every other request, the packer's among them, stays on `fetch`'s one pool of
 * kept-alive connections.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint<T> {
  /** The client method: `purchaseLabel`, `getRates`…; observer events are keyed by it. */
  operation: string;
  /** For messages: "the label", "the rate request". */
  what: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /** Schema of a 2xx JSON body; omitted: the body is ignored (DELETE → 204). */
  schema?: z.ZodType<T>;
  /**
   * A faster reading of a valid body that gives exactly what `schema` would, or undefined to
   * let the schema decide (large lists: the tracker poll).
   */
  read?: (body: unknown) => T | undefined;
  /** A GET of a long list (about 1 MB a page): read through `TransportOptions.reader`. */
  bulk?: boolean;
  /** Read the 2xx body as text instead of JSON (the ZPL of a label). */
  text?: boolean;
  /** Safe to send again after a network error or 5xx (GET, rates, the token request). */
  idempotent: boolean;
  /** POST /api/v1/labels: never repeated; a doubtful failure is `unknown-outcome`. */
  purchase?: boolean;
  /** The token request carries credentials in its body instead of a bearer token. */
  anonymous?: boolean;
  /** Sent without x-tenant-id: the webhook requests need only the bearer token (spec part 5). */
  tokenTenant?: boolean;
  timeoutMs?: number;
  /** The whole call's budget; the capability's deadline when omitted. */
  deadlineMs?: number;
}

export interface PlatformRequestEvent {
  operation: string;
  method: HttpMethod;
  /** The path without the query string. */
  path: string;
  tenantId: string;
  /** HTTP status; null when no answer arrived. */
  status: number | null;
  ok: boolean;
  errorKind: PlatformErrorKind | null;
  /** From just before `fetch` to the end of the body: the API round trip. */
  durationMs: number;
  /** Whether this call had to wait for a token request before it could be sent. */
  waitedForToken: boolean;
  /** 1 for the first send; retries and the post-401 resend count up. */
  attempt: number;
  correlationId: string | null;
}

export type RequestObserver = (event: PlatformRequestEvent) => void;

export type { RetryPolicy } from './retry.js';

export interface TransportOptions {
  baseUrl: string;
  clientId: string;
  tenantId: string;
  timeoutMs: number;
  labelTimeoutMs: number;
  /** The whole call's budget per capability: token wait, attempts and backoff. */
  deadlines: Record<PlatformCapability, number>;
  retry: RetryPolicy;
  fetch: typeof fetch;
  /** Carries the `bulk` reads when given (see above). */
  reader?: HttpReader;
  connectivity: ConnectivityMonitor;
  random: () => number;
  now?: () => number; // the client's clock (ms): how long a Retry-After still holds
}

export interface TransportStats {
  /** Calls made through the client (not attempts). */
  calls: number;
  /** HTTP requests actually sent. */
  attempts: number;
  retries: number;
}

interface RawAnswer {
  status: number;
  correlationId: string | null;
  text: string;
  retryAfter?: string | null;
}

export class Transport {
  readonly stats: TransportStats = { calls: 0, attempts: 0, retries: 0 };
  readonly observers = new Set<RequestObserver>();
  tokens: TokenManager | undefined;
  private readonly host: string;
  /** The platform's Retry-After on rates and purchases, kept past the call that heard it. */
  private readonly hold: RetryAfterHold;

  constructor(private readonly o: TransportOptions) {
    this.host = new URL(o.baseUrl).host;
    this.hold = new RetryAfterHold(o.now);
  }

  async call<T>(ep: Endpoint<T>, opts: CallOptions = {}): Promise<T> {
    this.stats.calls++;
    const tenantId = opts.tenantId ?? this.o.tenantId;
    const attempts = ep.idempotent && !ep.purchase ? Math.max(1, this.o.retry.attempts) : 1;
    const deadline =
      performance.now() +
      (opts.deadlineMs ?? ep.deadlineMs ?? this.o.deadlines[capabilityOf(ep.operation)]);
    const startedAt = performance.now();
    const held = this.hold.check(ep.operation, () => this.exchange(ep, tenantId));
    if (held) throw held;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attemptOnce(ep, tenantId, opts, attempt, deadline);
      } catch (error) {
        this.hold.heard(ep.operation, error);
        const again =
          worthRetrying(error, ep.operation) && attempt < attempts && !opts.signal?.aborted;
        if (!again) throw saidWithTries(error, attempt, startedAt);
        // A platform that said how long to wait (Retry-After) is not asked again sooner.
        const delay = Math.max(
          backoffDelay(this.o.retry, attempt, this.o.random),
          (error as PlatformError).retryAfterMs ?? 0,
        );
        // No time left for a useful attempt: the caller hears now, not after the deadline.
        if (!roomForAnother(deadline, delay)) throw saidWithTries(error, attempt, startedAt);
        this.stats.retries++;
        await sleep(delay, opts.signal);
      }
    }
  }

  private exchange(ep: Endpoint<unknown>, tenantId: string): Exchange {
    return {
      operation: ep.operation,
      what: ep.what,
      method: ep.method,
      path: new URL(ep.path, this.o.baseUrl).pathname,
      tenantId,
      clientId: this.o.clientId,
      host: this.host,
      purchase: ep.purchase === true,
    };
  }

  private async attemptOnce<T>(
    ep: Endpoint<T>,
    tenantId: string,
    opts: CallOptions,
    attempt: number,
    deadline: number,
  ): Promise<T> {
    if (ep.anonymous || !this.tokens) {
      return this.interpret(
        ep,
        tenantId,
        await this.send(ep, tenantId, null, opts, false, attempt, deadline),
      );
    }
    const tokens = this.tokens;
    const { accessToken, waited } = await this.tokenWithin(
      tokens.current(),
      ep,
      tenantId,
      deadline,
    );
    let answer = await this.send(ep, tenantId, accessToken, opts, waited, attempt, deadline);
    if (answer.status === 401) {
      // Refresh once and send once more: a 401 means the platform did not act on the request,
      // so this is safe even for a purchase.
      const renewed = await this.tokenWithin(
        tokens.afterRejection(accessToken),
        ep,
        tenantId,
        deadline,
      );
      answer = await this.send(ep, tenantId, renewed, opts, true, attempt + 1, deadline);
    }
    return this.interpret(ep, tenantId, answer);
  }

  /**
   * Waits for a token no longer than the call's deadline. The request was not sent, so even a
   * purchase is known not to have happened (kind `network`).
   */
  private tokenWithin<V>(
    pending: Promise<V>,
    ep: Endpoint<unknown>,
    tenantId: string,
    deadline: number,
  ): Promise<V> {
    return withinDeadline(pending, deadline, (left) =>
      noAnswerError(
        { ...this.exchange(ep, tenantId), operation: 'issueToken' },
        'network',
        `the token request gave no access token within ${seconds(left)}`,
      ),
    );
  }

  private async send<T>(
    ep: Endpoint<T>,
    tenantId: string,
    accessToken: string | null,
    opts: CallOptions,
    waitedForToken: boolean,
    attempt: number,
    deadline: number,
  ): Promise<RawAnswer> {
    const url = new URL(ep.path, this.o.baseUrl);
    for (const [k, v] of Object.entries(ep.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: ep.text ? 'text/plain' : 'application/json' };
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    if (!ep.anonymous && !ep.tokenTenant && tenantId) headers['x-tenant-id'] = tenantId;
    if (ep.body !== undefined) headers['content-type'] = 'application/json';

    const timeoutMs = attemptTimeout(
      opts.timeoutMs ?? ep.timeoutMs ?? (ep.purchase ? this.o.labelTimeoutMs : this.o.timeoutMs),
      deadline,
    );
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const x = this.exchange(ep, tenantId);
    const capability = capabilityOf(ep.operation);
    const event = (
      status: number | null,
      errorKind: PlatformErrorKind | null,
      cid: string | null,
    ) =>
      this.emit({
        operation: ep.operation,
        method: ep.method,
        path: url.pathname,
        tenantId,
        status,
        ok: status !== null && status >= 200 && status < 300,
        errorKind,
        durationMs: performance.now() - started,
        waitedForToken,
        attempt,
        correlationId: cid,
      });

    this.stats.attempts++;
    const started = performance.now();
    try {
      const answer =
        ep.bulk && ep.method === 'GET' && this.o.reader
          ? await this.o.reader.get(url, headers, signal)
          : await this.fetchAnswer(ep, url, headers, signal);
      const { status, text } = answer;
      // The platform's reference of the last failure goes with it: the packer's "has not
      // answered … (HTTP 500, ref …)" is what support asks for.
      if (status >= 500)
        this.o.connectivity.recordFailure(
          status,
          `HTTP ${status}${answer.correlationId ? `, ref ${answer.correlationId}` : ''}`,
          capability,
        );
      else this.o.connectivity.recordAnswer(capability);
      const ok = status >= 200 && status < 300;
      event(status, ok ? null : kindOfAnswer(x, status, text), answer.correlationId);
      return answer;
    } catch (cause) {
      const callerAborted = opts.signal?.aborted === true && !timeout.aborted;
      const code = timeout.aborted ? 'timeout' : callerAborted ? 'cancelled' : networkCode(cause);
      const detail =
        code === 'timeout'
          ? `no answer within ${seconds(timeoutMs)}`
          : code === 'cancelled'
            ? 'cancelled'
            : networkWords(code);
      const kind = kindWithoutAnswer(x, code);
      if (!callerAborted)
        this.o.connectivity.recordFailure(null, detail, capability, wasNotSent(code));
      event(null, kind, null);
      if (callerAborted && !ep.purchase) throw opts.signal?.reason ?? cause;
      throw noAnswerError(x, kind, detail, cause);
    }
  }

  private async fetchAnswer(
    ep: Endpoint<unknown>,
    url: URL,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<RawAnswer> {
    const res = await this.o.fetch(url, {
      method: ep.method,
      headers,
      ...(ep.body !== undefined ? { body: JSON.stringify(ep.body) } : {}),
      signal,
      redirect: 'error',
    });
    const text = await res.text();
    return {
      status: res.status,
      correlationId: res.headers.get('x-correlation-id'),
      text,
      // Read only where it can matter (an error answer): the scan's path reads nothing more.
      retryAfter: res.ok ? null : res.headers.get('retry-after'),
    };
  }

  /** Closes the reader's kept-alive sockets. */
  close(): void {
    this.o.reader?.close();
  }

  private interpret<T>(ep: Endpoint<T>, tenantId: string, answer: RawAnswer): T {
    const headerCid = answer.correlationId;
    if (answer.status < 200 || answer.status >= 300)
      throw errorAnswer(
        this.exchange(ep, tenantId),
        answer.status,
        answer.text,
        headerCid,
        retryAfterMs(answer.retryAfter, Date.now()),
      );
    if (ep.text) return answer.text as T;
    if (!ep.schema) return undefined as T;

    const body = parseJson(answer.text);
    const read = body === undefined ? undefined : ep.read?.(body);
    if (read !== undefined) return read;
    const parsed = body === undefined ? null : ep.schema.safeParse(body);
    if (parsed?.success) return parsed.data;
    throw unreadableAnswer(
      this.exchange(ep, tenantId),
      answer.status,
      answer.text,
      body,
      parsed ? parsed.error.issues : null,
      headerCid,
    );
  }

  private emit(event: PlatformRequestEvent): void {
    for (const observer of this.observers) {
      try {
        observer(event);
      } catch {
        // An observer's bug must never fail a purchase.
      }
    }
  }
}
