import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:net';
import { createInterface } from 'node:readline';
import { expect, test, type Page } from '@playwright/test';
import {
  startVirtualPrinter,
  type VirtualPrinter,
} from '../src/core/printing/virtual-printer/server.js';

export interface RunningStation {
  url: string;
  dataDir: string;
  stderr: () => string;
  stop(): Promise<void>;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The arguments that run one of the project's CLIs: its bundle under out/ (built by
 * `npm run test:e2e` with the app, from the same source), or through tsx where there is none.
 */
export function cliArgs(bundle: 'web-host' | 'sandbox' | 'site', source: string): string[] {
  const built = join(root, 'out', bundle, 'cli.js');
  return existsSync(built) ? [built] : [join(root, 'node_modules/tsx/dist/cli.mjs'), source];
}

const held: Server[] = [];
/**
 * After a station or sandbox process stops, its port stays taken until the test's worker ends,
 * by a listener that closes every connection: with two workers, another test's station or
 * sandbox could otherwise be given the same port, and a page (or station) expecting "not
 * answering" would reach it instead (CI, 2026-11-29: a page reconnected to another test's
 * station). Not for printers: a switched-off printer refuses connections, which the station
 * says differently from one that accepts and closes them.
 */
function holdPort(port: number): Promise<void> {
  return new Promise((ok) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', () => ok()); // already taken again: nothing to hold
    server.listen(port, '127.0.0.1', () => {
      server.unref();
      held.push(server);
      ok();
    });
  });
}

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
    [...cliArgs('web-host', 'src/web-host/cli.ts'), '--data-dir', dataDir, ...args],
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
  // A station that stops by itself mid-test (a crash) says why in the test's output: a page
  // would only show "station host lost" (CI, 2026-11-29).
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(
        `station ${match[1]!.replace(/\?token=.*/, '')} exited by itself (${code ?? signal}):\n${err.slice(-4000)}`,
      );
  });
  return {
    url: match[1]!,
    dataDir,
    stderr: () => err,
    async stop() {
      stopping = true;
      child.kill('SIGTERM');
      await new Promise((ok) => (child.exitCode !== null ? ok(null) : child.once('exit', ok)));
      await holdPort(Number(new URL(match[1]!).port));
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

/**
 * `npm run sandbox -- --port 0 [--fixtures FILE]`, a separate process with its own world (the
 * demo world when no fixtures file is given).
 */
export async function startSandboxProcess(fixturesFile?: string): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [
      ...cliArgs('sandbox', 'src/sandbox/cli.ts'),
      '--port',
      '0',
      ...(fixturesFile === undefined ? [] : ['--fixtures', fixturesFile]),
    ],
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
      await holdPort(Number(new URL(url).port));
    },
  };
}

/** The demo world the sandbox starts with (`resources/fixtures/demo-world.json`), a fresh copy. */
export const demoWorld = (): {
  shippingSites: { id: string; address: unknown }[];
  tenants: { tenantId: string; name: string }[];
} => JSON.parse(readFileSync(join(root, 'resources/fixtures/demo-world.json'), 'utf8'));

export interface ProvisionedStationOptions {
  /** The sandbox (or platform) the profile talks to. */
  baseUrl: string;
  /** The profile's one network printer on 127.0.0.1. */
  printer: { port: number; dpi?: 203 | 300; name?: string };
  /**
   * Fields over the default profile (`lumen-e2e`, "Lumen e2e", demo-lumen-full on tnt_lumen at
   * site_lumen_chicago); the ship-from address follows `shippingSiteId` in the demo world.
   */
  profile?: Record<string, unknown>;
  /** The client secret, handed over in the STATION_SECRET_E2E variable the profile names. */
  secret?: string;
  /** Top-level fields of the provisioning file besides its profiles (e.g. `siteStore`). */
  file?: Record<string, unknown>;
  /** More environment variables (e.g. STATION_SECRET_SITE_STORE). */
  env?: NodeJS.ProcessEnv;
  /** More command-line arguments after `--provision FILE`. */
  args?: string[];
}

/**
 * `npm run web -- --provision FILE`: a station provisioned with one sandbox profile and its
 * network printer, the secret given by environment variable as site IT would. The file is
 * removed when the station stops.
 */
