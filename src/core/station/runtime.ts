import type { LabelPrintQueue } from '../labels/print-queue.js';
import type { LabelRepository } from '../labels/label-repository.js';
import { LabelReprints } from '../labels/reprint.js';
import { LabelVoids } from '../labels/voids.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { OfflineQueueRepository } from '../queue/offline-queue-repository.js';
import { applyLabelRetention } from '../labels/retention.js';
import type { OrderHotFolder } from '../orders/hot-folder.js';
import { watchHotFolder } from './runtime-hot-folder.js';
import { ImportAlerts } from '../orders/import-alerts.js';
import { PackingWorkflow } from '../packing/packing-workflow.js';
import { PreRater, type BoxDimensions } from '../packing/pre-rating.js';
import { BatchRunner, type BatchSummary } from '../packing/batch.js';
import { OrderList } from '../orders/order-list.js';
import type { PackingPlatform } from '../packing/platform-port.js';
import { PlatformClient, type TokenStore } from '../platform/index.js';
import { PlatformNames } from './platform-names.js';
import { tenantsOf, type Profile } from '../profiles/profile-schema.js';
import type { PrintSpool } from '../printing/spool/print-spool.js';
import { batchPrintWatch, type PrinterNotice } from '../printing/spool/spool-types.js';
import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';
import {
  CarrierHealth,
  TrackerBoard,
  TrackerPoller,
  TrackerStore,
  type CarrierAccountHealth,
  type TrackerChange,
  type TrackingScope,
} from '../tracking/index.js';
import { classifyPlatformError, packingPlatformFrom } from '../packing/platform-adapter.js';
import { OfflineQueueDrainer } from '../packing/offline-drainer.js';
import { PlatformProbe } from './platform-probe.js';
import { CarrierWatch, type NamedCarrierProblem } from './carrier-watch.js';
import type { OrderClaims } from '../site/link.js';
import type { ChangeKind } from './live-changes.js';

/** The site's one tracker poller (issue 14), as the runtime sees it. */
export interface SiteTrackerService {
  start(): void;
  stop(): Promise<void>;
}

export interface RuntimeDeps {
  db: Db;
  /** Why the profile's hot folder may not be watched (the data directory), or null. */
  hotFolderProblem?: (folder: string) => string | null;
  /** The profile's client secret, only if it was given for this profile's platform. */
  clientSecret: (profile: Profile) => Promise<string>;
  spool: PrintSpool;
  tokenStore?: TokenStore;
  /** The embedded sandbox's URL for an embedded-sandbox profile. */
  embeddedBaseUrl: () => Promise<string>;
  log: (line: string) => void;
  onChange: (what: ChangeKind) => void;
  /** Trackers a poll stored as new or changed, by tracking number. */
  onTrackers: (trackingNumbers: string[]) => void;
  /** A label was stored (bought, or found on the platform), by its purchase id. */
  onLabel: (purchaseId: string) => void;
  /** A hot-folder file was imported: its name and how many orders were new or updated. */
  onOrders: (fileName: string, imported: number) => void;
  /** Needs attention changed here (a hot-folder file with problems). */
  onAttention?: () => void;
  /** The site store's order claim for a scope (issue 12); absent without a site store. */
  orderClaims?: (scope: StationScope) => OrderClaims;
  /** An order a batch or the offline queue is about to buy: the site's newest version first. */
  beforeShip?: (orderId: number) => Promise<unknown>;
  /** The station's box presets, for pre-rating orders whose box code names one. */
  boxes?: () => readonly BoxDimensions[];
  /** The site store's order-file claim (issue 12): a reason not to import, or null. */
  claimOrderFile?: (scope: StationScope, text: string, name: string) => Promise<string | null>;
  /** Gives the claim up again: the file's import brought in no order. */
  releaseOrderFile?: (scope: StationScope, text: string) => Promise<void>;
  /** A batch moved on (issue 15.8). */
  onBatch?: (summary: BatchSummary) => void;
  /**
   * With a site store: one station of the site polls trackers (advisory lock) and the others
   * copy its results (issue 14). Absent: this station polls its own trackers.
   */
  siteTrackers?: (o: {
    scope: TrackingScope;
    poller: TrackerPoller;
    trackers: TrackerStore;
    intervalMs: number;
    onChanges: (changes: TrackerChange[]) => void;
  }) => SiteTrackerService;
}

