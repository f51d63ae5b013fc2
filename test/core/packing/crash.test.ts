import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { PurchaseStep } from '../../../src/core/packing/label-purchase.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/tmp.js';
import { waitUntil } from '../../support/virtual-printer.js';
import { lumenProfile } from './support/station.js';
import { ledgerFor, stationFor } from './support/harness.js';

const sb = useSandbox();
const repo = join(import.meta.dirname, '../../..');
const child = join(import.meta.dirname, 'fixtures/purchase-child.ts');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the child station; `onLine` may kill it when it reports where it is. */
function runChild(
  env: Record<string, string>,
  onLine?: (line: string, kill: () => void) => void,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of chunk.toString().split('\n'))
        if (line) onLine?.(line, () => proc.kill('SIGKILL'));
    });
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const steps: PurchaseStep[] = [
  'shipment-created',
  'rated',
  'purchase-committed',
  'label-received',
  'label-stored',
  // Inside the one transaction that stores the label and its print job (nothing of it is
  // committed when the station dies there).
  'print-job-stored',
  'print-enqueued',
];

describe('a station killed with SIGKILL during a purchase, then restarted', () => {
  /** Steps after which the platform has sold the label (the answer may not have arrived). */
  const soldBy = new Set<PurchaseStep>([
    'label-received',
    'label-stored',
    'print-job-stored',
    'print-enqueued',
  ]);
  /**
   * Steps at which the purchase is in flight, so its outcome is unknown after a restart: the
   * answer was not yet committed. The label and its print job are one transaction (one commit
   * between the platform's answer and the first byte), so a station that dies inside it has
   * only its purchase intent, as one that died waiting for the answer.
   */
  const inFlight = new Set<PurchaseStep>([
    'purchase-committed',
    'label-received',
    'print-job-stored',
  ]);
  const cases = [
    ...steps.map((step) => ({
      name: `killed itself at ${step}`,
      step,
      how: 'self' as const,
      sold: soldBy.has(step),
      unknown: inFlight.has(step),
    })),
    {
      name: 'killed from outside while the label request is in flight',
      step: 'purchase-committed' as const,
      how: 'wait' as const,
      // Killed only once the platform has recorded the sale, so the answer is truly lost.
      sold: true,
      unknown: true,
    },
  ];

  it.each(cases)('$name: no duplicate on the platform, no label lost', async (c) => {
    const { step, how } = c;
    sb.clearFaults();
    const dbFile = join(tempDir(), 'station.db');
    const orderNumber = `CRASH-${how}-${step}`.toUpperCase();
    // The restarted station's printer, set up first so the child can name its port.
    const restarted = await stationFor((p) => lumenProfile(sb.url, p), {
      dbFile,
      startSpool: false,
    });
    let killedFromOutside = false;
    if (how === 'wait')
      // The platform buys the label but answers slowly: the station dies waiting for it.
      sb.fault({
        method: 'POST',
        path: '/api/v1/labels',
        kind: 'delay',
        delayMs: 60_000,
        after: true,
        times: 1,
      });
    const run = await runChild(
      {
        STATION_DB: dbFile,
        SANDBOX_URL: sb.url,
        PRINTER_PORT: String(restarted.printer.port),
        ORDER_NUMBER: orderNumber,
        CRASH_AT: step,
        CRASH_HOW: how,
      },
      (line, kill) => {
        if (line !== `AT ${step}`) return;
        // Kill only once the platform has recorded the sale, so the answer is truly lost.
        void waitUntil(async () => (await ledgerFor(sb.url, orderNumber)).length === 1).then(() => {
          killedFromOutside = true;
          kill();
        });
      },
    );
    expect(run.signal, run.stderr).toBe('SIGKILL');
    expect(killedFromOutside).toBe(how === 'wait');
    sb.clearFaults();
    const soldBefore = await ledgerFor(sb.url, orderNumber);
    expect(soldBefore).toHaveLength(c.sold ? 1 : 0);

    // Restart on the same database: recover, resolve what needs attention, scan again.
    const { workflow, attention, spool, printer } = restarted;
    await workflow.recover();
    spool.start();
    // A purchase in flight at the crash waits for a shift lead, saying what is not known.
    const waiting = attention.list();
    expect(waiting.map((i) => i.purchase.state)).toEqual(c.unknown ? ['unknown'] : []);
    for (const item of waiting) {
      // The card says when the purchase was made, not when the restart found it unanswered.
      expect(item.purchase.updatedAt > item.purchase.createdAt).toBe(true);
      expect(item.since).toBe(item.purchase.createdAt);
      expect(item.purchase.failure?.message).toMatch(
        new RegExp(
          `\\(reference ${item.purchase.orderReference}\\) may or may not have been bought`,
        ),
      );
      // The shift lead looks it up: found on the platform exactly when it was sold.
      const found = await attention.lookUp(item.purchase.id, 'shift-lead');
      expect(found.found).toBe(c.sold);
      if (!found.found) attention.markNotBought(item.purchase.id, 'shift-lead');
    }
    const lookup = workflow.lookup(orderNumber);
    if (lookup.kind !== 'order') throw new Error(`order ${orderNumber} not found after restart`);
    const rescan = await workflow.ship(lookup.order.id, { stationUser: 'packer' });
    // A label bought before the crash is the one the station kept, not a second one.
    expect(rescan.outcome).toBe(c.sold ? 'already-labelled' : 'printed');

    const sold = await ledgerFor(sb.url, orderNumber);
    expect(sold).toHaveLength(1); // never two labels for one package
    const kept = workflow.labels.forOrder(lookup.order.id);
    expect(kept.map((l) => l.trackingNumber)).toEqual([sold[0]!.trackingNumber]);
    expect(kept[0]!.zpl).toContain(sold[0]!.trackingNumber);
    // Printed exactly once: every job settled, one label job for it, one label out of the printer.
    const tracking = sold[0]!.trackingNumber;
    await waitUntil(() => printer.labels.some((l) => l.zpl.includes(tracking)));
    await waitUntil(() => spool.list({ states: ['queued', 'sending'] }).length === 0);
    const labelJobs = spool.list().filter((j) => j.kind === 'label');
    expect(labelJobs.map((j) => j.state)).toEqual(['printed']);
    expect(printer.labels.filter((l) => l.zpl.includes(tracking))).toHaveLength(1);
  });
});

