import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { test } from '@playwright/test';

export interface RunningStation {
  url: string;
  dataDir: string;
  stderr: () => string;
  stop(): Promise<void>;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `npm run web` in its own temp data directory; resolves on its first stdout line. */
export async function startStation(
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  seed?: (dataDir: string) => void,
): Promise<RunningStation> {
  const dataDir = mkdtempSync(join(tmpdir(), 'station-e2e-'));
  seed?.(dataDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join(root, 'node_modules/tsx/dist/cli.mjs'),
      'src/web-host/cli.ts',
      '--data-dir',
      dataDir,
      ...args,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const first = await new Promise<string>((ok, ko) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', ok);
    child.once('exit', (code) => ko(new Error(`web host exited (${code}): ${err}`)));
    setTimeout(() => ko(new Error(`web host did not start: ${err}`)), 45_000);
  });
  const match = /^station ui at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/.exec(first);
  if (!match) throw new Error(`unexpected first line: ${first}`);
  return {
    url: match[1]!,
    dataDir,
    stderr: () => err,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((ok) => (child.exitCode !== null ? ok(null) : child.once('exit', ok)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SandboxProcess {
  url: string;
  addFault(spec: Record<string, unknown>): Promise<void>;
  clearFaults(): Promise<void>;
  ledger(): Promise<unknown[]>;
  stop(): Promise<void>;
}

/** `npm run sandbox -- --fixtures FILE`, a separate process with its own world. */
export async function startSandboxProcess(fixturesFile: string): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules/tsx/dist/cli.mjs'), 'src/sandbox/cli.ts', '--fixtures', fixturesFile],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d) => (err += String(d)));
  const first = await new Promise<string>((ok, ko) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    child.once('exit', (code) => ko(new Error(`sandbox exited (${code}): ${err}`)));
    setTimeout(() => ko(new Error(`sandbox did not start: ${err}`)), 30_000);
  });
  const url = /sandbox listening on (\S+)/.exec(first)?.[1];
  if (!url) throw new Error(`unexpected sandbox line: ${first}`);
  const admin = (path: string, init?: RequestInit) =>
    fetch(`${url}${path}`, init).then(async (r) => {
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return r.status === 204 ? null : r.json();
    });
  return {
    url,
    addFault: async (spec) => {
      await admin('/sandbox/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(spec),
      });
    },
    clearFaults: async () => {
      await admin('/sandbox/faults', { method: 'DELETE' });
    },
    ledger: async () => ((await admin('/sandbox/ledger/labels')) as { labels: unknown[] }).labels,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((ok) => (child.exitCode !== null ? ok(null) : child.once('exit', ok)));
    },
  };
}

/** A station for each test of the file (started before it, stopped after it). */
export function stationPerTest(...args: Parameters<typeof startStation>): () => RunningStation {
  let station: RunningStation | null = null;
  test.beforeEach(async () => {
    station = await startStation(...args);
  });
  test.afterEach(async () => {
    await station?.stop();
    station = null;
  });
  return () => {
    if (!station) throw new Error('the station of this test has not started');
    return station;
  };
}

/** The labels a virtual printer's output directory holds. */
export const printedLabels = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.zpl')) : [];
