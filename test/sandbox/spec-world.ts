/* eslint-disable @typescript-eslint/no-explicit-any -- black-box responses are checked field by field */
/**
 * Black-box support for the conformance suite: written from platform-api.md and issue 2 only.
 * Its own world (test/fixtures/conformance-world.json), its own HTTP client, its own receiver.
 */
import { type IncomingHttpHeaders, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

export const WORLD_FILE = fileURLToPath(
  new URL('../fixtures/conformance-world.json', import.meta.url),
);

export const KEYS = {
  solo: { clientId: 'cw-solo-admin', clientSecret: 's0lo-adm1n-pass', tenantId: 'cw-solo' },
  soloViewer: { clientId: 'cw-solo-viewer', clientSecret: 's0lo-v1ewer-pass', tenantId: 'cw-solo' },
  keel: { clientId: 'cw-keel-admin', clientSecret: 'keel-adm1n-pass', tenantId: 'cw-keel' },
  orbit: { clientId: 'cw-orbit-admin', clientSecret: 'orb1t-adm1n-pass', tenantId: 'cw-orbit' },
  fern: { clientId: 'cw-fern-admin', clientSecret: 'fern-adm1n-pass', tenantId: 'cw-fern' },
  mast: { clientId: 'cw-mast-admin', clientSecret: 'mast-adm1n-pass', tenantId: 'cw-mast' },
} as const;
export type KeyName = keyof typeof KEYS;

export interface Res<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; json?: unknown; raw?: string | Buffer } = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | Buffer | undefined;
  if (init.raw !== undefined) body = init.raw;
  else if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

/** The error envelope of spec part 7 on every error; no stack trace anywhere. */
export function envelope(res: Res, status: number) {
  expect(res.status).toBe(status);
  const b = res.body;
  expect(b).toBeTypeOf('object');
  expect(typeof b.message).toBe('string');
  expect(b.message.length).toBeGreaterThan(0);
  expect(b.statusCode).toBe(status);
  expect(typeof b.errorCode).toBe('string');
  expect(b.errorCode.length).toBeGreaterThan(0);
  expect(Array.isArray(b.errors)).toBe(true);
  expect(typeof b.correlationId).toBe('string');
  expect(b.correlationId.length).toBeGreaterThan(0);
  expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expect(res.text).not.toMatch(/node_modules|stack/i);
  return b as {
    message: string;
    statusCode: number;
    errorCode: string;
    errors: { field: string; message: string }[];
    correlationId: string;
  };
}

/** The fields named in a 400's errors array. */
export const fields = (res: Res): string[] =>
  (res.body.errors as { field: string }[]).map((e) => e.field);

export class Api {
  private readonly tokens = new Map<string, string>();
  constructor(readonly base: string) {}

  req<T = any>(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; json?: unknown; raw?: string } = {},
  ) {
    return http<T>(this.base, method, path, init);
  }

  token(key: KeyName, tenantId?: string) {
    const k = KEYS[key];
    return this.req('POST', '/api/v1/tokens/m2m', {
      json: {
        grantType: 'clientCredentials',
        clientId: k.clientId,
        clientSecret: k.clientSecret,
        ...(tenantId ? { tenantId } : {}),
      },
    });
  }

  async bearer(key: KeyName): Promise<string> {
    const cached = this.tokens.get(key);
    if (cached) return cached;
    const res = await this.token(key);
    expect(res.status).toBe(200);
    this.tokens.set(key, res.body.accessToken);
    return res.body.accessToken as string;
  }

  forget(): void {
    this.tokens.clear();
  }

  /** A call as `key`, acting for `tenant` (the key's own tenant by default; null: no header). */
  async as<T = any>(
    key: KeyName,
    method: string,
    path: string,
    json?: unknown,
    tenant?: string | null,
  ): Promise<Res<T>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await this.bearer(key)}`,
    };
    const t = tenant === undefined ? KEYS[key].tenantId : tenant;
    if (t !== null) headers['x-tenant-id'] = t;
    return this.req<T>(method, path, { headers, ...(json === undefined ? {} : { json }) });
  }

  /** Moves the sandbox clock; cached tokens are dropped when they may have expired. */
  async advance(seconds: number) {
    const res = await this.req('POST', '/sandbox/clock/advance', { json: { seconds } });
    expect(res.status).toBe(200);
    if (seconds >= 60) this.forget();
    return res;
  }
}

/** One sandbox per test file, started with startSandbox on port 0 with the conformance world. */
export function conformanceSandbox(options: SandboxOptions = {}) {
  const ctx = {} as { sandbox: RunningSandbox; api: Api };
  beforeAll(async () => {
    ctx.sandbox = await startSandbox({ port: 0, fixtures: WORLD_FILE, ...options });
    ctx.api = new Api(ctx.sandbox.url);
  });
  afterAll(async () => {
    await ctx.sandbox?.close();
  });
  return ctx;
}

export const buyer = {
  name: 'Rosa Lindqvist',
  addressLine1: '17 Harbour Lane',
  city: 'San Diego',
  stateProvince: 'CA',
  postalCode: '92101',
  countryCode: 'US',
  isResidential: false,
};

export function shipment(
  overrides: Record<string, unknown> = {},
  pkg: Record<string, unknown> = {},
) {
  return {
    shipTo: buyer,
    shipFrom: {},
    packages: [{ weightLbs: 3, lengthIn: 10, widthIn: 8, heightIn: 4, type: 'box', ...pkg }],
    orderReference: 'CW-ORDER-1',
    ...overrides,
  };
}

export function labelRequest(carrierAccountId: string, serviceLevel: string, extra: object = {}) {
  return {
    carrierAccountId,
    serviceLevel,
    orderReference: 'CW-ORDER-1',
    shipment: shipment(),
    labelOptions: { type: 'ZPL', size: '4x6', inline: true },
    mode: 'TEST',
    ...extra,
  };
}

export interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/** A local webhook receiver; `answer(path)` decides status (and an optional delay). */
export async function receiver(answer: (path: string) => { status: number; delayMs?: number }) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      hits.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      const a = answer(path);
      const send = () => {
        if (a.status >= 300 && a.status < 400) res.setHeader('location', `${path}/moved`);
        res.writeHead(a.status).end('{}');
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits,
    at: (path: string) => hits.filter((h) => h.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