describe('a station killed with SIGKILL while buying a return label, then restarted', () => {
  const returnSteps: PurchaseStep[] = [
    'purchase-committed',
    'label-received',
    'label-stored',
    'print-job-stored',
  ];
  it.each(returnSteps)(
    'killed itself at %s: one return label on the platform, kept, linked and printed once',
    async (step) => {
      sb.clearFaults();
      const dbFile = join(tempDir(), 'station.db');
      const orderNumber = `CRASH-RETURN-${step}`.toUpperCase();
      const restarted = await stationFor((p) => lumenProfile(sb.url, p), {
        dbFile,
        startSpool: false,
      });
      const run = await runChild({
        STATION_DB: dbFile,
        SANDBOX_URL: sb.url,
        PRINTER_PORT: String(restarted.printer.port),
        ORDER_NUMBER: orderNumber,
        CRASH_AT: step,
        CRASH_HOW: 'self',
        RETURN_LABEL: '1',
      });
      expect(run.signal, run.stderr).toBe('SIGKILL');
      // The original, and the return label unless the station died before sending for it.
      const soldBefore = (await ledgerFor(sb.url, orderNumber)).length;
      expect(soldBefore).toBe(step === 'purchase-committed' ? 1 : 2);

      const { workflow, attention, spool, printer } = restarted;
      await workflow.recover();
      spool.start();
      for (const item of attention.list()) {
        const found = await attention.lookUp(item.purchase.id, 'shift-lead');
        if (!found.found) attention.markNotBought(item.purchase.id, 'shift-lead');
      }
      const lookup = workflow.lookup(orderNumber);
      if (lookup.kind !== 'order') throw new Error(`order ${orderNumber} not found after restart`);
      const original = workflow.labels.forOrder(lookup.order.id).find((l) => !l.returnOfLabelId)!;
      // Asked again after the restart: the return label bought before the crash is the one;
      // one that was never sent is bought now.
      const again = await workflow.returnLabel(original.id, { stationUser: 'packer' });
      expect(again.outcome).toBe(soldBefore === 2 ? 'already-labelled' : 'printed');
      const sold = await ledgerFor(sb.url, orderNumber);
      expect(sold).toHaveLength(2);
      const returns = workflow.labels.returnsOf([original.id]).get(original.id) ?? [];
      expect(returns).toHaveLength(1);
      const tracking = returns[0]!.trackingNumber;
      expect(sold.map((e) => e.trackingNumber)).toContain(tracking);
      await waitUntil(() => printer.labels.some((l) => l.zpl.includes(tracking)));
      await waitUntil(() => spool.list({ states: ['queued', 'sending'] }).length === 0);
      expect(printer.labels.filter((l) => l.zpl.includes(tracking))).toHaveLength(1);
    },
  );
});

describe('a print job stored before its shipment moved on (a station from before the fix)', () => {
  it('recovery sees the job and does not queue the label a second time', async () => {
    sb.clearFaults();
    const late: { station?: Awaited<ReturnType<typeof stationFor>> } = {};
    const station = await stationFor((p) => lumenProfile(sb.url, p), {
      startSpool: false,
      hooks: {
        at: (step, { shipmentId }) => {
          if (step !== 'label-stored') return;
          // What an older station committed before it died: the label and its job, and the
          // shipment still 'purchased' (today the three are one transaction, so that state
          // can only come from a database an older station left).
          late.station!.workflow.shipments.setState(shipmentId, 'purchased', { test: 'older' });
          throw new Error('the station stopped here');
        },
      },
    });
    late.station = station;
    station.importSamples();
    const lookup = station.workflow.lookup('LUM-10421');
    if (lookup.kind !== 'order') throw new Error('no LUM-10421');
    await expect(station.workflow.ship(lookup.order.id)).rejects.toThrow('stopped here');
    expect(station.workflow.shipments.forOrder(lookup.order.id).map((s) => s.state)).toContain(
      'purchased',
    );

    await station.workflow.recover();
    station.spool.start();
    const [label] = station.workflow.labels.forOrder(lookup.order.id);
    await waitUntil(() =>
      station.printer.labels.some((l) => l.zpl.includes(label!.trackingNumber)),
    );
    await waitUntil(() => station.spool.list({ states: ['queued', 'sending'] }).length === 0);
    expect(station.spool.list().filter((j) => j.kind === 'label')).toHaveLength(1);
    expect(
      station.printer.labels.filter((l) => l.zpl.includes(label!.trackingNumber)),
    ).toHaveLength(1);
    expect(station.workflow.shipments.forOrder(lookup.order.id).map((s) => s.state)).toContain(
      'print-queued',
    );
  });
});
