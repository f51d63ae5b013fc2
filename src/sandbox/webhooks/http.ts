import { type ClientRequest, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

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
export class WebhookPoster {
  private readonly inFlight = new Set<ClientRequest>();
  private closed = false;

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
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, {
        method: 'POST',
        agent: false,
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
