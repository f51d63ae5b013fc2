import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BatchRunner } from '../../../src/core/packing/batch.js';
import type { PurchaseStep } from '../../../src/core/packing/label-purchase.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { waitUntil } from '../../support/virtual-printer.js';
import { ledgerFor, stationFor } from '../packing/support/harness.js';
import { lumenProfile } from '../packing/support/station.js';

const sb = useSandbox();
const repo = join(import.meta.dirname, '../../..');
const child = join(import.meta.dirname, 'fixtures/batch-child.ts');

function runChild(env: Record<string, string>) {
  return new Promise<{ signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', child], {
        cwd: repo,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      proc.on('error', reject);
      proc.on('exit', (_code, signal) => resolve({ signal, stdout, stderr }));
    },
  );
}

describe('a station killed with SIGKILL mid-batch, then restarted (#15.8)', () => {
  const cases: { step: PurchaseStep; second: 'bought' | 'unknown'; sold: 0 | 1 }[] = [
    // Before the label request left: the attempt's outcome is unknown, never bought again by itself.
    { step: 'purchase-committed', second: 'unknown', sold: 0 },
    // The label came back and was stored (with its print job): the batch counts it, and does
    // not buy it again.
    { step: 'label-stored', second: 'bought', sold: 1 },
    // Inside the transaction that stores the label and its job: nothing of the answer was
    // committed, so it is sold on the platform and unknown to the station, never bought again.
    { step: 'print-job-stored', second: 'unknown', sold: 1 },
  ];

  it.each(cases)('killed at $step of the second label', async ({ step, second, sold }) => {
    sb.clearFaults();
    const dbFile = join(tempDir(), 'station.db');
    const prefix = `BCRASH-${step}`.toUpperCase();
    const restarted = await stationFor((p) => lumenProfile(sb.url, p), { dbFile });
    const run = await runChild({
      STATION_DB: dbFile,
      SANDBOX_URL: sb.url,
      PRINTER_PORT: String(restarted.printer.port),
      PREFIX: prefix,
      CRASH_AT: step,
    });
    expect(run.signal, run.stderr).toBe('SIGKILL');
    const batchId = /BATCH (\S+)/.exec(run.stdout)?.[1];
    expect(batchId).toMatch(/^b_/);
    const soldBefore = await ledgerFor(sb.url, `${prefix}-2`);

    await restarted.workflow.recover();
    const runner = new BatchRunner(restarted.workflow, restarted.db);
    expect(runner.recover()).toBe(1);
    // The interrupted item is settled from what the station knows; the batch waits for a person.
    // An interrupted purchase is counted as of unknown outcome, not as a failure: its label may
    // have been bought (and for print-job-stored it was).
    expect(runner.summary(batchId!)).toMatchObject({
      state: 'paused',
      bought: second === 'bought' ? 2 : 1,
      failed: 0,
      unknown: second === 'unknown' ? 1 : 0,
      waiting: 1,
    });
    const done = await runner.run(batchId!);
    expect(done.state).toBe('done');
    expect(done.items.map((i) => i.state)).toEqual(['bought', second, 'bought']);
    if (second === 'unknown') expect(done.items[1]!.reason).toMatch(/outcome is unknown/);

    // Never two labels for one order; what was sold before the crash is what the station kept.
    for (const n of [1, 2, 3])
      expect(await ledgerFor(sb.url, `${prefix}-${n}`)).toHaveLength(
        n === 2 ? soldBefore.length : 1,
      );
    expect(soldBefore).toHaveLength(sold);
    expect((await ledgerFor(sb.url, `${prefix}-1`))[0]!.batchId).toBe(batchId);
    // Each bought label printed exactly once (the first two from the spool the child left).
    const tracking = done.items.filter((i) => i.state === 'bought').map((i) => i.trackingNumber!);
    await waitUntil(() => restarted.printer.labels.length >= tracking.length);
    await waitUntil(() => restarted.spool.list({ states: ['queued', 'sending'] }).length === 0);
    for (const t of tracking)
      expect(restarted.printer.labels.filter((l) => l.zpl.includes(t))).toHaveLength(1);
    expect(restarted.printer.labels).toHaveLength(tracking.length);
  });
});
