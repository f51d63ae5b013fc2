import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

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
      const { child, stderr } = startCli(['--fixtures', file]);
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      expect(stderr()).toContain(
        'carrierAccounts[0].carrierAccountConnectionId: unknown connection "conn_x"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
