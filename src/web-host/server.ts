import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../shared/bridge.js';
import {
  allowedHosts,
  contentSecurityPolicy,
  newToken,
  originAllowed,
  tokenMatches,
} from './security.js';

/** What the web host needs of a station: the contract's dispatch and its events. */
export interface ServedStation {
  dispatch(name: unknown, input: unknown): Promise<unknown>;
  onEvent(listener: (name: string, payload: unknown) => void): () => void;
}

export interface WebHostOptions {
  station: ServedStation;
  rendererDir: string;
  port?: number;
  token?: string;
  log?: (line: string) => void;
}

export interface WebHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

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
 * The WebSocket is the only door to the station; it opens for the per-run token (compared in
 * constant time) from our own origin, never for another site open in the same browser. The Host
 * header is checked too, so a DNS-rebinding page cannot reach it under another name.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken();
  const log = options.log ?? (() => {});
  const root = resolve(options.rendererDir);
  let port = 0;

  const server = createServer((req, res) => {
    void serveStatic(req, res).catch((error: unknown) => {
      log(`web host: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts(port).includes(req.headers.host ?? '')) {
      res.writeHead(421, { 'content-type': 'text/plain' }).end('Misdirected request');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const relative = pathname === '/' ? 'index.html' : normalize(pathname).replace(/^([/\\])+/, '');
    const file = join(root, relative);
    if (!file.startsWith(root + sep)) {
      res.writeHead(404).end();
      return;
    }
    let body: Buffer;
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      body = await readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': contentSecurityPolicy(port),
      'x-content-type-options': 'nosniff',
      // The token travels in the first URL: never leak it in a Referer.
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': relative === 'index.html' ? 'no-store' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 32 * 1024 * 1024 });
  const sockets = new Set<WebSocket>();

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const refuse = (status: string) => {
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (url.pathname !== '/ws') return refuse('404 Not Found');
    if (!allowedHosts(port).includes(req.headers.host ?? ''))
      return refuse('421 Misdirected Request');
    if (!originAllowed(req.headers.origin, port)) return refuse('403 Forbidden');
    if (!tokenMatches(token, url.searchParams.get('token'))) return refuse('401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    sockets.add(ws);
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const unsubscribe = options.station.onEvent((event, payload) => send({ event, payload }));
    ws.on('message', (data) => {
      let frame: ClientFrame;
      try {
        frame = JSON.parse(String(data)) as ClientFrame;
        if (typeof frame.id !== 'number') throw new Error('no id');
      } catch {
        ws.close(1003, 'malformed frame');
        return;
      }
      void options.station
        .dispatch(frame.call, frame.input)
        .then((result) => send({ id: frame.id, result: result as never }));
    });
    ws.on('close', () => {
      sockets.delete(ws);
      unsubscribe();
    });
  });

  await new Promise<void>((ok, ko) => {
    server.once('error', ko);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;

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
