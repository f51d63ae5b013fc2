import { failQueued, orderChangedSince } from './order-changed.js';
import { LabelRepository } from '../labels/label-repository.js';
import type { LabelPrintQueue } from '../labels/print-queue.js';
import type { StoredLabel } from '../labels/types.js';
import { OrderRepository } from '../orders/order-repository.js';
import type { StoredOrder } from '../orders/types.js';
import { labelPrinterOf, type Profile } from '../profiles/profile-schema.js';
import { OfflineQueueRepository } from '../queue/offline-queue-repository.js';
import type { Db } from '../storage/database.js';
import { systemClock, type Clock, type StationScope } from '../storage/scope.js';
import { LabelPurchaser, type PurchaseHooks } from './label-purchase.js';
import { PackingSteps } from './packing-steps.js';
import type { BuyOptions, RateOptions } from './types.js';
import { flushPendingRating, type PendingRating } from './purchase-step.js';
import type { FailureClassifier, PackingPlatform } from './platform-port.js';
import {
  queueBoughtLabel,
  sendLabelToPrinter,
  type PrintQueued,
  type PrintStepDeps,
} from './print-step.js';
import { lookupOrderById, lookupScan } from './scan-lookup.js';
import { ShipmentRepository } from './shipment-repository.js';
import { ItemVerification } from './verification.js';
import type { PackedPackage, PreRateOutcome, RateResult, ScanLookup, ShipResult } from './types.js';
import { cancelQueued, requeueFailed, type RequeueOutcome } from './offline-steps.js';
import type { OrderClaims } from './order-claims.js';

export type { BuyOptions, RateOptions } from './types.js';

export interface PackingWorkflowOptions {
  db: Db;
  profile: Profile;
  platform: PackingPlatform;
  classify: FailureClassifier;
  printQueue: LabelPrintQueue;
  clock?: Clock;
  hooks?: PurchaseHooks;
  /** The site store's order claim (issue 12); absent on a station without one. */
  orderClaims?: OrderClaims;
  /**
   * How the station last saw this carrier account when it is unusable ("EXPIRED", "inactive";
   * null when usable or never read; carrier health): pre-rated quotes that include it are asked
   * again instead of shown, and a rate of it shown earlier is not bought.
   */
  lapsedAccount?: (tenantId: string, carrierAccountId: string) => string | null;
}

/** ship() takes what rate() takes: the rule's choice is bought (in a batch: its batchId). */
export type ShipOptions = RateOptions & { batchId?: string | undefined };

type Busy = Extract<ShipResult, { outcome: 'invalid' }>;

/**
 * scan → shipment → rates → rule (or the packer's pick) → purchase → print, each step persisted
 * in SQLite so a restart continues where the station was, and a purchase is never repeated by
 * accident. rate() and buy() are the two halves a packing screen calls (two platform round
 * trips per label); ship() is both in one go.
 */
export class PackingWorkflow {
  readonly scope: StationScope;
  readonly orders: OrderRepository;
  readonly labels: LabelRepository;
  readonly shipments: ShipmentRepository;
  readonly queue: OfflineQueueRepository;
  readonly purchaser: LabelPurchaser;
  /** Issue 15.1: what the packer scanned into the box, per order. */
  readonly verification: ItemVerification;
  private readonly clock: Clock;
  private readonly hooks: PurchaseHooks;
  /** Orders being shipped right now: a double scan must not start a second purchase. */
  private readonly busyOrders = new Set<number>();
  /** Background ratings (pre-rating) under way, by order id. */
  private readonly backgroundRatings = new Map<number, Promise<PreRateOutcome>>();
  private readonly steps: PackingSteps;
  /** The profile as it is now (the site's rate rule may replace the one it was built with). */
  private current: Profile;

