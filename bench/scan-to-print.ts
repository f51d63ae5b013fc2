// scan_to_print: N sequential scans through the core (lookup → shipment → rates → rule →
// crash-safe purchase → spool → network printer) against the sandbox at a set latency, each
// followed by the same order shipped by the peer station (bench/peer-station.ts) on the same
// sandbox and printer. The clock stops at the first ZPL byte that reaches the printer's TCP
// port (a tap in its own process, bench/label-tap.py: the kernel's receive timestamp).
// pack: the packer's two steps as the Pack view calls them: scan → rates shown (pre-rated or
// not), then confirm → first ZPL byte.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PlatformClient } from '../src/core/platform/client.js';
import { openDatabase } from '../src/core/storage/database.js';
import { checkpointInBackground } from '../src/core/storage/checkpoints.js';
import { PackingWorkflow } from '../src/core/packing/packing-workflow.js';
import { PreRater, prePackedPackages } from '../src/core/packing/pre-rating.js';
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
import { PeerStation } from './peer-station.js';
import { lumen, lumenProfile } from './world.js';
import {
  labelTapProcess,
  monotonicMs,
  sandboxProcess,
  virtualPrinterProcess,
} from './processes.js';

/** Unmeasured scans (ours and the peer's) before the measured ones. */
const WARM_UP_SCANS = 20;

/** CPU time (user + system) of this process, in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** The sandbox, the printer behind its tap, and our station on a fresh database. */
async function rig(dir: string, name: string, latencyMs: number, tokenTtlSeconds?: number) {
  const sandbox = await sandboxProcess({
    latencyMs,
    ...(tokenTtlSeconds ? { tokenTtlSeconds } : {}),
  });
  const printer = await virtualPrinterProcess();
  /** When each label's first byte arrived at the printer's end, and when the tap read it. */
  const firstBytes: number[] = [];
  const tapSeen: number[] = [];
  /** Labels whose arrival had no kernel timestamp (their read time stands in for it). */
  const unstamped = { count: 0 };
  const waiters: (() => void)[] = [];
  const tap = await labelTapProcess(printer.port, (arrivedMs, seenMs) => {
    tapSeen.push(seenMs);
    if (arrivedMs === null) unstamped.count++;
    firstBytes.push(arrivedMs ?? seenMs);
    waiters.splice(0).forEach((w) => w());
  });
  /** The time the `n`-th label (0-based) reached the printer, once it has. */
  const firstByte = async (n: number): Promise<number> => {
    const until = Date.now() + 30_000;
    while (firstBytes.length <= n) {
      if (Date.now() > until) throw new Error(`label ${n} never reached the printer`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 1000).unref();
      });
    }
    return firstBytes[n]!;
  };
  const db = openDatabase(join(dir, `${name}.db`));
  const writtenAt: number[] = [];
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
  const api = {
    ms: 0,
    waited: false,
    operations: [] as string[],
    /** Each call's start and end (monotonic ms): what lies between them is the station's. */
    spans: [] as [number, number][],
  };
  client.observe((e) => {
    const end = monotonicMs();
    api.spans.push([end - e.durationMs, end]);
    api.ms += e.durationMs;
    api.operations.push(e.operation);
    if (e.waitedForToken) api.waited = true;
  });
  const resetApi = () => {
    api.ms = 0;
    api.waited = false;
    api.operations = [];
    api.spans = [];
  };
  const spool = new PrintSpool({
    db,
    printers: () => profile.printers,
    createDriver: (c) => {
      // When each label's bytes were handed to the socket (the driver writes them as send()
      // is called): how long the tap took to see them is the instrument's share of the figure.
      const driver = new NetworkPrinter(c);
      const send = driver.send.bind(driver);
      driver.send = (data, options) => {
        writtenAt.push(monotonicMs());
        return send(data, options);
      };
      return driver;
    },
  });
  const workflow = new PackingWorkflow({
    db,
    profile,
    platform: packingPlatformFrom(client),
    classify: classifyPlatformError,
    printQueue: {
      enqueue: (job) => spool.enqueue(job),
      existingLabelJob: (labelId) => spool.labelJob(labelId),
      prepare: (printerId) => spool.prepare(printerId),
    },
  });
  /** CPU (ms) when each label job went to 'sending' (its first byte leaves right after). */
  const cpuAtSending = new Map<number, number>();
  spool.on('job', (job) => {
    if (job.state === 'sending' && job.kind === 'label' && !cpuAtSending.has(job.id))
      cpuAtSending.set(job.id, cpuMs());
  });
  spool.start();
  // As the station does (src/core/station/context.ts): WAL checkpoints while no scan is under way.
  const stopCheckpoints = checkpointInBackground(db, { idle: () => !workflow.packerBusy });
  /** Resolves when the spool has the label job of `platformLabelId` printed (confirmed). */
  const printed = (platformLabelId: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        spool.off('job', check);
        reject(new Error(`label ${platformLabelId} never printed`));
      }, 30_000);
      function check() {
        if (spool.labelJob(platformLabelId)?.state !== 'printed') return;
        clearTimeout(timer);
        spool.off('job', check);
        resolve();
      }
      spool.on('job', check);
      check();
    });
  return {
    sandbox,
    profile,
    tapPort: tap.port,
    firstByte,
    tapSeen,
    unstamped,
    api,
    resetApi,
    workflow,
    printed,
    cpuAtSending,
    writtenAt,
    async close() {
      await spool.stop();
      stopCheckpoints();
      client.close();
      db.close();
      await tap.close();
      await printer.close();
      await sandbox.close();
    },
  };
}

