import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpReader } from '../../../src/core/platform/http-read.js';
import { DEMO, useSandbox } from '../../support/sandbox.js';
import { clientFor } from './support.js';

/** A real HTTP server on port 0; `handle` answers each request. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return new URL(`http://127.0.0.1:${port}/api/v1/trackers?limit=2`);
}

const servers: Server[] = [];
const readers: HttpReader[] = [];
afterEach(async () => {
  for (const r of readers.splice(0)) r.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

function reader(): HttpReader {
  const r = new HttpReader();
  readers.push(r);
  return r;
}

const page = JSON.stringify({
  trackers: [{ trackingNumber: '1Z1', status: 'IN_TRANSIT', note: 'Zürich → Łódź' }],
  hasMore: false,
});

describe("the platform's reads over node:http", () => {
  it('sends the headers given, and gives the status, correlation id and body as text', async () => {
    let seen: IncomingMessage | undefined;
    const url = await serve((req, res) => {
      seen = req;
      res.writeHead(200, { 'content-type': 'application/json', 'x-correlation-id': 'cor_1' });
      res.end(page);
    });
    const answer = await reader().get(
      url,
      { authorization: 'Bearer t', 'x-tenant-id': 'tnt_a' },
      AbortSignal.timeout(5000),
    );
    expect(answer).toEqual({ status: 200, correlationId: 'cor_1', text: page, retryAfter: null });
    expect(seen?.url).toBe('/api/v1/trackers?limit=2');
    expect(seen?.headers.authorization).toBe('Bearer t');
    expect(seen?.headers['x-tenant-id']).toBe('tnt_a');
  });

  it.each([
    ['gzip', (b: Buffer) => gzipSync(b)],
    ['br', (b: Buffer) => brotliCompressSync(b)],
    ['gzip, br', (b: Buffer) => brotliCompressSync(gzipSync(b))],
  ] as const)('decodes a %s answer, as fetch would', async (encoding, compress) => {
    let accepted: string | undefined;
    const url = await serve((req, res) => {
      accepted = req.headers['accept-encoding'];
      res.writeHead(200, { 'content-encoding': encoding });
      res.end(compress(Buffer.from(page)));
    });
    const answer = await reader().get(url, {}, AbortSignal.timeout(5000));
    expect(accepted).toBe('gzip, br');
    expect(JSON.parse(answer.text)).toEqual(JSON.parse(page));
  });

  it('an empty error answer marked gzip is still the error answer (a 401 gets its new token)', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(401, { 'content-encoding': 'gzip', 'content-length': '0' });
      res.end();
    });
    expect(await reader().get(url, {}, AbortSignal.timeout(5000))).toEqual({
      status: 401,
      correlationId: null,
      text: '',
      retryAfter: null,
    });
  });

  it("drops a UTF-8 byte-order mark, as fetch's text() does", async () => {
    const url = await serve((_req, res) => {
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page)]));
    });
    const answer = await reader().get(url, {}, AbortSignal.timeout(5000));
    expect(JSON.parse(answer.text)).toEqual(JSON.parse(page));
  });

  it('refuses a redirect, as fetch with redirect: "error" does', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/api/v1/trackers' });
      res.end();
    });
    const error = await reader()
      .get(url, {}, AbortSignal.timeout(5000))
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('unexpected redirect');
  });

  it('an encoding it did not ask for is left as it came, as fetch leaves it', async () => {
    const raw = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'zstd', 'x-correlation-id': 'cor_z' });
      res.end(raw);
    });
    const answer = await reader().get(url, {}, AbortSignal.timeout(5000));
    expect(answer.status).toBe(200);
    expect(answer.correlationId).toBe('cor_z');
    expect(Buffer.from(answer.text, 'utf8').subarray(0, 1)).toEqual(raw.subarray(0, 1));
  });

  it('gives an error answer as it came (the transport decides what it means)', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(503, { 'x-correlation-id': 'cor_503', 'retry-after': '120' });
      res.end('{"message":"maintenance"}');
    });
    expect(await reader().get(url, {}, AbortSignal.timeout(5000))).toEqual({
      status: 503,
      correlationId: 'cor_503',
      text: '{"message":"maintenance"}',
      retryAfter: '120',
    });
  });

  it('the signal covers the body: an answer that stops half way is abandoned when it fires', async () => {
    const abort = new AbortController();
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(page.length) });
      // …half the body, and nothing more: the caller gives up once it is on its way.
      res.write(page.slice(0, 20), () => setImmediate(() => abort.abort(new Error('gave up'))));
    });
    const error = await reader()
      .get(url, {}, abort.signal)
      .catch((e: unknown) => e);
    expect(error).toBe(abort.signal.reason);
  });

  it('a connection cut half way through the body is a reset, never a short answer', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(page.length) });
      res.write(page.slice(0, 20), () => res.socket?.destroy());
    });
    const error = await reader()
      .get(url, {}, AbortSignal.timeout(5000))
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ECONNRESET');
  });

  it('a refused connection rejects with its code', async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const error = await reader()
      .get(url, {}, AbortSignal.timeout(5000))
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('reads answers of every length one after another and two at once, each whole and only itself', async () => {
    // The reader keeps one buffer from answer to answer: a long answer, then a short one, then
    // one sent in pieces without a length (chunked, larger than the first buffer), then two
    // read at the same time must each come back exactly as sent.
    const body = (n: number, fill: string) =>
      JSON.stringify({ trackers: [{ trackingNumber: fill.repeat(n), note: 'Łódź' }] });
    const bodies: Record<string, string> = {
      long: body(300_000, 'L'),
      short: body(10, 'S'),
      chunked: body(200_000, 'C'),
      a: body(150_000, 'A'),
      b: body(160_000, 'B'),
    };
    // a and b: each sends its first half, then both their second halves once both have begun.
    let halfSent = 0;
    const bothBegun: (() => void)[] = [];
    const url = await serve((req, res) => {
      const name = new URL(req.url!, 'http://x').searchParams.get('n')!;
      const text = Buffer.from(bodies[name]!);
      if (name === 'a' || name === 'b') {
        res.writeHead(200, { 'content-length': text.length });
        res.write(text.subarray(0, text.length / 2));
        bothBegun.push(() => res.end(text.subarray(text.length / 2)));
        if (++halfSent === 2) setTimeout(() => bothBegun.forEach((go) => go()), 50);
        return;
      }
      if (name !== 'chunked') {
        res.writeHead(200, { 'content-length': text.length });
        res.end(text);
        return;
      }
      let at = 0;
      const next = () => {
        if (at >= text.length) return res.end();
        res.write(text.subarray(at, (at += 7_001)));
        setImmediate(next);
      };
      next();
    });
    const r = reader();
    const read = (name: string) => {
      const u = new URL(url);
      u.searchParams.set('n', name);
      return r.get(u, {}, AbortSignal.timeout(5000)).then((a) => a.text);
    };
    for (const name of ['long', 'short', 'chunked', 'short'])
      expect(await read(name)).toBe(bodies[name]);
    const [a, b] = await Promise.all([read('a'), read('b')]);
    expect(a).toBe(bodies.a);
    expect(b).toBe(bodies.b);
    expect(await read('short')).toBe(bodies.short);
  });

  it('keeps the connection for the next read, and close() lets it go', async () => {
    const sockets = new Set<unknown>();
    const url = await serve((req, res) => {
      sockets.add(req.socket);
      res.end(page);
    });
    const r = reader();
    await r.get(url, {}, AbortSignal.timeout(5000));
    await r.get(url, {}, AbortSignal.timeout(5000));
    expect(sockets.size).toBe(1);
    const [kept] = sockets as Set<{ once: (event: 'close', fn: () => void) => void }>;
    const closed = new Promise<void>((resolve) => kept!.once('close', resolve));
    r.close();
    await closed; // the server sees the kept connection end
  });
});

describe('which requests the client reads through node:http', () => {
  const sb = useSandbox();

  it("the tracker list's pages; every other request stays on fetch", async () => {
    // A recording proxy in front of the sandbox: fetch (undici) sends `sec-fetch-mode`,
    // Node's own client does not, and the reader asks for exactly `gzip, br`.
    const seen: { path: string; fetchMode: string | undefined; accept: string | undefined }[] = [];
    const target = new URL(sb.url);
    const url = await serve((req, res) => {
      seen.push({
        path: new URL(req.url!, 'http://x').pathname,
        fetchMode: req.headers['sec-fetch-mode'] as string | undefined,
        accept: req.headers['accept-encoding'],
      });
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    const { client } = clientFor(sb, DEMO.directBrand, { baseUrl: url.origin });
    try {
      await client.listShippingSites();
      await client.listTrackers();
    } finally {
      client.close();
    }
    const of = (path: string) => seen.filter((r) => r.path === path);
    expect(of('/api/v1/trackers')).toEqual([
      { path: '/api/v1/trackers', fetchMode: undefined, accept: 'gzip, br' },
    ]);
    expect(of('/api/v1/shippingSites').map((r) => r.fetchMode)).toEqual(['cors']);
    expect(of('/api/v1/tokens/m2m').map((r) => r.fetchMode)).toEqual(['cors']);
  });
});
