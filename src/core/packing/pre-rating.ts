import { performance } from 'node:perf_hooks';
import type { StoredOrder } from '../orders/types.js';
import type { Clock } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import type { PackingWorkflow } from './packing-workflow.js';
import { RATES_FRESH_MS } from './rate-choice.js';
import type { PackedPackage, PreRateOutcome } from './types.js';

/** A box preset's code and inside dimensions (the station's settings keep the full preset). */
export interface BoxDimensions {
  code: string;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

/**
 * The packages exactly as the Pack view fills them in from the order file and sends them to
 * `pack.rate`: each package's own weight, and the box preset whose code the order names (its
 * dimensions), or none. Null when the order cannot be rated before the packer sees it: a
 * package without a weight, or without dimensions (neither a known box preset nor all three
 * sides in the file).
 */
export function prePackedPackages(
  order: StoredOrder,
  boxes: readonly BoxDimensions[],
): PackedPackage[] | null {
  const packed: PackedPackage[] = [];
  for (const pkg of order.packages) {
    if (pkg.weightLbs === undefined) return null;
    const one = packedPackage(pkg, pkg.weightLbs, boxes);
    if (
      one.box === undefined &&
      (pkg.lengthIn === undefined || pkg.widthIn === undefined || pkg.heightIn === undefined)
    )
      return null;
    packed.push(one);
  }
  return packed;
}

/** One package as Pack sends it: its weight, and its box preset's code and sides if it names one. */
function packedPackage(
  pkg: StoredOrder['packages'][number],
  weightLbs: number,
  boxes: readonly BoxDimensions[],
): PackedPackage {
  const preset = pkg.box ? boxes.find((b) => b.code === pkg.box) : undefined;
  return {
    weightLbs,
    ...(preset
      ? {
          box: preset.code,
          lengthIn: preset.lengthIn,
          widthIn: preset.widthIn,
          heightIn: preset.heightIn,
        }
      : {}),
  };
}

/**
 * The packages as Pack fills them in for a purchase without a packer (a batch): each package's
 * weight, and its box preset's sides where its box code names one (a package with neither keeps
 * the order file's own sides, if any). Undefined when a package has no weight: the order's own
 * packages then, whose rating names the package to weigh.
 */
export function packedAsAtPack(
  order: StoredOrder,
  boxes: readonly BoxDimensions[],
): PackedPackage[] | undefined {
  if (order.packages.some((pkg) => pkg.weightLbs === undefined)) return undefined;
  return order.packages.map((pkg) => packedPackage(pkg, pkg.weightLbs!, boxes));
}

/** Offline: a background rating tries the platform again this long after its last failure. */
const PROBE_AFTER_MS = 30_000;

export interface PreRaterOptions {
  workflow: PackingWorkflow;
  /** The station's box presets (Settings → Boxes). */
  boxes?: () => readonly BoxDimensions[];
  /** Background rate requests in flight at once. Default 2. */
  concurrency?: number;
  /**
   * Background rate requests started per second at most. Default 2. The platform documents no
   * rate limit ("not shown"); this keeps the station's background share small beside its
   * packers' own calls and other stations of the same account.
   */
  requestsPerSecond?: number;
  /**
   * Rates older than this are asked again, so a scan finds them fresh (RATES_FRESH_MS, 10 min,
   * is how long stored rates are bought without asking again). Default 8 minutes.
   */
  refreshAfterMs?: number;
  /** Newest open orders kept rated. Default 1,000. */
  maxOrders?: number;
  /** Only orders imported (or changed) within this time. Default 3 days. */
  maxOrderAgeMs?: number;
  /** An order whose rating failed (refused, no rate fits the rule) is tried again after. Default 30 min. */
  retryFailedAfterMs?: number;
  /** After a 429 or other sign the platform wants less: no request for this long. Default 60 s. */
  backOffMs?: number;
  /** While nothing is due, the list of orders is read again this often (and on wake()). Default 30 s. */
  replanEveryMs?: number;
  clock?: Clock;
}

interface Due {
  orderId: number;
  updatedAt: string;
  /** When its rates want asking (again): ms since epoch. */
  due: number;
}

interface CandidateRow {
  orderId: number;
  updatedAt: string;
  ratedAt: string | null;
}

export interface PreRaterStats {
  started: number;
  rated: number;
  failed: number;
  skipped: number;
  unreachable: number;
}

/**
 * The most recently changed orders the look-up reads, whatever the station's history: a shift
 * never packs more, and a station whose recent orders are all labelled (a busy day, a benchmark
 * of 1,000,000) still answers in milliseconds.
 */
const RECENT_ORDERS_LOOKED_AT = 5000;

/**
 * Open orders: every package weighed, no label (here, or at another station of the site as this
 * station keeps their labels), no shipment other than rated or cancelled ones (no purchase, queue
 * entry or packer's rating under way), newest first, with when their newest
 * rated shipment was rated. Only the orders changed since the given time are read, the newest
 * RECENT_ORDERS_LOOKED_AT of them, through `orders_by_update` (migration 10): the station's
 * whole history is never walked.
 */
export const PRE_RATE_CANDIDATES_SQL = `SELECT o.id AS orderId, o.updated_at AS updatedAt,
         (SELECT e.at FROM shipments s JOIN shipment_events e ON e.shipment_id = s.id AND e.kind = 'rated'
           WHERE s.order_id = o.id AND s.state = 'rated' ORDER BY s.id DESC, e.id DESC LIMIT 1) AS ratedAt
       FROM (SELECT id, updated_at, cancelled, profile_id, environment, tenant_id, order_number
               FROM orders
              WHERE profile_id = ? AND environment = ? AND updated_at >= ?
              ORDER BY updated_at DESC LIMIT ${RECENT_ORDERS_LOOKED_AT}) AS o
       WHERE o.cancelled IS NULL
         AND NOT EXISTS (SELECT 1 FROM order_packages p WHERE p.order_id = o.id AND p.weight_lbs IS NULL)
         AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.order_id = o.id)
         AND NOT EXISTS (SELECT 1 FROM site_labelled_elsewhere x
               WHERE x.profile_id = o.profile_id AND x.environment = o.environment
                 AND x.tenant_id = o.tenant_id AND x.order_number = o.order_number)
         AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.order_id = o.id AND s.state NOT IN ('rated', 'cancelled'))
       ORDER BY o.id DESC LIMIT ?`;

/**
 * Pre-rating: orders whose weight and box are known at import are rated in the background, so
 * a packer's scan shows rates without waiting for the platform (PackingWorkflow.rate finds them,
 * reuseRates). Their rates are asked again before they go stale (refreshAfterMs).
 *
 * Bounded: at most `concurrency` requests at once and `requestsPerSecond`; nothing starts while
 * a packer's call is under way (the packer's request never queues behind ours) and a packer's
 * call on an order being pre-rated waits for that answer rather than asking twice; nothing
 * while the platform is unreachable (wake() when it is back); a 429 or 503 backs off (for as
 * long as its Retry-After says, when it says; a minute otherwise). Failures are
 * not recorded on the order: the packer's own scan rates it and says why.
 */
export class PreRater {
  readonly stats: PreRaterStats = { started: 0, rated: 0, failed: 0, skipped: 0, unreachable: 0 };
  private readonly o: Required<Omit<PreRaterOptions, 'workflow' | 'boxes' | 'clock'>>;
  private readonly clock: Clock;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private plan: Due[] = [];
  private plannedAt = Number.NEGATIVE_INFINITY;
  private stale = true;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly ratingOrders = new Set<number>();
  private lastStart = Number.NEGATIVE_INFINITY;
  private pausedUntil = 0;
  /** After an unreachable answer: nothing until then, or until wake(). */
  private offlineUntil = 0;
  private readonly failedOrders = new Map<number, { updatedAt: string; until: number }>();
  private readonly candidates;