  constructor(private readonly options: PackingWorkflowOptions) {
    const { db, profile } = options;
    this.current = profile;
    this.clock = options.clock ?? systemClock;
    this.hooks = options.hooks ?? {};
    this.scope = { profileId: profile.id, environment: profile.environment };
    this.orders = new OrderRepository(db, this.clock);
    this.labels = new LabelRepository(db, this.clock);
    this.shipments = new ShipmentRepository(db, this.clock);
    this.queue = new OfflineQueueRepository(db, this.clock);
    this.verification = new ItemVerification(db, this.clock);
    this.purchaser = new LabelPurchaser({
      scope: this.scope,
      shipments: this.shipments,
      labels: this.labels,
      platform: options.platform,
      classify: options.classify,
      clock: this.clock,
      hooks: this.hooks,
      ...(options.orderClaims ? { claims: options.orderClaims } : {}),
    });
    this.steps = new PackingSteps({
      scope: this.scope,
      profile: () => this.profile,
      platform: options.platform,
      classify: options.classify,
      orders: this.orders,
      labels: this.labels,
      shipments: this.shipments,
      queue: this.queue,
      purchaser: this.purchaser,
      verification: this.verification,
      hooks: this.hooks,
      clock: this.clock,
      ...(options.lapsedAccount ? { lapsedAccount: options.lapsedAccount } : {}),
      print: (shipmentId, label) => this.print(shipmentId, label),
      queueWithLabel: (shipmentId, label) =>
        queueBoughtLabel(this.printStepDeps(), shipmentId, label),
      prepareLabelPrinter: () => {
        const printerId = labelPrinterOf(this.profile);
        if (printerId) options.printQueue.prepare?.(printerId);
      },
    });
  }

  /** The platform and print queue this workflow was built with (for needs-attention). */
  get dependencies(): Pick<PackingWorkflowOptions, 'platform' | 'printQueue' | 'classify'> {
    return this.options;
  }

  get profile(): Profile {
    return this.current;
  }

  /**
   * The same profile with another rate rule or packing-slip settings (the site's, issue 14):
   * the next rating and the next print read it. Nothing else of the profile may differ (the
   * runtime was built from it); ProfileRuntime.applySettings checks that.
   */
  useProfile(profile: Profile): void {
    this.current = profile;
  }

  /** What a scanned value is: an order, a label (tracking number → reprint), or nothing. */
  lookup(scanned: string): ScanLookup {
    return lookupScan(this, scanned);
  }

  /** One order by its id (opened from Orders), whatever other brand shares its number. */
  lookupOrder(orderId: number): ScanLookup {
    return lookupOrderById(this, orderId);
  }

  /**
   * Ships one order: everything from the shipment to the print job, in one go (the offline
   * queue, the bench and the tests use it). The same two steps as rate() then buy(), under one
   * hold on the order; the rates are seconds old, so buying never asks for them again.
   */
  async ship(orderId: number, options: ShipOptions = {}): Promise<ShipResult> {
    return this.exclusively(orderId, async () => {
      const seen: { order?: StoredOrder } = {};
      // The rating is written in the purchase intent's transaction (one commit between the
      // two platform calls), and on any other way out before this returns.
      const pending: PendingRating = {};
      try {
        const rated = await this.steps.rateOrder(orderId, options, seen, pending);
        if (rated.outcome !== 'rated') return rated;
        return await this.steps.buyShipment(rated.shipment.id, options, rated.carrierProblems, {
          shipment: rated.shipment,
          order: seen.order!,
          ratedAt: rated.ratedAt,
          pending,
        });
      } finally {
        flushPendingRating(pending);
      }
    });
  }

  /**
   * Rates one order and keeps the answer: a shipment in state `rated` with the rates, the
   * rule's choice and its reason. Nothing is bought. Unreachable platform: said (`unreachable`),
   * nothing queued, unless `queueIfUnreachable` (the packer asked to buy): queued, as ship().
   */
  async rate(orderId: number, options: RateOptions = {}): Promise<RateResult> {
    return this.exclusively(orderId, () =>
      options.queueIfUnreachable
        ? this.steps.rateOrder(orderId, options)
        : this.steps.rateOrder(orderId, options, undefined, undefined, 'say'),
    );
  }