type Rig = Awaited<ReturnType<typeof rig>>;

export async function scanToPrintBench(
  dir: string,
  scans: number,
  latencyMs: number,
): Promise<void> {
  const r = await rig(dir, `scan-${latencyMs}`, latencyMs);
  const peer = new PeerStation({
    baseUrl: r.sandbox.url,
    clientId: lumen.clientId,
    clientSecret: lumen.clientSecret,
    tenantId: lumen.tenantId,
    shipFrom: { ...r.profile.shipFrom, siteId: lumen.siteId },
    printer: { host: '127.0.0.1', port: r.tapPort },
    dbFile: join(dir, `peer-${latencyMs}.db`),
  });
  // Scans before the measured ones, ours and the peer's alike: a station at work has its code
  // compiled and its caches filled; the very first scan of a shift is reported apart
  // (firstScanMs), the warm-up's others are not measured.
  const warmUp = Math.min(WARM_UP_SCANS, Math.floor(scans / 4));
  const total = scans + warmUp;
  try {
    for (let i = 0; i < total; i++)
      r.workflow.orders.upsert(r.workflow.scope, 'tnt_lumen', benchOrder(`B-${i}`, i), 'bench');
    await peer.login();
    const series = () => ({
      whole: [] as number[],
      overhead: [] as number[],
      cpu: [] as number[],
      cpuFirst: [] as number[],
      /** From the label's bytes handed to the socket to their arrival at the printer's end. */
      toPrinter: [] as number[],
      /** From that arrival to the tap's process reading them (the instrument waking). */
      tapWake: [] as number[],
      /** The overhead as far as the tap's process seeing the first byte. */
      overheadSeen: [] as number[],
    });
    /** Ours, between the platform's answers: scan → rates request, rates → label request, label → first byte. */
    const segments: [number[], number[], number[]] = [[], [], []];
    const ours = series();
    const theirs = series();
    let firstScanMs = 0;
    let operations: string[] = [];
    let labelsSeen = 0;
    for (let i = 0; i < total; i++) {
      const measured = i >= warmUp;
      // Ours: scan → label at the printer; then wait until the spool has it confirmed, so
      // nothing of ours runs during the peer's scan (its CPU is counted to the label).
      r.resetApi();
      const c0 = cpuMs();
      const t0 = monotonicMs();
      const lookup = r.workflow.lookup(`B-${i}`);
      if (lookup.kind !== 'order') throw new Error(`scan B-${i}: ${lookup.kind}`);
      const result = await r.workflow.ship(lookup.order.id, { stationUser: 'bench' });
      if (!('label' in result) || !result.label)
        throw new Error(`scan B-${i} did not buy a label: ${JSON.stringify(result).slice(0, 300)}`);
      const apiMs = r.api.ms;
      const spans = r.api.spans;
      const at = await r.firstByte(labelsSeen++);
      await r.printed(result.label.platformLabelId);
      const cpu = cpuMs() - c0;
      const jobId = 'printJobId' in result ? result.printJobId : null;
      const cpuToFirstByte = (jobId !== null ? r.cpuAtSending.get(jobId)! : Number.NaN) - c0;
      operations = r.api.operations;
      if (i === 0) firstScanMs = at - t0;
      if (measured) {
        ours.whole.push(at - t0);
        ours.overhead.push(at - t0 - apiMs);
        ours.cpu.push(cpu);
        ours.cpuFirst.push(cpuToFirstByte);
        // This scan's label is the last one handed to the driver.
        const sentAt = r.writtenAt.at(-1);
        if (sentAt !== undefined && sentAt >= t0) ours.toPrinter.push(at - sentAt);
        const seen = r.tapSeen[labelsSeen - 1]!;
        ours.tapWake.push(seen - at);
        ours.overheadSeen.push(seen - t0 - apiMs);
        if (spans.length === 2) {
          segments[0].push(spans[0]![0] - t0);
          segments[1].push(spans[1]![0] - spans[0]![1]);
          segments[2].push(at - spans[1]![1]);
        }
      }

      // The peer: the same order, the same sandbox and printer.
      const p0 = cpuMs();
      const s0 = monotonicMs();
      await peer.ship(benchOrder(`P-${i}`, i));
      const peerAt = await r.firstByte(labelsSeen++);
      const peerCpu = cpuMs() - p0;
      if (measured) {
        theirs.cpuFirst.push(peer.cpuAtWrite / 1000 - p0);
        theirs.whole.push(peerAt - s0);
        theirs.overhead.push(peerAt - s0 - peer.apiMs);
        theirs.cpu.push(peerCpu);
        theirs.toPrinter.push(peerAt - peer.writtenAt);
        const seen = r.tapSeen[labelsSeen - 1]!;
        theirs.tapWake.push(seen - peerAt);
        theirs.overheadSeen.push(seen - s0 - peer.apiMs);
      }
    }
    const tag = `latency_${latencyMs}ms`;
    const extra = {
      scans,
      warmUp,
      latencyMs,
      firstScanMs: round(firstScanMs, 1),
      apiCallsPerScan: operations,
    };
    const [toRates, toLabel, toByte] = segments.map(summarize) as [
      ReturnType<typeof summarize>,
      ReturnType<typeof summarize>,
      ReturnType<typeof summarize>,
    ];
    report({
      name: `scan_to_print.latency_${latencyMs}ms.overhead_segments_p50`,
      value: round(toRates.p50 + toLabel.p50 + toByte.p50),
      unit: 'ms',
      scanToRatesRequest: toRates,
      ratesToLabelRequest: toLabel,
      labelToFirstByte: toByte,
      what: "the overhead between the platform's answers: the scan to the rates request, the rates' answer to the label request (the rating and the purchase intent, one commit), the label's answer to its first byte at the printer (the label and its print job, one commit); p50/p95 of each",
    });
    const w = summarize(ours.whole);
    const o = summarize(ours.overhead);
    const c = summarize(ours.cpu);
    const pw = summarize(theirs.whole);
    const po = summarize(theirs.overhead);
    const pc = summarize(theirs.cpu);
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
      target: { op: '<=', value: 3 },
    });
    report({
      name: `scan_to_print.${tag}.station_cpu_per_label_p50`,
      value: c.p50,
      unit: 'ms',
      p95: c.p95,
      what: 'CPU (user+system) of the station process from the scan until the spool confirmed the label printed',
    });
    const cf = summarize(ours.cpuFirst);
    const pcf = summarize(theirs.cpuFirst);
    report({
      name: `scan_to_print.${tag}.station_cpu_to_first_byte_p50`,
      value: cf.p50,
      unit: 'ms',
      what: 'CPU of the station process from the scan until the label job is sending (its first byte leaves next): the overhead without the waits of a loaded machine',
    });
    report({
      name: `scan_to_print.${tag}.station_cpu_to_first_byte_p95`,
      value: cf.p95,
      unit: 'ms',
    });
    report({ name: `peer.${tag}.cpu_to_first_byte_p50`, value: pcf.p50, unit: 'ms' });
    report({ name: `peer.${tag}.cpu_to_first_byte_p95`, value: pcf.p95, unit: 'ms' });
    report({
      name: `scan_to_print.${tag}.cpu_to_first_byte_ratio_to_peer_p50`,
      value: round(cf.p50 / pcf.p50, 2),
      unit: 'x',
    });
    const tp = summarize(ours.toPrinter);
    const ptp = summarize(theirs.toPrinter);
    report({
      name: `scan_to_print.${tag}.socket_to_printer_p50`,
      value: tp.p50,
      unit: 'ms',
      p95: tp.p95,
      peerP50: ptp.p50,
      peerP95: ptp.p95,
      // Labels (ours and the peer's) whose arrival had no kernel timestamp: 0 on Linux.
      withoutArrivalStamp: r.unstamped.count,
      what: "from the label handed to the socket to its first byte at the printer's end of the connection (the kernel's receive timestamp): the loopback",
    });
    const wake = summarize(ours.tapWake);
    const pwake = summarize(theirs.tapWake);
    const seen = summarize(ours.overheadSeen);
    const pseen = summarize(theirs.overheadSeen);
    report({
      name: `scan_to_print.${tag}.tap_wake_p50`,
      value: wake.p50,
      unit: 'ms',
      p95: wake.p95,
      peerP50: pwake.p50,
      peerP95: pwake.p95,
      what: "from the first byte's arrival to the tap's process reading it: the instrument waking, outside the overhead",
    });
    report({
      name: `scan_to_print.${tag}.station_overhead_tap_seen_p95`,
      value: seen.p95,
      unit: 'ms',
      p50: seen.p50,
      peerP50: pseen.p50,
      peerP95: pseen.p95,
      what: "the overhead measured to the tap's process reading the first byte (the instrument's wake-up included), as before 2026-11-25",
    });
    report({ name: `peer.${tag}.whole_p50`, value: pw.p50, unit: 'ms', scans, latencyMs });
    report({ name: `peer.${tag}.whole_p95`, value: pw.p95, unit: 'ms', scans, latencyMs });
    report({ name: `peer.${tag}.overhead_p50`, value: po.p50, unit: 'ms', scans, latencyMs });
    report({ name: `peer.${tag}.overhead_p95`, value: po.p95, unit: 'ms', scans, latencyMs });
    report({
      name: `peer.${tag}.cpu_per_label_p50`,
      value: pc.p50,
      unit: 'ms',
      p95: pc.p95,
      what: 'CPU of the process from the scan until the label was written and its socket closed',
    });
    report({
      name: `scan_to_print.${tag}.overhead_ratio_to_peer_p50`,
      value: round(o.p50 / po.p50, 2),
      unit: 'x',
      ours: o.p50,
      peer: po.p50,
    });
    report({
      name: `scan_to_print.${tag}.overhead_ratio_to_peer_p95`,
      value: round(o.p95 / po.p95, 2),
      unit: 'x',
      ours: o.p95,
      peer: po.p95,
    });
    report({
      name: `scan_to_print.${tag}.cpu_ratio_to_peer_p50`,
      value: round(c.p50 / pc.p50, 2),
      unit: 'x',
      ours: c.p50,
      peer: pc.p50,
    });
  } finally {
    peer.close();
    await r.close();
  }
}