/**
 * Everything that works for the active profile: its platform client, the packing workflow,
 * reprints, tracker poller, carrier health, hot folder and offline drainer. Built when a profile
 * becomes active, closed when another one does: data of one profile never reaches another.
 */
export class ProfileRuntime {
  readonly scope: StationScope;
  readonly trackingScope: TrackingScope;
  readonly client: PlatformClient;
  readonly platform: PackingPlatform;
  readonly workflow: PackingWorkflow;
  /**
   * The workflow's orders, labels and offline-queue repositories (the same objects): what the
   * facade reads for the pages. The workflow's own shipments and purchases are changed only
   * through the workflow and the packing module (needs attention, dismissals).
   */
  readonly orders: OrderRepository;
  /** Hot-folder files with problems, under Needs attention until dismissed. */
  readonly importAlerts: ImportAlerts;
  readonly labels: LabelRepository;
  readonly queue: OfflineQueueRepository;
  readonly reprints: LabelReprints;
  /** Labels a shift lead marked voided at the carrier (End of day, reprints). */
  readonly voids: LabelVoids;
  readonly trackers: TrackerStore;
  readonly board: TrackerBoard;
  readonly poller: TrackerPoller;
  readonly health: CarrierHealth;
  readonly drainer: OfflineQueueDrainer;
  /** Rates imported orders in the background so a scan shows rates at once (issue 16). */
  readonly preRater: PreRater;
  /** Issue 15: the Orders view's list and batch printing. */
  readonly orderList: OrderList;
  readonly batches: BatchRunner;
  /** The site's tracker leadership, when there is a site store. */
  siteTrackers: SiteTrackerService | null = null;
  /** Between tracker passes (the site's one poller keeps the same interval). */
  static trackerIntervalMs = 15_000;
  hotFolder: OrderHotFolder | null = null;
  /** Carrier accounts are read again this often during a shift (an expiry shows by itself). */
  static carrierRefreshMs = 60_000;
  /**
   * While packing's requests fail, the platform is asked again this often by the station itself
   * (PlatformProbe), so it comes back without a packer's scan.
   */
  static platformProbeMs = 20_000;
  private readonly probe: PlatformProbe;
  /** Label retention runs at start and then this often. */
  static retentionEveryMs = 60 * 60_000;
  private readonly timers: NodeJS.Timeout[] = [];
  /** A printer's status heard: a batch held for it goes on once it has no fault. */
  private readonly printerHeard = (notice: PrinterNotice) => {
    if (notice.message === null) this.batches.resumeHeld();
  };
  private readonly carrierWatch: CarrierWatch;
  /** The shipping site's and tenant's names as the platform has them (read at start). */
  readonly names: PlatformNames;

