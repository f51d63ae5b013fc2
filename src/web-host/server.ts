import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../shared/bridge.js';
import { allowedHosts, contentSecurityPolicy, newToken, originAllowed } from './security.js';
import { openHowPage, sessionCookie, sessionCookieName, WebSessions } from './session.js';

/** What the web host needs of a station: the contract's dispatch and its events. */
export interface ServedStation {
  dispatch(name: unknown, input: unknown): Promise<unknown>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

export interface WebHostOptions {
  station: ServedStation;
  rendererDir: string;
  /** 0: any free port. */
  port?: number;
  /** When `port` is taken, listen on a free port instead (and say so) rather than fail. */
  fallbackToFreePort?: boolean;
  token?: string;
  log?: (line: string) => void;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * A contract frame is small (the largest input, a provisioning file, is 200,000 characters);
 * an orders file goes through POST /upload/orders, streamed, never through a frame.
 */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** An orders file, uploaded over HTTP (the same limit as the contract's orders.import). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Calls one window may have running at once; more are answered at once with an error. */
export const MAX_CALLS_IN_FLIGHT = 16;

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
};

/**
 * Serves the built renderer and the station contract over a WebSocket, on 127.0.0.1 only.
 * The one-time token of the printed address is traded for an HttpOnly session cookie; the
 * WebSocket and the orders upload open for that cookie only, from our own origin, never for
 * another site open in the same browser. The Host header is checked too, so a DNS-rebinding
 * page cannot reach it under another name. One bad connection (invalid UTF-8, an oversized
 * frame, a flood of calls) is closed on its own; the host keeps serving everyone else.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken();
  const sessions = new WebSessions(token);
  const log = options.log ?? (() => {});
  const root = resolve(options.rendererDir);
  let port = 0;

  /** Every response carries these, errors included. */
  const baseHeaders = (): Record<string, string> => ({
    'content-security-policy': contentSecurityPolicy(port),
    // The first URL carries the token: never leak an address in a Referer.
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  });
  /** An answer written straight to a socket (an upgrade or a request Node could not parse). */
  const rawRefusal = (status: string) => {
    const headers = Object.entries(baseHeaders())
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    return `HTTP/1.1 ${status}\r\n${headers}Connection: close\r\nContent-Length: 0\r\n\r\n`;
  };
  const reply = (
    res: ServerResponse,
    status: number,
    body = '',
    headers: Record<string, string> = {},
  ) => {
    res
      .writeHead(status, {
        ...baseHeaders(),
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      })
      .end(body);
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      log(`web host: ${(error as Error).message}`);
      if (!res.headersSent) reply(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts(port).includes(req.headers.host ?? '')) {
      reply(res, 421, 'Misdirected request');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const given = url.searchParams.get('token');
    if (given !== null) {
      const session = sessions.exchange(given);
      if (!session) {
        reply(res, 401, openHowPage('used'), { 'content-type': 'text/html; charset=utf-8' });
        return;
      }
      url.searchParams.delete('token');
      reply(res, 303, '', {
        location: url.pathname + url.search + url.hash,
        'set-cookie': sessionCookie(session, sessions.cookieName),
      });
      return;
    }
    if (!sessions.valid(req.headers.cookie)) {
      const page = url.pathname === '/' || url.pathname.endsWith('.html');
      if (page)
        reply(res, 401, openHowPage(sessions.whyNot(req.headers.cookie)), {
          'content-type': 'text/html; charset=utf-8',
        });
      else reply(res, 401, 'Open the station from the address npm run web printed.');
      return;
    }
    if (url.pathname === '/upload/orders') return upload(req, res, url);
    if (url.pathname === '/session') return reply(res, 204);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      reply(res, 405, '', { allow: 'GET, HEAD' });
      return;
    }
    return serveStatic(req, res, url);
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const pathname = decodeURIComponent(url.pathname);
    const relative = pathname === '/' ? 'index.html' : normalize(pathname).replace(/^([/\\])+/, '');
    const file = join(root, relative);
    if (!file.startsWith(root + sep)) {
      reply(res, 404, 'Not found');
      return;
    }
    let body: Buffer;
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      body = await readFile(file);
    } catch {
      reply(res, 404, 'Not found');
      return;
    }
    res.writeHead(200, {
      ...baseHeaders(),
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': relative === 'index.html' ? 'no-store' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /**
   * An orders file, streamed: POST /upload/orders?name=FILE with the file as the body. Only
   * from our own page (Origin), with the session cookie; larger than the limit is refused
   * without reading the rest. The import itself is the contract's orders.import.
   */
  async function upload(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const json = (status: number, result: unknown, headers: Record<string, string> = {}) =>
      reply(res, status, JSON.stringify(result), {
        'content-type': 'application/json',
        ...headers,
      });
    if (req.method !== 'POST') return reply(res, 405, '', { allow: 'POST' });
    if (!originAllowed(req.headers.origin, port)) return reply(res, 403, 'Forbidden');
    const tooBig = () =>
      json(
        413,
        {
          ok: false,
          error: {
            code: 'validation',
            message: `The orders file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB; split it into smaller files.`,
          },
        },
        { connection: 'close' },
      );
    // Past the limit the body is read and dropped, not cut off: a browser whose upload is reset
    // reports a lost connection instead of the answer saying what to do.
    if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_BYTES) {
      req.resume();
      return tooBig();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= MAX_UPLOAD_BYTES) chunks.push(chunk);
    }
    if (size > MAX_UPLOAD_BYTES) return tooBig();
    const result = await options.station.dispatch('orders.import', {
      fileName: url.searchParams.get('name') ?? 'upload',
      content: Buffer.concat(chunks).toString('utf8'),
    });
    json(200, result);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const sockets = new Set<WebSocket>();

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://x');
    const refuse = (status: string) => socket.end(rawRefusal(status));
    if (url.pathname !== '/ws') return refuse('404 Not Found');
    if (!allowedHosts(port).includes(req.headers.host ?? ''))
      return refuse('421 Misdirected Request');
    if (!originAllowed(req.headers.origin, port)) return refuse('403 Forbidden');
    if (!sessions.valid(req.headers.cookie)) return refuse('401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    let inFlight = 0;
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    // Invalid UTF-8, a frame over maxPayload, a broken socket: ws closes this connection and
    // reports it here. Without a listener the error would take the whole host down.
    ws.on('error', (error) => log(`web host: closed a connection: ${error.message}`));
    const unsubscribe = options.station.onEvent((event, payload) => send({ event, payload }));
    ws.on('message', (data, isBinary) => {
      let frame: ClientFrame;
      try {
        if (isBinary) throw new Error('binary frame');
        frame = JSON.parse(String(data)) as ClientFrame;
        if (!frame || typeof frame.id !== 'number') throw new Error('no id');
      } catch {
        ws.close(1003, 'malformed frame');
        return;
      }
      if (inFlight >= MAX_CALLS_IN_FLIGHT) {
        send({
          id: frame.id,
          result: {
            ok: false,
            error: {
              code: 'conflict',
              message: `This window has ${MAX_CALLS_IN_FLIGHT} calls running already; wait for them to finish and try again.`,
            },
          },
        });
        return;
      }
      inFlight++;
      void options.station
        .dispatch(frame.call, frame.input)
        .catch((error: unknown) => ({
          ok: false,
          error: { code: 'internal', message: (error as Error)?.message ?? String(error) },
        }))
        .then((result) => {
          inFlight--;
          send({ id: frame.id, result: result as never });
        });
    });
    ws.on('close', () => {
      sockets.delete(ws);
      unsubscribe();
    });
  });

  const listen = (p: number) =>
    new Promise<void>((ok, ko) => {
      const onError = (error: Error) => ko(error);
      server.once('error', onError);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', onError);
        ok();
      });
    });
  const wanted = options.port ?? 0;
  try {
    await listen(wanted);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !options.fallbackToFreePort)
      throw error;
    await listen(0);
    log(
      `port ${wanted} is taken (another station or program uses it); listening on port ${(server.address() as AddressInfo).port} instead. Give --port N to choose one.`,
    );
  }
  port = (server.address() as AddressInfo).port;
  sessions.cookieName = sessionCookieName(port);
  server.on('error', (error) => log(`web host: ${error.message}`));
  // A request Node cannot parse gets its 400 with the same headers as every other answer.
  server.on('clientError', (_error, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    socket.end(rawRefusal('400 Bad Request'));
  });

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
