import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as connectTcp, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  MAX_CALLS_IN_FLIGHT,
  MAX_FRAME_BYTES,
  MAX_UPLOAD_BYTES,
  startWebHost,
  type WebHost,
} from '../../src/web-host/server.js';
import { tempDir } from '../support/tmp.js';

/** A station whose calls can be held open (to fill a connection) or answered at once. */
function station(hold = false) {
  const calls: { name: unknown; input: unknown }[] = [];
  return {
    calls,
    dispatch(name: unknown, input: unknown) {
      calls.push({ name, input });
      if (hold && name === 'hold') return new Promise<unknown>(() => {});
      return Promise.resolve({ ok: true, value: { name } });
    },
    onEvent: () => () => {},
  };
}

let host: WebHost | null = null;
const others: Server[] = [];
afterEach(async () => {
  await host?.close();
  host = null;
  for (const s of others.splice(0)) await new Promise((ok) => s.close(ok));
});

async function start(s = station(), extra: { port?: number; fallbackToFreePort?: boolean } = {}) {
  const dir = tempDir();
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>station</title>');
  const lines: string[] = [];
  host = await startWebHost({ station: s, rendererDir: dir, log: (l) => lines.push(l), ...extra });
  return { host, station: s, lines, base: `http://127.0.0.1:${host.port}` };
}

async function session(h: WebHost): Promise<string> {
  const res = await fetch(h.url, { redirect: 'manual' });
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

function connect(h: WebHost, cookie: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${h.port}/ws`, {
      origin: `http://127.0.0.1:${h.port}`,
      headers: { cookie },
    });
    ws.on('open', () => resolve(ws));
    ws.on('error', reject);
  });
}

const closed = (ws: WebSocket) =>
  new Promise<number>((resolve) => {
    ws.on('error', () => {});
    ws.on('close', (code) => resolve(code));
  });

async function roundTrip(ws: WebSocket, id: number): Promise<unknown> {
  const reply = new Promise<unknown>((resolve) =>
    ws.on('message', (d) => {
      const frame = JSON.parse(String(d));
      if (frame.id === id) resolve(frame);
    }),
  );
  ws.send(JSON.stringify({ id, call: 'station.status', input: {} }));
  return reply;
}

describe('6. one bad connection does not take the web host down', () => {
  it('closes a connection that sends invalid UTF-8 and serves a new one afterwards', async () => {
    const { host } = await start();
    const cookie = await session(host);
    const bad = await connect(host, cookie);
    const code = closed(bad);
    bad.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect(await code).toBe(1007);
    const good = await connect(host, cookie);
    expect(await roundTrip(good, 1)).toMatchObject({ id: 1, result: { ok: true } });
    good.close();
  });

  it('closes a connection whose frame is over the limit and serves a new one afterwards', async () => {
    const { host } = await start();
    const cookie = await session(host);
    const bad = await connect(host, cookie);
    const code = closed(bad);
    bad.send('x'.repeat(MAX_FRAME_BYTES + 1));
    expect(await code).toBe(1009);
    const good = await connect(host, cookie);
    expect(await roundTrip(good, 2)).toMatchObject({ id: 2, result: { ok: true } });
    good.close();
  });

  it('keeps frames small: the limit is far below an orders file', () => {
    expect(MAX_FRAME_BYTES).toBeLessThanOrEqual(1024 * 1024);
  });

  it('answers calls beyond the per-connection limit at once with an error', async () => {
    const s = station(true);
    const { host } = await start(s);
    const ws = await connect(host, await session(host));
    const extra = 5;
    const refused: unknown[] = [];
    const allRefused = new Promise<void>((resolve) =>
      ws.on('message', (d) => {
        refused.push(JSON.parse(String(d)));
        if (refused.length === extra) resolve();
      }),
    );
    for (let id = 1; id <= MAX_CALLS_IN_FLIGHT + extra; id++)
      ws.send(JSON.stringify({ id, call: 'hold', input: {} }));
    await allRefused;
    expect(s.calls.length).toBe(MAX_CALLS_IN_FLIGHT);
    expect(refused[0]).toMatchObject({
      id: MAX_CALLS_IN_FLIGHT + 1,
      result: { ok: false, error: { code: 'conflict' } },
    });
    ws.close();
  });

  it('takes an orders file as a streamed upload from its own page, with the session', async () => {
    const { host, station: s, base } = await start();
    const cookie = await session(host);
    const origin = base;
    const csv = 'reference,name\nLUM-1,Ada\n';
    const res = await fetch(`${base}/upload/orders?name=orders.csv`, {
      method: 'POST',
      headers: { cookie, origin, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(res.status).toBe(200);
    expect(s.calls).toEqual([
      { name: 'orders.import', input: { fileName: 'orders.csv', content: csv } },
    ]);
    const foreign = await fetch(`${base}/upload/orders?name=x.csv`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example' },
      body: csv,
    });
    expect(foreign.status).toBe(403);
    const anonymous = await fetch(`${base}/upload/orders?name=x.csv`, {
      method: 'POST',
      headers: { origin },
      body: csv,
    });
    expect(anonymous.status).toBe(401);
    expect(s.calls).toHaveLength(1);
  });

  it('answers an orders file over the limit with the reason, declared or streamed, and imports nothing', async () => {
    const { host, station: s } = await start();
    const cookie = await session(host);
    const headers = { cookie, origin: `http://127.0.0.1:${host.port}` };
    // Declared too big, though only a line is sent.
    const declared = await post(
      host.port,
      { ...headers, 'content-length': String(MAX_UPLOAD_BYTES + 1) },
      [Buffer.from('reference,name\n')],
    );
    // No length given (chunked): refused once the stream passes the limit.
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const streamed = await post(
      host.port,
      headers,
      Array.from({ length: MAX_UPLOAD_BYTES / chunk.length + 2 }, () => chunk),
    );
    for (const res of [declared, streamed]) {
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toMatchObject({
        ok: false,
        error: {
          code: 'validation',
          message: expect.stringContaining('split it into smaller files'),
        },
      });
    }
    expect(s.calls).toEqual([]);
  });
});

/** A POST to /upload/orders written chunk by chunk; resolves with what the host answered. */
function post(port: number, headers: Record<string, string>, chunks: Buffer[]) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/upload/orders?name=big.csv', headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    // The host may stop reading once it has answered: a write after that is not the failure.
    req.on('error', reject);
    const write = (i: number): void => {
      if (i >= chunks.length || req.destroyed) return void req.end();
      if (req.write(chunks[i]!)) write(i + 1);
      else req.once('drain', () => write(i + 1));
    };
    write(0);
  });
}