  private constructor(
    private current: Profile,
    readonly baseUrl: string,
    private readonly deps: RuntimeDeps,
  ) {
    const profile = current;
    this.scope = { profileId: profile.id, environment: profile.environment };
    this.trackingScope = { ...this.scope, tenantId: profile.tenantId };
    this.client = new PlatformClient({
      baseUrl,
      clientId: profile.clientId,
      tenantId: profile.tenantId,
      environment: profile.environment,
      getSecret: () => deps.clientSecret(profile),
      ...(deps.tokenStore ? { tokenStore: deps.tokenStore } : {}),
      timeoutMs: 8000,
      labelTimeoutMs: 15_000,
    });
    this.platform = packingPlatformFrom(this.client);
    // A key refused (or accepted again) at a token request is the header's news: the token
    // manager settles it just after the request's event, hence the next turn.
    this.client.observe((e) => {
      if (e.operation === 'issueToken') setImmediate(() => deps.onChange('status'));
    });
    this.names = new PlatformNames({
      client: this.client,
      tenantId: profile.tenantId,
      shippingSiteId: profile.shippingSiteId,
      db: deps.db,
      scope: this.scope,
      onChange: () => deps.onChange('status'),
    });
    const spool = deps.spool;
    // Every field of the request reaches the job, the reason of a reprint included.
    const printQueue: LabelPrintQueue = {
      enqueue: (job) => spool.enqueue(job).job,
      existingLabelJob: (labelId: string) => spool.labelJob(labelId),
      pendingLabelJob: (labelId: string) => spool.pendingLabelJob(labelId),
      prepare: (printerId: string) => spool.prepare(printerId),
    };
    this.workflow = new PackingWorkflow({
      db: deps.db,
      // History follows new labels: the purchase's own steps say when one is stored and printed.
      hooks: {
        at: (step, { purchaseId }) => {
          if (purchaseId && (step === 'label-stored' || step === 'print-enqueued'))
            deps.onLabel(purchaseId);
        },
      },
      profile,
      platform: this.platform,
      classify: classifyPlatformError,
      printQueue,
      ...(deps.orderClaims ? { orderClaims: deps.orderClaims(this.scope) } : {}),
      // Read when a stored rating is about to be shown or bought (health is built below).
      lapsedAccount: (tenantId, accountId) => this.health.lapsed(tenantId, accountId),
    });
    this.orders = this.workflow.orders;
    this.importAlerts = new ImportAlerts(deps.db);
    this.labels = this.workflow.labels;
    this.queue = this.workflow.queue;
    this.orderList = new OrderList(deps.db);
    this.batches = new BatchRunner(this.workflow, deps.db, {
      ...(deps.boxes ? { boxes: deps.boxes } : {}),
      // No more labels bought into a printer with a fault (it goes on once it prints, below),
      // nor more than a couple ahead of what it has printed.
      ...batchPrintWatch(spool),
      ...(deps.beforeShip ? { beforeShip: deps.beforeShip } : {}),
      onProgress: (summary) => {
        deps.onBatch?.(summary);
        deps.onChange('queue');
        // An order the batch failed without a shipment is under Needs attention (one per batch).
        if (summary.failed) deps.onChange('attention');
      },
    });
    spool.on('printer', this.printerHeard);
    this.voids = new LabelVoids(deps.db);
    this.reprints = new LabelReprints(
      deps.db,
      this.labels,
      printQueue,
      { fetchZpl: (label) => this.platform.labelZpl(label.tenantId, label.platformLabelId) },
      this.voids,
    );
    this.trackers = new TrackerStore(deps.db);
    this.board = new TrackerBoard(deps.db);
    this.poller = new TrackerPoller({
      client: this.client,
      store: this.trackers,
      scope: this.trackingScope,
      intervalMs: ProfileRuntime.trackerIntervalMs,
    });
    this.poller.onChanges((changes) => deps.onTrackers(changes.map((c) => c.trackingNumber)));
    // A failing tracker poll is "tracking delayed" on the header and the board, never an outage.
    this.poller.onError(() => {
      deps.onChange('tracking');
      deps.onChange('status');
    });
    this.health = new CarrierHealth(this.client, deps.db, this.trackingScope);
    this.carrierWatch = new CarrierWatch({
      health: this.health,
      tenants: () => tenantsOf(this.profile),
      log: deps.log,
      changed: () => deps.onChange('carriers'),
    });
    this.drainer = new OfflineQueueDrainer(this.workflow, {
      log: deps.log,
      ...(deps.beforeShip ? { beforeShip: deps.beforeShip } : {}),
      onOutcome: (outcome) => {
        if (outcome.result !== 'queued')
          deps.log(
            `offline queue: ${outcome.entry.id} ${outcome.result}${outcome.message ? `: ${outcome.message}` : ''}`,
          );
        deps.onChange('queue');
        deps.onChange('attention');
      },
    });
    this.preRater = new PreRater({
      workflow: this.workflow,
      ...(deps.boxes ? { boxes: deps.boxes } : {}),
    });
    this.probe = new PlatformProbe({
      client: this.client,
      profile: () => this.current,
      scope: this.scope,
      orders: this.orders,
      everyMs: ProfileRuntime.platformProbeMs,
      log: deps.log,
    });
    // The header follows connectivity, and the queue drains as soon as the platform answers.
    let trackers = this.client.connectivity.capability('trackers').state;
    this.client.connectivity.onChange((snapshot) => {
      deps.onChange('status');
      if (snapshot.capabilities.trackers.state !== trackers) deps.onChange('tracking');
      trackers = snapshot.capabilities.trackers.state;
      if (snapshot.state === 'online') {
        this.drainer.wake();
        this.preRater.wake();
      }
    });
  }

