import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';

/**
 * The platform's long lists (GET) over Node's own HTTP client instead of `fetch`.
 *
 * Why: a tracker poll reads large answers (1,000 trackers, about 1 MB a page), and `fetch`
 * hands a body over as a web stream of small chunks: 10,000 trackers cost about 20 ms more
 * station CPU through it than through `node:http`, on top of the same `JSON.parse`. Measured
 * in docs/benchmarks.md ("Tracker ingest").
 *
 * Only the long lists come here (the transport's `bulk` reads). A read is safe to send again,
 * so a reset on a kept-alive socket the server was closing is retried like any network error
 * (Node's agent also honours the server's `Keep-Alive: timeout` hint, as `fetch` does).
 * Purchases, every write and the small reads of the packer's path stay on `fetch`, on its one
 * pool of kept-alive connections (a second pool would cost them a new connection, and on a
 * real network a TLS handshake, whenever its own had gone idle). Kept-alive sockets are
 * dropped after 4 s idle (below the usual 5 s of a Node server, the shortest common default);
 * gzip and br answers are decoded and a 3xx refused, as by `fetch`.
 */

export interface ReadAnswer {
  status: number;
  correlationId: string | null;
  text: string;
  /** The answer's `Retry-After` header as sent, if any. */
  retryAfter?: string | null;
}

const decoders: Record<string, (b: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
};
/** The codings asked for: the two every server sends (deflate's two shapes are left out). */
const ACCEPT_ENCODING = 'gzip, br';
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const IDLE_SOCKET_MS = 4_000;

/** An error with the `code` networkCode() (exchange-errors.ts) reads. */
const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

/**
 * The body as `fetch` would give it: the codings undone in reverse order (`gzip, br` is br of
 * gzip), an empty body or an unknown coding left as it is, the UTF-8 byte-order mark dropped.
 */
async function decoded(body: Buffer, contentEncoding: string | string[] | undefined) {
  const codings = String(contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  let bytes = body;
  for (const coding of codings.reverse()) {
    if (bytes.length === 0) break;
    const decode = decoders[coding];
    // An encoding not asked for is left as it came (as fetch does): the answer then fails to
    // read as JSON, and says so with its status and correlation id.
    if (!decode) break;
    bytes = await decode(bytes);
  }
  return bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
}

/** A body's bytes as they arrive (see HttpReader.bodyFor). */
interface Body {
  add(chunk: Buffer): void;
  /** What has arrived, in place (valid until release). */
  bytes(): Buffer;
  /** The buffer may be used for the next answer. */
  release(): void;
}

/** A body's buffer when its length is not said (chunked): doubled as it fills. */
const FIRST_SIZE = 64 * 1024;
/** The largest buffer kept for the next answer (a bigger answer's buffer goes with it). */
const SPARE_MAX = 16 * 1024 * 1024;

export class HttpReader {
  /** The buffer of the largest answer read so far, free for the next one (see bodyFor). */
  private spare: Buffer | null = null;
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  };

  /**
   * GET `url`; resolves with the whole body as text once it has arrived (decoded), rejects
   * with the socket's error (its `code`: ECONNREFUSED, ECONNRESET…), with code `unexpected
   * redirect` for a 3xx (as `fetch` with `redirect: 'error'` refuses one) or, when `signal`
   * aborts, with its reason: the signal covers reading the body too.
   */
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<ReadAnswer> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const secure = url.protocol === 'https:';
    const agent = this.agents[secure ? 'https:' : 'http:'];
    return new Promise<ReadAnswer>((resolve, reject) => {
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        return true;
      };
      const fail = (error: unknown) => {
        if (settle()) reject(error);
      };
      const onAbort = () => {
        fail(signal.reason);
        request.destroy();
      };
      const request = (secure ? https : http).request(
        url,
        { method: 'GET', agent, headers: { ...headers, 'accept-encoding': ACCEPT_ENCODING } },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            fail(coded(`unexpected redirect (HTTP ${status})`, 'unexpected redirect'));
            response.resume();
            return;
          }
          const body = this.bodyFor(response.headers['content-length']);
          response.on('data', (chunk: Buffer) => body.add(chunk));
          response.on('error', fail);
          response.on('close', () => {
            if (!response.complete) fail(coded('socket hang up', 'ECONNRESET'));
          });
          response.on('end', () => {
            if (settled) return;
            decoded(body.bytes(), response.headers['content-encoding']).then((bytes) => {
              // The text is a copy: the buffer is free for the next answer from here on.
              const text = bytes.toString('utf8');
              body.release();
              if (!settle()) return;
              const cid = response.headers['x-correlation-id'];
              const retryAfter = status >= 400 ? response.headers['retry-after'] : undefined;
              resolve({
                status,
                correlationId: typeof cid === 'string' ? cid : null,
                text,
                retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
              });
            }, fail);
          });
        },
      );
      request.on('error', fail);
      signal.addEventListener('abort', onAbort, { once: true });
      request.end();
    });
  }

  /**
   * A body's bytes gathered in one buffer kept from answer to answer (its size is the largest
   * answer read so far, at most SPARE_MAX). Gathered in a new buffer each time, a 1 MB page had
   * the process fault fresh memory in for it: about 1,000 page faults more per 10,000 trackers
   * (a few ms of CPU on the development machine, where a fault costs about 5 µs). Two answers
   * read at once: the second gets a buffer of its own.
   */
  private bodyFor(contentLength: string | undefined): Body {
    const expected = Number(contentLength);
    const size = Number.isSafeInteger(expected) && expected > 0 ? expected : FIRST_SIZE;
    let buffer = this.spare !== null && this.spare.length >= size ? this.spare : null;
    if (buffer) this.spare = null;
    else buffer = Buffer.allocUnsafeSlow(Math.max(size, FIRST_SIZE));
    let length = 0;
    return {
      add: (chunk) => {
        if (length + chunk.length > buffer!.length) {
          const bigger = Buffer.allocUnsafeSlow(
            Math.max(2 * buffer!.length, length + chunk.length),
          );
          buffer!.copy(bigger, 0, 0, length);
          buffer = bigger;
        }
        chunk.copy(buffer!, length);
        length += chunk.length;
      },
      bytes: () => buffer!.subarray(0, length),
      release: () => {
        const b = buffer!;
        if (b.length <= SPARE_MAX && (this.spare === null || this.spare.length < b.length))
          this.spare = b;
      },
    };
  }

  /** Closes the kept-alive sockets (the client is being put away). */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
    this.spare = null;
  }
}