  /**
   * Buys a rated shipment: the rule's choice, or the rate the packer picked from the stored
   * ones (recorded with who chose it). Stored rates are bought without asking the platform
   * again while fresh (RATES_FRESH_MS); stale ones are rated again first. The purchase itself
   * is the crash-safe LabelPurchaser path, exactly as ship().
   */
  async buy(shipmentId: number, options: BuyOptions = {}): Promise<ShipResult> {
    const shipment = this.shipments.get(shipmentId);
    if (!shipment || !this.inScope(shipment))
      return {
        outcome: 'invalid',
        failure: {
          code: 'shipment-not-found',
          message: `No shipment ${shipmentId} in this profile.`,
        },
      };
    return this.exclusively(shipment.orderId, () => this.steps.buyShipment(shipmentId, options));
  }

  /**
   * Buys a return label (returnType LABEL) for a bought label: recorded, crash-safe and printed
   * like any purchase, linked to the original (labels.return_of_label_id).
   */
  async returnLabel(
    labelId: number,
    options: { stationUser?: string | undefined; confirmAnotherLabel?: boolean | undefined } = {},
  ): Promise<ShipResult> {
    const label = this.labels.get(labelId);
    if (!label || !this.inScope(label))
      return {
        outcome: 'invalid',
        failure: { code: 'label-not-found', message: `No label ${labelId} in this profile.` },
      };
    return this.exclusively(label.orderId, () => this.steps.returnLabel(labelId, options));
  }

  private inScope(row: { profileId: string; environment: string }): boolean {
    return row.profileId === this.scope.profileId && row.environment === this.scope.environment;
  }

  /**
   * Rates an order in the background (pre-rating, see PreRater): skipped while a packer's call
   * holds the order. A packer's call that comes meanwhile waits for this answer (already on
   * its way) instead of asking again, and then finds the rates (reuseRates).
   */
  preRate(orderId: number, packages: PackedPackage[] | undefined): Promise<PreRateOutcome> {
    if (this.busyOrders.has(orderId))
      return Promise.resolve({ kind: 'skipped', why: 'a packer is on this order' });
    const pending = this.backgroundRatings.get(orderId);
    if (pending) return pending;
    const rating = this.steps.preRate(orderId, packages).finally(() => {
      this.backgroundRatings.delete(orderId);
    });
    this.backgroundRatings.set(orderId, rating);
    return rating;
  }

  /** Whether a packer's call (rate, buy, ship) is under way on any order, or on this one. */
  get packerBusy(): boolean {
    return this.busyOrders.size > 0;
  }
  isBusy(orderId: number): boolean {
    return this.busyOrders.has(orderId);
  }

  private async exclusively<T>(orderId: number, work: () => Promise<T>): Promise<T | Busy> {
    if (this.busyOrders.has(orderId))
      return {
        outcome: 'invalid',
        failure: {
          code: 'order-busy',
          message: 'This order is being shipped right now; wait for its label.',
        },
      };
    this.busyOrders.add(orderId);
    try {
      // A background rating of this order already on its way: its answer is the packer's.
      const background = this.backgroundRatings.get(orderId);
      if (background) await background.catch(() => undefined);
      return await work();
    } finally {
      this.busyOrders.delete(orderId);
    }
  }

  /**
   * Continues a queued shipment (the offline queue's drainer). Returns 'queued' again when
   * the platform is still unreachable.
   */
  async continueQueued(shipmentId: number): Promise<ShipResult> {
    const shipment = this.shipments.get(shipmentId);
    if (!shipment) return this.notQueued(shipmentId);
    return this.exclusively(shipment.orderId, () => this.continueShipment(shipmentId));
  }

  /** Retry now of a failed queue entry (see requeueFailed in offline-steps.ts). */
  requeueFailed(queueId: number, stationUser: string): RequeueOutcome | null {
    const { scope, shipments, queue, labels } = this;
    return requeueFailed({ scope, shipments, queue, labels }, queueId, stationUser);
  }

  /** Takes a shipment out of the offline queue without buying anything (see offline-steps.ts). */
  cancelQueued(shipmentId: number, stationUser: string): boolean {
    const { scope, shipments, queue } = this;
    return cancelQueued({ scope, shipments, queue }, shipmentId, stationUser);
  }