  constructor(private readonly options: PreRaterOptions) {
    this.clock = options.clock ?? systemClock;
    this.o = {
      concurrency: options.concurrency ?? 2,
      requestsPerSecond: options.requestsPerSecond ?? 2,
      refreshAfterMs: options.refreshAfterMs ?? RATES_FRESH_MS - 2 * 60_000,
      maxOrders: options.maxOrders ?? 1000,
      maxOrderAgeMs: options.maxOrderAgeMs ?? 3 * 24 * 3600_000,
      retryFailedAfterMs: options.retryFailedAfterMs ?? 30 * 60_000,
      backOffMs: options.backOffMs ?? 60_000,
      replanEveryMs: options.replanEveryMs ?? 30_000,
    };
    this.candidates = options.workflow.shipments.db.prepare<
      [string, string, string, number],
      CandidateRow
    >(PRE_RATE_CANDIDATES_SQL);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stale = true;
    this.loop = this.run();
  }

  /** Stops starting requests; resolves when those in flight have answered. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Orders were imported, or the platform is reachable again: look for work now. */
  wake(): void {
    this.stale = true;
    this.offlineUntil = 0;
    this.wakeUp?.();
  }

  /**
   * The platform is away (the client's connectivity says so, or our last request found it).
   * Once the client's last failure is half a minute old, one background rating tries again:
   * the station comes back online by itself when nobody scans and nothing is queued.
   */
  private offline(now: number): boolean {
    const platform = this.options.workflow.dependencies.platform;
    return (
      now < this.offlineUntil ||
      (platform.isReachable?.() === false && platform.mayTryAgain?.(PROBE_AFTER_MS) !== true)
    );
  }