export async function startProvisionedStation(
  options: ProvisionedStationOptions,
): Promise<RunningStation> {
  const siteId =
    (options.profile?.['shippingSiteId'] as string | undefined) ?? 'site_lumen_chicago';
  const site = demoWorld().shippingSites.find((s) => s.id === siteId);
  if (!site) throw new Error(`no shipping site ${siteId} in the demo world`);
  const dir = mkdtempSync(join(tmpdir(), 'station-provision-'));
  const file = join(dir, 'provision.json');
  writeFileSync(
    file,
    JSON.stringify({
      format: 'shipping-station-profiles',
      version: 1,
      ...options.file,
      profiles: [
        {
          id: 'lumen-e2e',
          name: 'Lumen e2e',
          environment: 'sandbox',
          baseUrl: options.baseUrl,
          clientId: 'demo-lumen-full',
          tenantId: 'tnt_lumen',
          shippingSiteId: site.id,
          shipFrom: site.address,
          printers: [
            {
              id: 'zd421',
              name: options.printer.name ?? 'ZD421',
              kind: 'network',
              host: '127.0.0.1',
              port: options.printer.port,
              dpi: options.printer.dpi ?? 203,
            },
          ],
          clientSecretEnv: 'STATION_SECRET_E2E',
          ...options.profile,
        },
      ],
    }),
  );
  try {
    const station = await startStation(['--provision', file, ...(options.args ?? [])], {
      STATION_SECRET_E2E: options.secret ?? 'demo-lumen-full-secret',
      ...options.env,
    });
    return {
      ...station,
      async stop() {
        await station.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
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

/**
 * For each test of the file: a sandbox process and a virtual label printer, and the station
 * the test starts on them (`lumen(...)`, provisioned with one Lumen profile); all stopped after
 * the test.
 */
export function provisionedPerTest(profile: { id: string; name: string }): {
  sandbox(): SandboxProcess;
  printer(): VirtualPrinter;
  /** `printerName`: the label printer's name in the file (the virtual printer's by default). */
  lumen(printerName?: string): Promise<RunningStation>;
} {
  let sandbox: SandboxProcess | null = null;
  let printer: VirtualPrinter | null = null;
  let station: RunningStation | null = null;
  test.beforeEach(async () => {
    sandbox = await startSandboxProcess();
    printer = await startVirtualPrinter({ port: 0 });
  });
  test.afterEach(async () => {
    await station?.stop();
    station = null;
    await printer?.close();
    await sandbox?.stop();
  });
  const started = <T>(what: T | null, name: string): T => {
    if (!what) throw new Error(`the ${name} of this test has not started`);
    return what;
  };
  return {
    sandbox: () => started(sandbox, 'sandbox'),
    printer: () => started(printer, 'printer'),
    async lumen(printerName) {
      station = await startProvisionedStation({
        baseUrl: started(sandbox, 'sandbox').url,
        printer: {
          port: started(printer, 'printer').port,
          ...(printerName ? { name: printerName } : {}),
        },
        profile,
      });
      return station;
    },
  };
}

/** The labels a virtual printer's output directory holds. */
export const printedLabels = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.zpl')) : [];

/** An order file (the sample orders by default) through Settings → Station, by keyboard; stays there. */
export async function importOrders(
  page: Page,
  file = join(root, 'resources/orders/sample-orders.csv'),
): Promise<void> {
  await page.keyboard.press('Alt+7');
  await page.getByLabel('Import orders file').setInputFiles(file);
  await expect(page.getByTestId('import-report')).toContainText(/\d+ imported/);
}

/** Types an order number as a scanner would, waits for its rates, and buys at the rule's choice. */
export async function scanAndBuy(page: Page, order: string): Promise<void> {
  await page.keyboard.type(order);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rate-reason')).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press('Control+Enter');
}

/** The next label the platform sells: bought, then the connection drops before its answer. */
export function loseNextLabelAnswer(sandbox: Pick<SandboxProcess, 'addFault'>): Promise<void> {
  return sandbox.addFault({
    method: 'POST',
    path: '/api/v1/labels',
    kind: 'reset',
    after: true,
    times: 1,
  });
}

/**
 * Scans and buys `order` while the platform buys the label and then the connection drops before
 * its answer arrives: the purchase's outcome is unknown (one label on the sandbox's ledger).
 */
export async function buyWithLostAnswer(
  page: Page,
  sandbox: Pick<SandboxProcess, 'addFault'>,
  order: string,
): Promise<void> {
  await loseNextLabelAnswer(sandbox);
  await scanAndBuy(page, order);
  await expect(page.getByTestId('failure-message')).toHaveAttribute(
    'data-code',
    'purchase-outcome-unknown',
    { timeout: 30_000 },
  );
}

/** The elements under `selector` whose right edge is past `width` (the window's): none, in a layout that fits. */
export function pastRightEdge(page: Page, selector: string, width: number): Promise<string[]> {
  return page
    .locator(`${selector} *`)
    .evaluateAll(
      (els, w) =>
        els
          .filter((el) => el.getBoundingClientRect().right > w + 1)
          .map((el) => `${el.tagName} ${el.textContent?.slice(0, 30) ?? ''}`),
      width,
    );
}