  /** The profile this runtime works for, with the site's settings it follows (issue 14). */
  get profile(): Profile {
    return this.current;
  }

  /**
   * The same profile with new settings that the running services read at each use: the rate
   * rule (each rating, background ones included) and the packing slips (each print). They are
   * taken here without stopping anything: a running batch goes on, the tracker leadership is
   * kept. Returns false, changing nothing, when `next` differs in anything else: the platform
   * connection, the tenants, the printers, the hot folder and its column mappings and the rest
   * are what the services were built from, and need the runtime opened again.
   */
  applySettings(next: Profile): boolean {
    const built = ({ rateRule: _rule, packingSlips: _slips, ...rest }: Profile) =>
      JSON.stringify(rest);
    if (built(next) !== built(this.current)) return false;
    this.current = next;
    this.workflow.useProfile(next);
    return true;
  }

  static async open(profile: Profile, deps: RuntimeDeps): Promise<ProfileRuntime> {
    const baseUrl =
      profile.environment === 'embedded-sandbox' ? await deps.embeddedBaseUrl() : profile.baseUrl!;
    return new ProfileRuntime(profile, baseUrl, deps);
  }

  async start(): Promise<void> {
    await this.workflow
      .recover()
      .catch((e: unknown) => this.deps.log(`recover: ${(e as Error).message}`));
    // A batch that was running when the station stopped waits, paused, for a person.
    const settled = this.batches.recover();
    if (settled > 0) this.deps.log(`batches: ${settled} interrupted label(s) settled`);
    if (this.deps.siteTrackers) {
      this.siteTrackers = this.deps.siteTrackers({
        scope: this.trackingScope,
        poller: this.poller,
        trackers: this.trackers,
        intervalMs: ProfileRuntime.trackerIntervalMs,
        onChanges: (changes) => this.deps.onTrackers(changes.map((c) => c.trackingNumber)),
      });
      this.siteTrackers.start();
    } else this.poller.start();
    this.drainer.start();
    this.preRater.start();
    this.probe.start();
    void this.refreshCarriers().catch(() => {});
    void this.names.read();
    this.timers.push(
      setInterval(() => {
        void this.refreshCarriers().catch(() => {});
        if (!this.names.complete) void this.names.read();
      }, ProfileRuntime.carrierRefreshMs),
    );
    this.applyRetention();
    this.timers.push(setInterval(() => this.applyRetention(), ProfileRuntime.retentionEveryMs));
    for (const t of this.timers) t.unref();
    this.hotFolder = await watchHotFolder(this, this.deps);
  }

  /** Reads every tenant's carrier accounts again (CarrierWatch.refresh). */
  refreshCarriers(): Promise<CarrierAccountHealth[]> {
    return this.carrierWatch.refresh();
  }

  /** Every cached carrier account of the profile's tenants, without a round trip. */
  carriers(): CarrierAccountHealth[] {
    return this.carrierWatch.cached();
  }

  /** See CarrierWatch.notice. */
  noticeCarrierProblems(problems: readonly NamedCarrierProblem[], preRatedFor?: string): void {
    this.carrierWatch.notice(problems, preRatedFor);
  }

  /** Drops the ZPL of labels older than the profile's labelRetentionDays (records stay). */
  applyRetention(now = new Date()): number {
    const days = this.profile.labelRetentionDays;
    if (!days) return 0;
    try {
      const dropped = applyLabelRetention(this.labels, this.scope, days, now);
      if (dropped)
        this.deps.log(
          `label retention: dropped the ZPL of ${dropped} label(s) older than ${days} days`,
        );
      return dropped;
    } catch (e) {
      this.deps.log(`label retention: ${(e as Error).message}`);
      return 0;
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers.splice(0)) clearInterval(t);
    this.deps.spool.off('printer', this.printerHeard);
    // Another profile takes over: a running batch stops after the label in hand.
    await this.batches.pauseRunning();
    await this.siteTrackers?.stop();
    await this.poller.stop();
    await this.preRater.stop();
    await this.probe.stop();
    await this.drainer.stop();
    await this.hotFolder?.stop();
    this.client.close();
  }
}
