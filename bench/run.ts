// npm run bench [-- --quick] [--only name,name]: prints one JSON line per figure, then a summary.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanSummary } from './harness.js';
import { labelCacheBench } from './label-cache.js';
import { trackerIngestBench } from './tracker-ingest.js';
import { packBench, scanToPrintBench, tokenWaitsBench } from './scan-to-print.js';
import { startupBench } from './startup.js';
import { sandboxRatesBench } from './sandbox-rates.js';
import { siteBench } from './site.js';
import { siteOrdersBench } from './site-orders.js';
import { siteTrackersBench } from './site-trackers.js';
import { CliUsageError, parseCli } from '../src/core/cli-args.js';
import { ordersViewBench } from './orders-view.js';
import { batchBench } from './batch.js';

const BENCHES = [
  'sandbox',
  'scan_to_print',
  'pack',
  'label_cache',
  'label-cache',
  'startup',
  'tracker_ingest',
  'site',
  'site_trackers',
  'site_orders',
  'orders_view',
  'batch',
];
const usage = `usage: npm run bench -- [--quick] [--only name,name]
  --quick          smaller sizes (50 scans, 30 packs, 500,000 labels, 2,000 trackers): a few
                   minutes instead of about half an hour on a 2-core machine
  --only names     run only these: ${BENCHES.join(', ')}
Prints one JSON line per figure, then a summary against the targets (docs/benchmarks.md).
Needs python3 on the PATH (the printer's tap). Never part of npm test.`;
let values: { quick?: boolean; only?: string; help?: boolean };
try {
  ({ values } = parseCli(
    {
      options: {
        quick: { type: 'boolean' },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    },
    usage,
  ));
  const unknown = values.only?.split(',').filter((n) => !BENCHES.includes(n)) ?? [];
  if (unknown.length) throw new CliUsageError(`--only: no benchmark ${unknown.join(', ')}`, usage);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const quick = values.quick ?? false;
const only = values.only ? new Set(values.only.split(',')) : null;
const wants = (name: string) => !only || only.has(name);

const dir = mkdtempSync(join(tmpdir(), 'station-bench-'));
const cleanup = () => rmSync(dir, { recursive: true, force: true });
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

try {
  if (wants('sandbox')) await sandboxRatesBench(quick ? 200 : 1000);
  const scans = quick ? 50 : 200;
  if (wants('scan_to_print')) {
    // Ours and the peer (bench/peer-station.ts), scan for scan, at each latency.
    await scanToPrintBench(dir, scans, 0);
    await scanToPrintBench(dir, scans, 100);
    // A token lifetime far shorter than the run: renewals must happen in the background.
    await tokenWaitsBench(dir, scans, 20, 5);
  }
  if (wants('pack')) {
    await packBench(dir, quick ? 30 : 200, 0);
    await packBench(dir, quick ? 30 : 200, 100);
  }
  // The write path fills `labels` (its figures); older labels written by SQL make `total`
  // (issue 16: the label cache at 10,000,000 labels), where the reads and the start are measured.
  const labels = quick ? 50_000 : 1_000_000;
  const total = quick ? 500_000 : 10_000_000;
  const dbFile = join(dir, 'station.db');
  const labelCache = wants('label_cache') || wants('label-cache');
  if (labelCache || wants('startup')) labelCacheBench(dbFile, labels, total);
  if (labelCache || wants('startup')) await startupBench(dir, total, total - labels);
  if (wants('tracker_ingest')) {
    await trackerIngestBench(dir, quick ? 2_000 : 10_000);
    // A 3PL site (issue 16.3): reported, no target. Seeding 100,000 labels takes minutes.
    if (!quick) await trackerIngestBench(dir, 100_000, 'tracker_ingest_100k', false);
  }
  if (wants('orders_view')) ordersViewBench(dir, quick ? 5_000 : 20_000);
  if (wants('batch')) {
    await batchBench(dir, quick ? 20 : 50, 0);
    await batchBench(dir, quick ? 20 : 50, 100);
  }
  if (wants('site'))
    await siteBench(dir, {
      stations: 20,
      perStation: quick ? 10 : 50,
      searchLabels: quick ? 200_000 : 10_000_000,
      // An hour of a busy station (one label every 6 s); the quick run packs a quarter of it.
      offlineLabels: quick ? 150 : 600,
    });
  if (wants('site') || wants('site_orders')) await siteOrdersBench(quick ? 100_000 : 1_000_000);
  if (wants('site') || wants('site_trackers'))
    await siteTrackersBench(dir, {
      counts: [1, 5, 20],
      intervalMs: quick ? 300 : 1000,
      intervals: quick ? 5 : 10,
    });
  console.log(humanSummary());
} finally {
  cleanup();
}