/** Scans that waited for a token, over a run with a token lifetime far shorter than the run. */
export async function tokenWaitsBench(
  dir: string,
  scans: number,
  latencyMs: number,
  tokenTtlSeconds: number,
): Promise<void> {
  const r = await rig(dir, `tokens-${tokenTtlSeconds}`, latencyMs, tokenTtlSeconds);
  try {
    for (let i = 0; i < scans; i++)
      r.workflow.orders.upsert(r.workflow.scope, 'tnt_lumen', benchOrder(`B-${i}`, i), 'bench');
    let scansThatWaited = 0;
    for (let i = 0; i < scans; i++) {
      r.resetApi();
      const lookup = r.workflow.lookup(`B-${i}`);
      if (lookup.kind !== 'order') throw new Error(`scan B-${i}: ${lookup.kind}`);
      const result = await r.workflow.ship(lookup.order.id, { stationUser: 'bench' });
      if (!('label' in result) || !result.label) throw new Error(`scan B-${i}: no label`);
      await r.firstByte(i);
      if (r.api.waited) scansThatWaited++;
    }
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
  } finally {
    await r.close();
  }
}

/**
 * The Pack view's two steps: scan → rates on screen (`lookup` + `rate` with the packages as
 * the view fills them in), then confirm → the first ZPL byte (`buy`). Once for orders rated
 * in the background after import (PreRater), once for orders that were not.
 */
