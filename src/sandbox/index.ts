import { SandboxClock } from './clock.js';
import { type Fault, FaultInjector, type FaultSpec } from './faults.js';
import { type Fixtures, demoWorld, loadFixtures, parseFixtures } from './fixtures.js';
import { buildServer } from './server.js';
import { type LedgerEntry, SandboxState } from './state.js';
import { TrackerStore } from './trackers.js';
import { WebhookService } from './webhooks/service.js';
import { type World, makeAuth } from './world.js';

export { FixtureError, demoWorld, loadFixtures, parseFixtures, type Fixtures } from './fixtures.js';
export type { Fault, FaultSpec } from './faults.js';
export type { LedgerEntry } from './state.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** A fixtures object or the path of a fixtures JSON file; the demo world by default. */
  fixtures?: Fixtures | string;
  /** Fixed delay added to every /api/v1 response, in milliseconds. */
  latencyMs?: number;
  /** Lifetime of access tokens, in seconds (3600 by default, as the spec says). */
  tokenTtlSeconds?: number;
  /** Accept http:// webhook URIs on loopback (for tests with a local receiver). */
  allowHttpWebhooks?: boolean;
  /** Where the sandbox clock starts (ISO timestamp or epoch ms); real now by default. */
  startTime?: string | number;
}

export interface SandboxClockControl {
  now(): Date;
  /** Moves the sandbox clock forward, running everything that falls due, before resolving. */
  advance(seconds: number): Promise<Date>;
}

export interface RunningSandbox {
  /** `http://HOST:PORT`, the base address of the API (append /api/v1/...). */
  url: string;
  port: number;
  host: string;
  fixtures: Fixtures;
  clock: SandboxClockControl;
  faults: { add(spec: FaultSpec): Fault; clear(): void; list(): Fault[] };
  /** Every label bought, in order. */
  ledger(): LedgerEntry[];
  /** API requests received (method, path without query, epoch ms), oldest first; the last 100,000. */
  requests(): { method: string; path: string; at: number }[];
  /**
   * Gives an API client a new secret, as its owner rotating the key on the platform would:
   * tokens asked with the old one are refused (401) from then on.
   */
  setClientSecret(clientId: string, clientSecret: string): void;
  /** Sets a connection's authorizationStatus, as `POST /sandbox/connections/{id}/status` does. */
  setConnectionStatus(
    connectionId: string,
    status: Fixtures['connections'][number]['authorizationStatus'],
  ): void;
  /** Stops the server and everything it started: timers, sockets, pending deliveries. */
  close(): Promise<void>;
}

function resolveFixtures(input: Fixtures | string | undefined): Fixtures {
  if (input === undefined) return demoWorld();
  if (typeof input === 'string') return loadFixtures(input);
  return parseFixtures(input, 'fixtures object');
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const fixtures = resolveFixtures(options.fixtures);
  const startMs =
    options.startTime === undefined
      ? undefined
      : typeof options.startTime === 'number'
        ? options.startTime
        : Date.parse(options.startTime);
  const clock = new SandboxClock(startMs);
  const state = new SandboxState(fixtures, clock.iso());
  const faults = new FaultInjector();
  const trackers = new TrackerStore(clock);
  const worldOptions = {
    latencyMs: options.latencyMs ?? 0,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    allowHttpWebhooks: options.allowHttpWebhooks ?? false,
  };
  const webhooks = new WebhookService(state, clock, worldOptions);
  trackers.onChange((tracker) => webhooks.trackingUpdated(tracker));
  const world: World = {
    state,
    clock,
    faults,
    trackers,
    webhooks,
    options: worldOptions,
    internalErrors: [],
    requests: [],
    auth: makeAuth(state, clock),
  };
  const app = buildServer(world);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ port: options.port ?? 0, host });
  } catch (error) {
    clock.close();
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    fixtures,
    clock: { now: () => clock.now(), advance: (seconds) => clock.advance(seconds) },
    faults: {
      add: (spec) => faults.add(spec),
      clear: () => faults.clear(),
      list: () => faults.list(),
    },
    ledger: () => state.ledger.map((entry) => ({ ...entry })),
    requests: () => world.requests.map((r) => ({ ...r })),
    setClientSecret(clientId, clientSecret) {
      const client = state.clients.get(clientId);
      if (!client) throw new Error(`unknown API client "${clientId}"`);
      client.clientSecret = clientSecret;
      // Tokens already issued under the old secret are revoked with it.
      for (const [token, t] of state.tokens)
        if (t.clientId === clientId) state.tokens.delete(token);
    },
    setConnectionStatus(connectionId, status) {
      const conn = state.connections.get(connectionId);
      if (!conn) throw new Error(`unknown connection "${connectionId}"`);
      conn.authorizationStatus = status;
      conn.updatedAt = clock.iso();
    },
    close() {
      closing ??= (async () => {
        clock.close();
        faults.close();
        webhooks.close();
        await app.close();
      })();
      return closing;
    },
  };
}
