// scan_to_print: N sequential scans through the core (lookup → shipment → rates → rule →
// crash-safe purchase → spool → network printer) against the sandbox at a set latency. The
// clock stops at the first ZPL byte that reaches the printer's TCP port.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PlatformClient } from '../src/core/platform/client.js';
import { openDatabase } from '../src/core/storage/database.js';
import { PackingWorkflow } from '../src/core/packing/packing-workflow.js';
import {
  classifyPlatformError,
  packingPlatformFrom,
} from '../src/core/packing/platform-adapter.js';
import { PrintSpool } from '../src/core/printing/spool/print-spool.js';
import { NetworkPrinter } from '../src/core/printing/drivers/network.js';
import type { PrinterConfig } from '../src/core/printing/types.js';
import { profileSchema } from '../src/core/profiles/profile-schema.js';
import { report, round, summarize } from './harness.js';
import { benchOrder } from './orders.js';
import { lumen, lumenProfile } from './world.js';
import { sandboxProcess, virtualPrinterProcess } from './processes.js';

/** A TCP tap in front of the printer: notes when the first byte of each label arrives. */
async function labelTap(
  targetPort: number,
): Promise<{ port: number; firstBytes: number[]; server: Server }> {
  const firstBytes: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const printer = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(printer);
    client.on('data', (chunk) => {
      if (chunk.includes('^XA')) firstBytes.push(performance.now());
      printer.write(chunk);
    });
    printer.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      printer.destroy();
    };
    client.on('close', end).on('error', end);
    printer.on('close', end).on('error', end);
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no tap address');
  return { port: address.port, firstBytes, server };
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

export async function scanToPrintBench(
  dir: string,
  scans: number,
  latencyMs: number,
  tokenTtlSeconds?: number,
): Promise<void> {
  const sandbox = await sandboxProcess({
    latencyMs,
    ...(tokenTtlSeconds ? { tokenTtlSeconds } : {}),
  });
  const printer = await virtualPrinterProcess();
  const tap = await labelTap(printer.port);
  const db = openDatabase(join(dir, `scan-${latencyMs}-${tokenTtlSeconds ?? 0}.db`));
  const printerConfig = {
    id: 'zebra-1',
    name: 'Bench ZD421',
    kind: 'network',
    host: '127.0.0.1',
    port: tap.port,
    dpi: 203,
  } as PrinterConfig;
  const profile = profileSchema.parse(lumenProfile('bench-lumen', sandbox.url, [printerConfig]));
  const client = new PlatformClient({
    baseUrl: sandbox.url,
    clientId: profile.clientId,
    tenantId: profile.tenantId,
    environment: 'sandbox',
    getSecret: () => lumen.clientSecret,
  });
  let apiMs = 0;
  let waited = false;
  let operations: string[] = [];
  client.observe((e) => {
    apiMs += e.durationMs;
    operations.push(e.operation);
    if (e.waitedForToken) waited = true;
  });
  const spool = new PrintSpool({
    db,
    printers: () => profile.printers,
    createDriver: (c) => new NetworkPrinter(c),
  });
  const workflow = new PackingWorkflow({
    db,
    profile,
    platform: packingPlatformFrom(client),
    classify: classifyPlatformError,
    printQueue: { enqueue: (job) => spool.enqueue(job) },
  });
  spool.start();
  try {
    for (let i = 0; i < scans; i++) {
      workflow.orders.upsert(workflow.scope, 'tnt_lumen', benchOrder(`B-${i}`, i), 'bench');
    }
    const whole: number[] = [];
    const overhead: number[] = [];
    let scansThatWaited = 0;
    for (let i = 0; i < scans; i++) {
      apiMs = 0;
      waited = false;
      operations = [];
      const seen = tap.firstBytes.length;
      const t0 = performance.now();
      const lookup = workflow.lookup(`B-${i}`);
      if (lookup.kind !== 'order') throw new Error(`scan B-${i}: ${lookup.kind}`);
      const result = await workflow.ship(lookup.order.id, { stationUser: 'bench' });
      if (!('label' in result) || !result.label)
        throw new Error(`scan B-${i} did not buy a label: ${JSON.stringify(result).slice(0, 300)}`);
      const api = apiMs;
      await waitFor(() => tap.firstBytes.length > seen, `the label of B-${i} at the printer`);
      const total = tap.firstBytes[seen]! - t0;
      whole.push(total);
      overhead.push(total - api);
      if (waited) scansThatWaited++;
    }
    const tag = `latency_${latencyMs}ms`;
    const w = summarize(whole.slice(1));
    const o = summarize(overhead.slice(1));
    const extra = {
      scans,
      latencyMs,
      firstScanMs: round(whole[0]!, 1),
      apiCallsPerScan: operations,
    };
    if (!tokenTtlSeconds) {
      report({ name: `scan_to_print.${tag}.whole_p50`, value: w.p50, unit: 'ms', ...extra });
      report({ name: `scan_to_print.${tag}.whole_p95`, value: w.p95, unit: 'ms', ...extra });
      report({
        name: `scan_to_print.${tag}.station_overhead_p50`,
        value: o.p50,
        unit: 'ms',
        ...extra,
      });
      report({
        name: `scan_to_print.${tag}.station_overhead_p95`,
        value: o.p95,
        unit: 'ms',
        ...extra,
        target: { op: '<=', value: 10 },
      });
    } else {
      report({
        name: `scan_to_print.token_waits`,
        value: scansThatWaited,
        unit: 'scans',
        scans,
        tokenTtlSeconds,
        latencyMs,
        goal: 'only the first scan waits',
        target: { op: '<=', value: 1 },
      });
    }
    // Every scan's label reached the printer (the tap saw each one arrive).
    await waitFor(() => tap.firstBytes.length >= scans, 'every label at the printer');
  } finally {
    await spool.stop();
    client.close();
    db.close();
    await new Promise((r) => tap.server.close(r));
    await printer.close();
    await sandbox.close();
  }
}
