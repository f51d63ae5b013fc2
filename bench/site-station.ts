// A simulated packing station of the site benchmark: its own SQLite file, packing workflow,
// outbox drainer and pool against the shared sandbox and site store. Used in the benchmark's
// process (siteStation) and as a process of its own (run this file; see bench/site.ts), as
// each real station is its own computer.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { PlatformClient } from '../src/core/platform/client.js';
import { openDatabase, type Db } from '../src/core/storage/database.js';
import { PackingWorkflow } from '../src/core/packing/packing-workflow.js';
import {
  classifyPlatformError,
  packingPlatformFrom,
} from '../src/core/packing/platform-adapter.js';
import { profileSchema } from '../src/core/profiles/profile-schema.js';
import { SiteLink, type OrderClaims } from '../src/core/site/link.js';
import { benchOrder } from './orders.js';
import { lumen, lumenProfile } from './world.js';

export interface BenchStation {
  id: string;
  db: Db;
  client: PlatformClient;
  workflow: PackingWorkflow;
  link: SiteLink;
  claimMs: number[];
  /** Closes the station's link and opens one to the store at `siteUrl` (its claims go there). */
  moveTo(siteUrl: string): Promise<void>;
}

export function siteStation(
  dir: string,
  url: string,
  siteUrl: string,
  password: string,
  n: number,
  start = true,
): BenchStation {
  const id = `st-${String(n).padStart(2, '0')}`;
  const db = openDatabase(join(dir, `site-${id}.db`));
  const profile = profileSchema.parse(lumenProfile('bench-site', url, []));
  const client = new PlatformClient({
    baseUrl: url,
    clientId: profile.clientId,
    tenantId: profile.tenantId,
    environment: 'sandbox',
    getSecret: () => lumen.clientSecret,
  });
  const claimMs: number[] = [];
  const late: { link?: SiteLink } = {};
  const scope = { profileId: profile.id, environment: profile.environment };
  const claims: OrderClaims = {
    claim: async (r) => {
      const t0 = performance.now();
      const result = await late.link!.claims(scope).claim(r);
      claimMs.push(performance.now() - t0);
      return result;
    },
  };
  const workflow = new PackingWorkflow({
    db,
    profile,
    platform: packingPlatformFrom(client),
    classify: classifyPlatformError,
    // Print jobs are only stored: the printer is scan_to_print's business.
    printQueue: { enqueue: () => ({ id: 1 }) },
    orderClaims: claims,
  });
  const link = new SiteLink(
    { url: siteUrl, stationId: id, stationName: `Station ${n}` },
    { db, password },
  );
  late.link = link;
  if (start) link.start();
  const station: BenchStation = {
    id,
    db,
    client,
    workflow,
    link,
    claimMs,
    async moveTo(to: string) {
      await late.link!.close();
      late.link = new SiteLink(
        { url: to, stationId: id, stationName: `Station ${n}` },
        { db, password },
      );
      late.link.start();
      station.link = late.link;
    },
  };
  return station;
}

export function addOrders(s: BenchStation, count: number): string[] {
  const numbers: string[] = [];
  s.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const orderNumber = `${s.id.toUpperCase()}-${i}`;
      numbers.push(orderNumber);
      s.workflow.orders.upsert(s.workflow.scope, 'tnt_lumen', benchOrder(orderNumber, i), 'bench');
    }
  })();
  return numbers;
}

/**
 * Ships one order whole. false: the platform did not answer in time (the machine is too busy
 * for the sandbox; the shipment waits in the offline queue); any other outcome throws.
 */
export async function ship(s: BenchStation, orderNumber: string): Promise<boolean> {
  const lookup = s.workflow.lookup(orderNumber);
  if (lookup.kind !== 'order') throw new Error(`${orderNumber}: ${lookup.kind}`);
  const result = await s.workflow.ship(lookup.order.id, { stationUser: `packer-${s.id}` });
  if ('label' in result && result.label) return true;
  const failure = 'failure' in result ? result.failure : result;
  if ((failure as { code?: string } | undefined)?.code === 'platform-unreachable') return false;
  throw new Error(`${orderNumber} bought no label: ${JSON.stringify(failure).slice(0, 500)}`);
}

export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 600_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What a station process is told (argv[2], JSON). */
export interface StationProcessArgs {
  dir: string;
  sandboxUrl: string;
  siteUrl: string;
  password: string;
  n: number;
  orders: number;
  /** Labels shipped (and synced) before "ready": the token, JIT, pooled statements. */
  warmup: number;
}

// As a process: ready (orders imported and synced) → "go" on stdin → ship every order → wait
// until the outbox is empty → one JSON line with the claim timings → "exit" on stdin.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const a = JSON.parse(process.argv[2]!) as StationProcessArgs;
  const s = siteStation(a.dir, a.sandboxUrl, a.siteUrl, a.password, a.n);
  const orders = addOrders(s, a.warmup + a.orders);
  const lines = createInterface({ input: process.stdin });
  const next = (word: string) =>
    new Promise<void>((resolve) => {
      const on = (line: string) => {
        if (line.trim() !== word) return;
        lines.off('line', on);
        resolve();
      };
      lines.on('line', on);
    });
  const go = next('go');
  for (const o of orders.splice(0, a.warmup)) await ship(s, o);
  s.claimMs.length = 0;
  await until(() => s.link.sync.status().state === 'synced', 'the orders to sync');
  console.log(JSON.stringify({ ready: s.id }));
  await go;
  const t0 = performance.now();
  let notBought = 0;
  for (const o of orders) if (!(await ship(s, o))) notBought++;
  const packingMs = performance.now() - t0;
  await until(() => s.link.sync.status().state === 'synced', 'the labels to sync');
  const exit = next('exit');
  console.log(JSON.stringify({ done: s.id, claimMs: s.claimMs, packingMs, notBought }));
  await exit;
  await s.link.close();
  s.client.close();
  s.db.close();
  process.exit(0);
}
