import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../src/web-host/server.js';
import { tempDir } from '../support/tmp.js';

function fakeStation() {
  const listeners = new Set<(n: string, p: unknown) => void>();
  return {
    calls: [] as { name: unknown; input: unknown }[],
    dispatch(name: unknown, input: unknown) {
      this.calls.push({ name, input });
      return Promise.resolve({ ok: true, value: { echoed: input } });
    },
    onEvent(l: (n: string, p: unknown) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit(n: string, p: unknown) {
      for (const l of listeners) l(n, p);
    },
  };
}

const open = (url: string, origin?: string, cookie?: string) =>
  new Promise<WebSocket | number>((resolve) => {
    const ws = new WebSocket(url, {
      ...(origin ? { origin } : {}),
      ...(cookie ? { headers: { cookie } } : {}),
    });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });

describe('web host', () => {
  let host: WebHost | null = null;
  afterEach(async () => {
    await host?.close();
    host = null;
  });

  async function start() {
    const dir = tempDir();
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'assets', 'a.js'), 'console.log(1)');
    const station = fakeStation();
    host = await startWebHost({ station, rendererDir: dir });
    return { station, host };
  }

  it('serves the renderer on 127.0.0.1 with a CSP, and nothing outside it', async () => {
    const { host } = await start();
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    const exchange = await fetch(host.url, { redirect: 'manual' });
    const cookie = exchange.headers.get('set-cookie')!.split(';')[0]!;
    const index = await fetch(`http://127.0.0.1:${host.port}/`, { headers: { cookie } });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
    const get = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${host.port}${path}`, { ...init, headers: { cookie } });
    expect((await get('/assets/a.js')).status).toBe(200);
    expect((await get('/..%2f..%2fetc%2fpasswd')).status).toBe(404);
    expect((await get('/', { method: 'POST' })).status).toBe(405);
  });

  it('opens the contract socket only for the session, from its own origin', async () => {
    const { host, station } = await start();
    const base = `ws://127.0.0.1:${host.port}/ws`;
    const origin = `http://127.0.0.1:${host.port}`;
    expect(await open(`${base}?token=${host.token}`, origin)).toBe(401);
    const exchange = await fetch(host.url, { redirect: 'manual' });
    const cookie = exchange.headers.get('set-cookie')!.split(';')[0]!;
    expect(await open(base, origin, `station_session_${host.port}=nope`)).toBe(401);
    expect(await open(base, 'https://evil.example', cookie)).toBe(403);
    expect(await open(base, undefined, cookie)).toBe(403);
    const ws = (await open(base, origin, cookie)) as WebSocket;
    const reply = new Promise<unknown>((resolve) =>
      ws.once('message', (d) => resolve(JSON.parse(String(d)))),
    );
    ws.send(JSON.stringify({ id: 7, call: 'station.status', input: { a: 1 } }));
    expect(await reply).toEqual({ id: 7, result: { ok: true, value: { echoed: { a: 1 } } } });
    expect(station.calls).toEqual([{ name: 'station.status', input: { a: 1 } }]);
    const event = new Promise<unknown>((resolve) =>
      ws.once('message', (d) => resolve(JSON.parse(String(d)))),
    );
    station.emit('status', { x: 1 });
    expect(await event).toEqual({ event: 'status', payload: { x: 1 } });
    ws.close();
  });

  it("keeps each station's session in one browser opening two stations of one computer", async () => {
    // Trial of 2026-11-29: Station 3's page and then Station 2's opened in one browser on one
    // computer (127.0.0.1, two ports). A browser keeps cookies per host name, not per port, so
    // Station 2's cookie replaced Station 3's: Station 3's orders upload was refused ("Lost the
    // connection to the station host …"), and a reload or reconnect left it locked out.
    const first = (await start()).host;
    host = null;
    const second = (await start()).host;
    try {
      // The browser's cookie jar for 127.0.0.1: a cookie of the same name replaces the last.
      const jar = new Map<string, string>();
      for (const h of [first, second]) {
        const exchange = await fetch(h.url, { redirect: 'manual' });
        const [name, value] = exchange.headers.get('set-cookie')!.split(';')[0]!.split('=');
        jar.set(name!, value!);
      }
      const cookie = [...jar].map(([n, v]) => `${n}=${v}`).join('; ');
      for (const h of [first, second]) {
        const origin = `http://127.0.0.1:${h.port}`;
        const upload = await fetch(`${origin}/upload/orders?name=o.csv`, {
          method: 'POST',
          headers: { cookie, origin, 'content-type': 'text/plain; charset=utf-8' },
          body: 'order_number\n',
        });
        expect(upload.status).toBe(200);
        const ws = await open(`ws://127.0.0.1:${h.port}/ws`, origin, cookie);
        expect(ws).toBeInstanceOf(WebSocket);
        (ws as WebSocket).close();
        expect((await fetch(`${origin}/`, { headers: { cookie } })).status).toBe(200);
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
