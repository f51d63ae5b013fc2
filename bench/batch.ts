// batch: a shift lead's batch of N single-item orders through the station (rate, buy, print
// each), on the embedded sandbox at a set latency and the virtual printer over TCP. Measures
// how long until the batch is done and until the printer has every label: the batch keeps at
// most BATCH_PRINT_LEAD labels ahead of the printer (docs/core.md, batches), so at latency 0
// its pace is the printer's.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createStation, type Station } from '../src/core/station/index.js';
import { MemorySecretVault } from '../src/core/profiles/secret-vault.js';
import { ConfSettingsStore } from '../src/core/profiles/settings-store.js';
import { startVirtualPrinter } from '../src/core/printing/virtual-printer/server.js';
import { startSandbox } from '../src/sandbox/index.js';
import type { CallName, Input, Output } from '../src/shared/contract.js';
import { report, round } from './harness.js';

const root = join(import.meta.dirname, '..');

async function call<K extends CallName>(s: Station, name: K, input: Input<K>): Promise<Output<K>> {
  const r = await s.dispatch(name, input);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.value as Output<K>;
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const end = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('batch bench: timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function batchBench(dir: string, orders: number, latencyMs: number): Promise<void> {
  const dataDir = mkdtempSync(join(dir, 'batch-'));
  const printer = await startVirtualPrinter({ port: 0 });
  const station = createStation({
    dataDir,
    host: 'web',
    settings: new ConfSettingsStore(join(dataDir, 'settings.json')),
    vault: new MemorySecretVault(),
    resourcesDir: join(root, 'resources'),
    startSandbox: async () => {
      const s = await startSandbox({ latencyMs });
      const c = s.fixtures.apiClients.find((x) => x.clientId === 'demo-lumen-full')!;
      return { ...c, baseUrl: s.url, close: () => s.close() };
    },
  });
  try {
    await station.start();
    // The bench's printer is the only label printer.
    const before = await call(station, 'station.status', {});
    const virtual = before.profile!.printers.find((p) => p.role === 'label')!;
    await call(station, 'printers.remove', { printerId: virtual.id });
    await call(station, 'printers.add', {
      name: 'Bench ZD421',
      host: '127.0.0.1',
      port: printer.port,
      dpi: 203,
      role: 'label',
    });
    const header =
      'order_number,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_postal_code,ship_to_country,weight_lbs,sku';
    const rows = Array.from(
      { length: orders },
      (_, i) => `BB-${i},Customer ${i},${i + 1} Main St,Austin,TX,78701,US,1.5,CANDLE-1`,
    );
    await call(station, 'orders.import', {
      fileName: 'batch.csv',
      content: [header, ...rows].join('\n'),
    });
    await until(async () => (await call(station, 'station.status', {})).printer?.state === 'ready');
    const t0 = performance.now();
    const started = await call(station, 'batch.start', {
      filter: { search: 'BB-' },
      description: 'bench',
    });
    let doneMs = 0;
    await until(async () => {
      const b = (await call(station, 'batch.list', {})).find((x) => x.id === started.id)!;
      if (b.state === 'done' && !doneMs) doneMs = performance.now() - t0;
      return b.state === 'done';
    });
    await until(() => printer.labels.length === orders);
    const printedMs = performance.now() - t0;
    const extra = { orders, latencyMs };
    report({
      name: `batch.done_ms_latency${latencyMs}`,
      value: round(doneMs, 0),
      unit: 'ms',
      ...extra,
    });
    report({
      name: `batch.all_printed_ms_latency${latencyMs}`,
      value: round(printedMs, 0),
      unit: 'ms',
      ...extra,
    });
    report({
      name: `batch.labels_per_s_latency${latencyMs}`,
      value: round((orders * 1000) / printedMs, 1),
      unit: 'labels/s',
      ...extra,
    });
  } finally {
    await station.stop();
    await printer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
