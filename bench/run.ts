// npm run bench [-- --quick] [--only name,name]: prints one JSON line per figure, then a summary.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { humanSummary } from './harness.js';
import { labelCacheBench } from './label-cache.js';
import { trackerIngestBench } from './tracker-ingest.js';
import { scanToPrintBench } from './scan-to-print.js';
import { startupBench } from './startup.js';
import { sandboxRatesBench } from './sandbox-rates.js';
import { siteBench } from './site.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args[args.indexOf('--only') + 1];
const only = args.includes('--only') && onlyArg ? new Set(onlyArg.split(',')) : null;
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
    await scanToPrintBench(dir, scans, 0);
    await scanToPrintBench(dir, scans, 100);
    // A token lifetime far shorter than the run: renewals must happen in the background.
    await scanToPrintBench(dir, scans, 20, 5);
  }
  // The write path fills `labels` (its figures); older labels written by SQL make `total`
  // (issue 16: the label cache at 10,000,000 labels), where the reads and the start are measured.
  const labels = quick ? 50_000 : 1_000_000;
  const total = quick ? 500_000 : 10_000_000;
  const dbFile = join(dir, 'station.db');
  const labelCache = wants('label_cache') || wants('label-cache');
  if (labelCache || wants('startup')) labelCacheBench(dbFile, labels, total);
  if (labelCache || wants('startup')) await startupBench(dir, total, total - labels);
  if (wants('tracker_ingest')) await trackerIngestBench(dir, quick ? 2_000 : 10_000);
  if (wants('site'))
    await siteBench(dir, {
      stations: 20,
      perStation: quick ? 10 : 50,
      searchLabels: quick ? 200_000 : 10_000_000,
      // An hour of a busy station (one label every 6 s); the quick run packs a quarter of it.
      offlineLabels: quick ? 150 : 600,
    });
  console.log(humanSummary());
} finally {
  cleanup();
}
