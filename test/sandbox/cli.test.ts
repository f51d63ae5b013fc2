/* eslint-disable @typescript-eslint/no-explicit-any -- fixture JSON is edited loosely */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { Api, WORLD_FILE, envelope, http, receiver } from './spec-world.js';

const ROOT = new URL('../..', import.meta.url).pathname;

function startCli(args: string[]) {
  // One process (node with tsx's loader), so a signal reaches the sandbox itself and not a
  // wrapper that relays it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  firstLine.catch(() => undefined); // awaited by the tests that expect a start
  return { child, firstLine, stderr: () => stderr };
}

describe('sandbox CLI', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints exactly "sandbox listening on http://HOST:PORT" first, serves, and exits cleanly on %s',
    async (signal) => {
      const { child, firstLine } = startCli([
        '--port',
        '0',
        '--latency-ms',
        '0',
        '--token-ttl',
        '120',
      ]);
      const line = await firstLine;
      expect(line).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.slice('sandbox listening on '.length);
      const token = await fetch(`${url}/api/v1/tokens/m2m`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grantType: 'clientCredentials',
          clientId: 'demo-lumen-full',
          clientSecret: 'demo-lumen-full-secret',
        }),
      });
      expect(((await token.json()) as { expiresIn: number }).expiresIn).toBe(120);
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = await exited;
      expect(code).toBe(0);
      await expect(fetch(`${url}/sandbox/clock`)).rejects.toThrow();
    },
    30_000,
  );

  it('refuses a bad flag value', async () => {
    const { child, stderr } = startCli(['--port', 'abc']);
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr()).toContain('--port must be an integer');
  }, 30_000);

  it('stops with a message naming the bad entry of an invalid fixtures file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbx-'));
    try {
      const file = join(dir, 'bad.json');
      writeFileSync(
        file,
        JSON.stringify({
          tenants: [{ tenantId: 't', name: 'T', type: 'brand' }],
          apiClients: [],
          shippingSites: [],
          connections: [],
          carrierAccounts: [
            {
              id: 'a',
              name: 'Acc',
              tenantId: 't',
              carrierAccountConnectionId: 'conn_x',
              serviceLevels: ['X_GROUND'],
              isActive: true,
            },
          ],
        }),
      );
      const { child, firstLine, stderr } = startCli(['--fixtures', file]);
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      // It never said it was listening.
      await expect(firstLine).rejects.toThrow(/^exited 1/);
      expect(stderr()).toContain(
        'carrierAccounts[0].carrierAccountConnectionId: unknown connection "conn_x"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

/**
 * Conformance (issue 2, parts 3-4): the sandbox started through its command line, with the
 * conformance world, and its flags.
 */
describe('from the specification alone, on the conformance world (test/fixtures/conformance-world.json)', () => {
  const repo = new URL('../../', import.meta.url);

  interface Started {
    child: ChildProcess;
    url: string;
    firstLine: string;
  }

  const children = new Set<ChildProcess>();

  function start(args: string[], cwd: URL = repo): Promise<Started> {
    const child = spawn('npm', ['run', 'sandbox', '--', '--port', '0', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a signal reaches npm, the shell, tsx and the sandbox alike.
      detached: true,
    });
    children.add(child);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once('line', (firstLine) => {
        const m = /^sandbox listening on (http:\/\/\S+)$/.exec(firstLine);
        if (!m) reject(new Error(`unexpected first line: ${JSON.stringify(firstLine)}`));
        else resolve({ child, url: m[1]!, firstLine });
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  }

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn('npm', ['run', 'sandbox', '--', '--port', '0', ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a signal reaches npm, the shell, tsx and the sandbox alike.
      detached: true,
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    return new Promise((resolve) =>
      child.once('exit', (code) => resolve({ code, stdout, stderr })),
    );
  }

  const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };

  /** Stops npm and the sandbox under it (the whole process group); true once npm is gone. */
  function stop(child: ChildProcess): Promise<boolean> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
      child.once('exit', () => resolve(true));
      signalGroup(child, 'SIGTERM');
    });
  }

  const dir = mkdtempSync(join(tmpdir(), 'cw-fixtures-'));
  const world = () => JSON.parse(readFileSync(WORLD_FILE, 'utf8')) as Record<string, any[]>;

  afterAll(async () => {
    for (const child of children) signalGroup(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  describe('npm run sandbox with the conformance world', () => {
    let s: Started;
    let api: Api;
    beforeAll(async () => {
      s = await start(['--fixtures', WORLD_FILE, '--token-ttl', '120', '--allow-http-webhooks']);
      api = new Api(s.url);
    });
    afterAll(async () => {
      expect(await stop(s.child)).toBe(true);
    });

    it('prints exactly "sandbox listening on http://127.0.0.1:PORT" first, on 127.0.0.1 by default', () => {
      expect(s.firstLine).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(Number(new URL(s.url).port)).toBeGreaterThan(0);
    });

    it('serves the fixture world: its keys, tenants and custom carriers', async () => {
      const tenants = await api.as('orbit', 'GET', '/api/v1/tenants');
      expect(tenants.status).toBe(200);
      expect(JSON.stringify(tenants.body)).toContain('cw-fern');
      const accounts = await api.as('solo', 'GET', '/api/v1/carrierAccounts');
      expect(accounts.body.carrierAccounts.map((a: { id: string }) => a.id)).toContain(
        'cw-ca-solo-acme',
      );
    });

    it('--token-ttl sets expiresIn and the lifetime on the sandbox clock', async () => {
      const t = await api.token('solo');
      expect(t.body.expiresIn).toBe(120);
      const headers = { authorization: `Bearer ${t.body.accessToken}`, 'x-tenant-id': 'cw-solo' };
      expect((await api.req('GET', '/api/v1/shippingSites', { headers })).status).toBe(200);
      await api.advance(119);
      expect((await api.req('GET', '/api/v1/shippingSites', { headers })).status).toBe(200);
      await api.advance(2);
      envelope(await api.req('GET', '/api/v1/shippingSites', { headers }), 401);
      api.forget();
    });

    it('--allow-http-webhooks admits http:// on loopback only', async () => {
      const r = await receiver(() => ({ status: 200 }));
      try {
        const ok = await api.as('solo', 'POST', '/api/v1/webhooks', {
          uri: r.url('/cli'),
          email: 'ops@solo.example',
          registeredEvents: ['tracking.updated'],
          secret: 'cli-secret-value',
        });
        expect(ok.status).toBeLessThan(300);
        const remote = await api.as('solo', 'POST', '/api/v1/webhooks', {
          uri: 'http://hooks.solo.example/events',
          email: 'ops@solo.example',
          registeredEvents: ['tracking.updated'],
          secret: 'cli-secret-value',
        });
        expect(fieldsOf(envelope(remote, 400))).toContain('uri');
      } finally {
        await r.close();
      }
    });
  });

  const fieldsOf = (b: { errors: { field: string }[] }) => b.errors.map((e) => e.field);

  describe('command-line flags', () => {
    it.each(['SIGTERM', 'SIGKILL'] as const)(
      'killing npm alone (%s) stops the sandbox and closes its output',
      async (signal) => {
        const child = spawn(
          'npm',
          ['run', 'sandbox', '--', '--port', '0', '--fixtures', WORLD_FILE],
          {
            cwd: repo,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
        const url = await new Promise<string>((resolve) =>
          createInterface({ input: child.stdout }).once('line', (line) =>
            resolve(line.replace('sandbox listening on ', '')),
          ),
        );
        expect((await http(url, 'GET', '/sandbox/clock')).status).toBe(200);
        child.kill(signal);
        await closed; // stdout closes only when the sandbox itself has exited
        await expect(fetch(`${url}/sandbox/clock`)).rejects.toThrow();
      },
    );

    it('--host binds where asked and prints that host', async () => {
      const s = await start(['--fixtures', WORLD_FILE, '--host', 'localhost']);
      try {
        expect(s.firstLine).toMatch(/^sandbox listening on http:\/\/localhost:\d+$/);
        const res = await http(s.url, 'GET', '/sandbox/clock');
        expect(res.status).toBe(200);
      } finally {
        expect(await stop(s.child)).toBe(true);
      }
    });

    it('a relative --fixtures path is taken from where npm was run', async () => {
      const s = await start(
        ['--fixtures', 'fixtures/conformance-world.json'],
        new URL('test/', repo),
      );
      try {
        const api = new Api(s.url);
        expect((await api.token('keel')).status).toBe(200);
      } finally {
        expect(await stop(s.child)).toBe(true);
      }
    });

    it('--latency-ms delays API answers by at least that long', async () => {
      const s = await start(['--fixtures', WORLD_FILE, '--latency-ms', '250']);
      try {
        const api = new Api(s.url);
        const began = performance.now();
        const t = await api.token('solo');
        expect(t.status).toBe(200);
        // A lower bound only: the sandbox waits before it answers, whatever the machine.
        expect(performance.now() - began).toBeGreaterThanOrEqual(240);
      } finally {
        expect(await stop(s.child)).toBe(true);
      }
    });

    it('a fixtures entry of a wrong type is named by its id', async () => {
      const file = `${dir}/bad-type.json`;
      const broken = world() as any;
      broken.tenants[3]!.type = 'galaxy';
      writeFileSync(file, JSON.stringify(broken));
      const result = await run(['--fixtures', file]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('cw-quill');
      expect(result.stderr).toContain('type');
    });

    it('a fixtures file that is not JSON, or missing, exits non-zero with a message', async () => {
      writeFileSync(`${dir}/junk.json`, '{ "tenants": [');
      const junk = await run(['--fixtures', `${dir}/junk.json`]);
      expect(junk.code).not.toBe(0);
      expect(junk.stderr).toContain('junk.json');
      const missing = await run(['--fixtures', `${dir}/absent.json`]);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('absent.json');
    });
  });
});