  private notQueued(shipmentId: number): ShipResult {
    return {
      outcome: 'invalid',
      failure: { code: 'not-queued', message: `Shipment ${shipmentId} is not queued.` },
    };
  }

  private async continueShipment(shipmentId: number): Promise<ShipResult> {
    const shipment = this.shipments.get(shipmentId);
    if (!shipment || shipment.state !== 'queued' || !this.inScope(shipment))
      return this.notQueued(shipmentId);
    const order = this.orders.get(shipment.orderId)!;
    // A queued return label is for an order that has its label: that is no reason to stop.
    const blocked =
      shipment.returnOfLabelId === undefined ? this.steps.blockers(order, false) : undefined;
    if (blocked) {
      this.shipments.setState(shipment.id, 'cancelled', { why: blocked.outcome });
      return blocked;
    }
    // Queued as it was; imported again since (a corrected address or weight): not bought as the
    // old version, and said, so the packer rates it as it is now.
    const changed = orderChangedSince(shipment, order);
    if (changed) return failQueued(this.shipments, shipment.id, changed, []);
    // The packer's pick (a rate other than the rule's, Ctrl+Enter on it) is what was queued:
    // the rates are asked again, and that service on that account is bought, never the rule's
    // instead. No longer offered: not bought, and said (the order goes back to the packer).
    const picked = shipment.selection?.chosenBy ? shipment.selection : null;
    const rated = await this.steps.rateStored(shipment, order);
    if (rated.outcome !== 'rated') return rated;
    if (!picked) return this.steps.buyShipment(shipment.id, {}, rated.carrierProblems);
    const bought = await this.steps.buyShipment(
      shipment.id,
      {
        rate: {
          carrierAccountId: picked.rate.carrierAccount.id,
          serviceLevel: picked.rate.serviceLevel,
        },
        stationUser: picked.chosenBy,
      },
      rated.carrierProblems,
    );
    if (bought.outcome === 'invalid' && bought.failure.code === 'rate-not-offered') {
      const failure = {
        code: 'rate-not-offered',
        message: `${picked.rate.serviceLevel} (${picked.rate.carrierAccount.name ?? picked.rate.carrier}), chosen by ${picked.chosenBy} for order ${order.orderNumber}, is no longer offered now that the platform answers; nothing was bought. Scan the order to rate it again.`,
      };
      return failQueued(this.shipments, shipment.id, failure, rated.carrierProblems);
    }
    return bought;
  }

  /** Hands a bought label to the print spool and marks the shipment print-queued. */
  async print(shipmentId: number, label: StoredLabel): Promise<PrintQueued> {
    return sendLabelToPrinter(this.printStepDeps(), shipmentId, label);
  }

  private printStepDeps(): PrintStepDeps {
    return {
      profile: this.profile,
      platform: this.options.platform,
      printQueue: this.options.printQueue,
      labels: this.labels,
      shipments: this.shipments,
      orders: this.orders,
      hooks: this.hooks,
    };
  }

  /**
   * After a restart: a purchase still `purchasing` was cut off mid-request, so its outcome
   * is unknown; a bought label that never reached the spool is spooled now.
   */
  async recover(): Promise<{ unknown: number; printed: number }> {
    let unknown = 0;
    for (const purchase of this.shipments.purchasesInState(this.scope, 'purchasing')) {
      this.purchaser.markUnknown(purchase.shipmentId, purchase.id, purchase.orderReference, {
        cause: 'the station stopped while buying it',
      });
      unknown++;
    }
    let printed = 0;
    for (const shipment of this.shipments.inState(this.scope, 'purchased')) {
      const purchase = this.shipments
        .purchasesForShipment(shipment.id)
        .find((p) => p.state === 'purchased');
      const label = purchase && this.labels.getByPurchase(purchase.id);
      if (label && !('failure' in (await this.print(shipment.id, label)))) printed++;
    }
    return { unknown, printed };
  }
}