/** fetch may not set Host; a plain request can, as a DNS-rebinding page's browser would. */
function misdirected(port: number, cookie: string) {
  return new Promise<{ status: number; headers: { get(name: string): string | null } }>(
    (resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/', headers: { host: 'evil.example', cookie } })
        .on('response', (res) => {
          res.resume();
          resolve({
            status: res.statusCode ?? 0,
            headers: { get: (name) => (res.headers[name] as string | undefined) ?? null },
          });
        })
        .on('error', reject)
        .end();
    },
  );
}

describe('7. error responses carry the same CSP and Referrer-Policy as pages', () => {
  it('404, 405, 421, 401 and the page itself', async () => {
    const { host, base } = await start();
    const cookie = await session(host);
    const page = await fetch(`${base}/`, { headers: { cookie } });
    const csp = page.headers.get('content-security-policy');
    expect(csp).toContain("default-src 'self'");
    const responses = [
      await fetch(`${base}/missing.js`, { headers: { cookie } }),
      await fetch(`${base}/`, { method: 'POST', headers: { cookie } }),
      await misdirected(host.port, cookie),
      await fetch(`${base}/`),
    ];
    expect(responses.map((r) => r.status)).toEqual([404, 405, 421, 401]);
    for (const r of responses) {
      expect(r.headers.get('content-security-policy')).toBe(csp);
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('7. (also) a request the server cannot parse', () => {
  it('gets its 400 with the same CSP and Referrer-Policy', async () => {
    const { host } = await start();
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connectTcp(host.port, '127.0.0.1', () =>
        socket.write('NOT HTTP AT ALL\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw.toLowerCase()).toContain("content-security-policy: default-src 'self'");
    expect(raw.toLowerCase()).toContain('referrer-policy: no-referrer');
  });
});

describe('8. the printed token opens the station once and becomes a session cookie', () => {
  it('trades the URL token for an HttpOnly SameSite=Strict cookie and drops it from the address', async () => {
    const { host } = await start();
    const res = await fetch(host.url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^station_session_\d+=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // Kept for a shift: a browser restarted at the station comes back to it.
    expect(cookie).toContain('Max-Age=43200');
    expect(cookie).not.toContain(host.token);
  });

  it('the token works once: the same address again shows how to open the station', async () => {
    const { host } = await start();
    await fetch(host.url, { redirect: 'manual' });
    const again = await fetch(host.url, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toMatch(/already used.*npm run web/s);
  });

  it('without a session the station is not served, a page says how to open it', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('text/html');
    const text = await res.text();
    expect(text).toContain('npm run web');
    expect(text).toContain('station ui at http://127.0.0.1:PORT/?token=');
    expect(text).not.toContain('<title>station</title>');
    expect((await fetch(`${base}/assets/index.js`)).status).toBe(401);
  });

  it('a browser let in to an earlier run of the host is told the station was restarted, not that it was never let in', async () => {
    const first = await start();
    const cookie = await session(first.host);
    const port = first.host.port;
    await first.host.close();
    // The station is restarted on the same port (the packer's page reloads onto it).
    const { base } = await start(station(), { port });
    const res = await fetch(`${base}/`, { headers: { cookie } });
    expect(res.status).toBe(401);
    const text = await res.text();
    // Until 2026-11-29: "This browser has not been let in to the station yet."
    expect(text).not.toContain('has not been let in');
    expect(text).toContain(
      'This browser was let in to an earlier run of the station, which has since stopped or been restarted.',
    );
    expect(text).toContain('new address');
    // A browser that never had a session still reads that it was not let in yet.
    expect(await (await fetch(`${base}/`)).text()).toContain('has not been let in');
  });

  it('listens on the port asked for, and falls back to a free one with a message when it is taken', async () => {
    const blocker = createServer();
    others.push(blocker);
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const taken = (blocker.address() as { port: number }).port;
    const { host, lines } = await start(station(), { port: taken, fallbackToFreePort: true });
    expect(host.port).not.toBe(taken);
    expect(lines.join('\n')).toMatch(new RegExp(`port ${taken} is taken.*${host.port}`));
  });

  it('an explicitly chosen port that is taken is an error, not a surprise address', async () => {
    const blocker = createServer();
    others.push(blocker);
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const taken = (blocker.address() as { port: number }).port;
    await expect(start(station(), { port: taken })).rejects.toThrow(/EADDRINUSE/);
  });
});
