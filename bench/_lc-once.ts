// One-off: the label cache at a chosen size (write path `count`, topped up to `total`).
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { labelCacheBench } from './label-cache.js';
import { startupBench } from './startup.js';
import { humanSummary } from './harness.js';
const [count, total] = [Number(process.argv[2]), Number(process.argv[3])];
const dir = mkdtempSync('/tmp/sb-lc/d-');
try {
  labelCacheBench(join(dir, 'station.db'), count, total);
  await startupBench(dir, total, total - count);
  console.log(humanSummary());
} finally {
  rmSync(dir, { recursive: true, force: true });
}
