import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';

/**
 * The platform's long lists (GET) over Node's own HTTP client instead of `fetch`.
 *
 * Why: a tracker poll reads large answers (1,000 trackers, about 1 MB a page), and `fetch`
 * hands a body over as a web stream of small chunks: 10,000 trackers cost about 20 ms more
 * station CPU through it than through `node:http` (and the first poll of a process some 40 ms
 * more, compiling undici's stream code), on top of the same `JSON.parse`. Measured in
 * docs/benchmarks.md ("Tracker ingest").
 *
 * Only the long lists come here (the transport's `bulk` reads). A read is safe to send again, so
 * the one thing `fetch` does better, keeping a request off a kept-alive socket the server is
 * closing, does not matter: a reset read is retried like any network error. Purchases, every
 * write and the small reads of the packer's path stay on `fetch`, on its one pool of kept-alive
 * connections (a second pool would cost them a new connection, and on a real network a TLS
 * handshake, whenever its own had gone idle).
 * Kept-alive sockets are dropped after 4 s idle (below the usual 5 s of a Node server, the
 * shortest common default), and the same compressions `fetch` accepts are accepted here.
 */

export interface ReadAnswer {
  status: number;
  correlationId: string | null;
  text: string;
}

const decoders: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

const IDLE_SOCKET_MS = 4_000;

export class HttpReader {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  };

  /**
   * GET `url`; resolves with the whole body as text once it has arrived (decompressed), rejects
   * with the socket's error (its `code`: ECONNREFUSED, ECONNRESET…) or, when `signal` aborts,
   * with its reason: the signal covers reading the body too.
   */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<ReadAnswer> {
    const secure = url.protocol === 'https:';
    const agent = this.agents[secure ? 'https:' : 'http:'];
    return new Promise<ReadAnswer>((resolve, reject) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => {
        fail(signal.reason);
        request.destroy();
      };
      const request = (secure ? https : http).request(
        url,
        {
          method: 'GET',
          agent,
          headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', fail);
          response.on('close', () => {
            if (!response.complete)
              fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
          });
          response.on('end', () => {
            if (settled) return;
            const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
            const encoding = String(response.headers['content-encoding'] ?? '')
              .trim()
              .toLowerCase();
            const decode = encoding && encoding !== 'identity' ? decoders[encoding] : undefined;
            const done = (bytes: Buffer) => {
              if (settled) return;
              settled = true;
              signal.removeEventListener('abort', onAbort);
              const cid = response.headers['x-correlation-id'];
              resolve({
                status: response.statusCode ?? 0,
                correlationId: typeof cid === 'string' ? cid : null,
                text: bytes.toString('utf8'),
              });
            };
            if (decode) decode(body).then(done, fail);
            else done(body);
          });
        },
      );
      request.on('error', fail);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      request.end();
    });
  }

  /** Closes the kept-alive sockets (the client is being put away). */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