  /** Resolves once nothing is due, nothing is in flight (tests, the benchmark). */
  async settled(): Promise<void> {
    while (this.running) {
      this.replanIfStale(true);
      const now = this.clock().getTime();
      const due = this.plan.some((d) => d.due <= now);
      if (!due && this.inFlight.size === 0) return;
      if ((this.offline(now) || now < this.pausedUntil) && this.inFlight.size === 0) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const wait = this.step();
      if (wait === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, wait);
        timer.unref?.();
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wakeUp = () => {
          this.wakeUp = null;
          done();
        };
      });
    }
  }

  /** Starts what may start now; returns how long to wait before looking again (0: at once). */
  private step(): number {
    const now = this.clock().getTime();
    // Offline: the drainer and the tracker poller find out when it is back; wake() then.
    if (this.offline(now)) return this.o.replanEveryMs;
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.inFlight.size >= this.o.concurrency) return this.o.replanEveryMs; // woken by an answer
    // A packer's call under way: it goes first; look again shortly.
    if (this.options.workflow.packerBusy) return 25;
    // Pacing runs on the machine's own clock; the station clock only says when rates are due.
    const gap = 1000 / this.o.requestsPerSecond - (performance.now() - this.lastStart);
    if (gap > 0) return Math.ceil(gap);
    this.replanIfStale(false);
    const next = this.plan[0];
    if (!next) return this.o.replanEveryMs;
    if (next.due > now) return Math.min(next.due - now, this.o.replanEveryMs);
    this.plan.shift();
    this.begin(next);
    return 0;
  }

  private replanIfStale(force: boolean): void {
    const now = this.clock().getTime();
    if (!force && !this.stale && now - this.plannedAt < this.o.replanEveryMs) return;
    const { workflow } = this.options;
    const since = new Date(now - this.o.maxOrderAgeMs).toISOString();
    const rows = this.candidates.all(
      workflow.scope.profileId,
      workflow.scope.environment,
      since,
      this.o.maxOrders,
    );
    const plan: Due[] = [];
    for (const row of rows) {
      if (this.ratingOrders.has(row.orderId)) continue;
      const failed = this.failedOrders.get(row.orderId);
      if (failed && failed.updatedAt === row.updatedAt && failed.until > now) continue;
      const due = row.ratedAt ? Date.parse(row.ratedAt) + this.o.refreshAfterMs : now;
      plan.push({ orderId: row.orderId, updatedAt: row.updatedAt, due });
    }
    // Never rated first, oldest order first (the order a pick list goes in); then by due time.
    plan.sort((a, b) => a.due - b.due || a.orderId - b.orderId);
    this.plan = plan;
    this.plannedAt = now;
    this.stale = false;
  }

  private begin(next: Due): void {
    const { workflow } = this.options;
    if (this.ratingOrders.has(next.orderId)) return;
    const order = workflow.orders.get(next.orderId);
    const packages = order ? prePackedPackages(order, this.options.boxes?.() ?? []) : null;
    if (!order || !packages) {
      this.stats.skipped++;
      return;
    }
    this.lastStart = performance.now();
    this.stats.started++;
    const work = workflow
      .preRate(order.id, packages)
      .then((outcome) => this.record(next, outcome))
      .catch(() => {
        this.stats.failed++;
      })
      .finally(() => {
        this.inFlight.delete(work);
        this.ratingOrders.delete(order.id);
        this.wakeUp?.();
      });
    this.inFlight.add(work);
    this.ratingOrders.add(order.id);
  }

  private record(next: Due, outcome: PreRateOutcome): void {
    const now = this.clock().getTime();
    switch (outcome.kind) {
      case 'rated':
        this.stats.rated++;
        // Asked again before its rates go stale.
        this.insert({ ...next, due: now + this.o.refreshAfterMs });
        return;
      case 'skipped':
        this.stats.skipped++;
        return;
      case 'failed': {
        this.stats.failed++;
        this.failedOrders.set(next.orderId, {
          updatedAt: next.updatedAt,
          until: now + this.o.retryFailedAfterMs,
        });
        return;
      }
      case 'unreachable': {
        this.stats.unreachable++;
        const asked = outcome.failure.retryAfterMs;
        // The platform said how long to wait (Retry-After): that, and no wake() shortens it.
        if (asked !== undefined) this.pausedUntil = Math.max(this.pausedUntil, now + asked);
        else this.offlineUntil = now + this.o.backOffMs;
        this.insert({ ...next, due: now });
        return;
      }
      default: {
        const never: never = outcome;
        throw new Error(`unexpected pre-rating ${JSON.stringify(never)}`);
      }
    }
  }

  private insert(due: Due): void {
    const at = this.plan.findIndex((d) => d.due > due.due);
    if (at < 0) this.plan.push(due);
    else this.plan.splice(at, 0, due);
  }
}
