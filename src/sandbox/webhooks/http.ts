import { type ClientRequest, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressKind } from './address.js';

/** The consumer must answer within this long (real time), or the attempt fails. */
export const DELIVERY_TIMEOUT_MS = 500;

export interface PostResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Real HTTP POSTs of webhook deliveries: no redirects followed, no connection reuse, a hard
 * 500 ms limit, and every request in flight is destroyed by close().
 */
export interface WebhookPosterOptions {
  /** Loopback receivers are allowed (tests, --allow-http-webhooks); private networks never. */
  allowLoopback: boolean;
  /** The resolver (tests pass one that answers like a rebinding DNS server). */
  lookup?: LookupFunction;
}

export class WebhookPoster {
  private readonly inFlight = new Set<ClientRequest>();
  private closed = false;
  private readonly resolve: LookupFunction;

  constructor(private readonly options: WebhookPosterOptions = { allowLoopback: false }) {
    this.resolve = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  }

  /** Why an address may not be connected to, or null. */
  private refusal(address: string): string | null {
    const kind = addressKind(address);
    if (kind === 'public' || (kind === 'loopback' && this.options.allowLoopback)) return null;
    return `refused to connect to ${address}, a ${kind} address`;
  }

  /**
   * The lookup the socket connects with: every address it would use is checked, so the
   * decision is made on the address actually connected to, not on the text of the URI.
   */
  private readonly checkedLookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname, options, ((
      error: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => {
      if (error) return (callback as (e: Error) => void)(error);
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      for (const a of list) {
        const why = this.refusal(a);
        if (why)
          return (callback as (e: Error) => void)(
            Object.assign(new Error(`${hostname} resolves to ${a}: ${why}`), {
              code: 'EADDRNOTALLOWED',
            }),
          );
      }
      (callback as (e: null, a: unknown, f?: number) => void)(null, address, family);
    }) as never);
  };

  post(uri: string, body: string, headers: Record<string, string>): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (this.closed)
      return Promise.resolve({ statusCode: null, error: 'sandbox closed', durationMs: 0 });
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: Omit<PostResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(req);
        resolve({ ...result, durationMs: elapsed() });
      };
      const url = new URL(uri);
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      const why = isIP(literal) ? this.refusal(literal) : null;
      if (why) {
        settled = true;
        resolve({ statusCode: null, error: why, durationMs: elapsed() });
        return;
      }
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, {
        method: 'POST',
        agent: false,
        lookup: this.checkedLookup,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      this.inFlight.add(req);
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${DELIVERY_TIMEOUT_MS} ms` });
        req.destroy();
      }, DELIVERY_TIMEOUT_MS);
      req.on('response', (res) => {
        // Drain the body so the socket closes; the status is all that counts.
        res.resume();
        res.on('end', () => finish({ statusCode: res.statusCode ?? null, error: null }));
        res.on('error', (e) => finish({ statusCode: res.statusCode ?? null, error: e.message }));
      });
      req.on('error', (e) => finish({ statusCode: null, error: e.message }));
      req.on('close', () =>
        finish({ statusCode: null, error: 'connection closed without an answer' }),
      );
      req.end(body);
    });
  }

  close(): void {
    this.closed = true;
    for (const req of this.inFlight) req.destroy(new Error('sandbox closed'));
    this.inFlight.clear();
  }
}