export async function packBench(dir: string, scans: number, latencyMs: number): Promise<void> {
  const r = await rig(dir, `pack-${latencyMs}`, latencyMs);
  const rater = new PreRater({ workflow: r.workflow, requestsPerSecond: 100, concurrency: 4 });
  try {
    const { workflow } = r;
    // Warm: the token and connections (the first scan of a shift is reported by scan_to_print).
    workflow.orders.upsert(workflow.scope, 'tnt_lumen', benchOrder('W-0', 0), 'bench');
    const warmUp = await workflow.ship(orderIdOf(r, 'W-0'), {});
    if (warmUp.outcome !== 'printed') throw new Error(`warm-up: ${warmUp.outcome}`);
    await r.firstByte(0);
    let seen = 1;

    const run = async (prefix: string) => {
      const toRates: number[] = [];
      const toRatesApi: number[] = [];
      const confirm: number[] = [];
      const confirmMinusLabel: number[] = [];
      const confirmCalls = new Set<string>();
      let ratesCalls = 0;
      for (let i = 0; i < scans; i++) {
        r.resetApi();
        const t0 = performance.now();
        const lookup = workflow.lookup(`${prefix}-${i}`);
        if (lookup.kind !== 'order') throw new Error(`scan ${prefix}-${i}: ${lookup.kind}`);
        const quote = await workflow.rate(lookup.order.id, {
          packages: prePackedPackages(lookup.order, [])!,
          stationUser: 'bench',
        });
        if (quote.outcome !== 'rated') throw new Error(`${prefix}-${i}: ${quote.outcome}`);
        toRates.push(performance.now() - t0);
        toRatesApi.push(r.api.ms);
        ratesCalls += r.api.operations.length;

        r.resetApi();
        const c0 = monotonicMs();
        const bought = await workflow.buy(quote.shipment.id, { stationUser: 'bench' });
        if (bought.outcome !== 'printed') throw new Error(`${prefix}-${i}: ${bought.outcome}`);
        const labelMs = r.api.ms;
        r.api.operations.forEach((op) => confirmCalls.add(op));
        const at = await r.firstByte(seen++);
        confirm.push(at - c0);
        confirmMinusLabel.push(at - c0 - labelMs);
        await r.printed(bought.label.platformLabelId);
      }
      return { toRates, toRatesApi, confirm, confirmMinusLabel, confirmCalls, ratesCalls };
    };

    for (let i = 0; i < scans; i++)
      workflow.orders.upsert(workflow.scope, 'tnt_lumen', benchOrder(`N-${i}`, i), 'bench');
    const cold = await run('N');

    for (let i = 0; i < scans; i++)
      workflow.orders.upsert(workflow.scope, 'tnt_lumen', benchOrder(`R-${i}`, i), 'bench');
    const p0 = performance.now();
    rater.start();
    await rater.settled();
    const preRatingMs = performance.now() - p0;
    const warm = await run('R');

    const tag = `latency_${latencyMs}ms`;
    const s = (xs: number[]) => summarize(xs);
    report({
      name: `pack.${tag}.scan_to_rates_p95`,
      value: s(cold.toRates).p95,
      unit: 'ms',
      p50: s(cold.toRates).p50,
      apiMsP50: s(cold.toRatesApi).p50,
      scans,
    });
    report({
      name: `pack.${tag}.scan_to_rates_prerated_p95`,
      value: s(warm.toRates).p95,
      unit: 'ms',
      p50: s(warm.toRates).p50,
      platformCalls: warm.ratesCalls,
      scans,
      preRated: rater.stats.rated,
      preRatingMs: round(preRatingMs, 0),
    });
    for (const [which, x] of [
      ['', cold],
      ['_prerated', warm],
    ] as const) {
      report({
        name: `pack.${tag}.confirm_to_first_byte${which}_p95`,
        value: s(x.confirm).p95,
        unit: 'ms',
        p50: s(x.confirm).p50,
        callsOnConfirm: [...x.confirmCalls],
      });
      report({
        name: `pack.${tag}.confirm_to_first_byte_minus_label${which}_p95`,
        value: s(x.confirmMinusLabel).p95,
        unit: 'ms',
        p50: s(x.confirmMinusLabel).p50,
        target: { op: '<=', value: 3 },
      });
    }
  } finally {
    await rater.stop();
    await r.close();
  }
}

function orderIdOf(r: Rig, orderNumber: string): number {
  const found = r.workflow.lookup(orderNumber);
  if (found.kind !== 'order') throw new Error(`${orderNumber}: ${found.kind}`);
  return found.order.id;
}
