import { LabelRepository } from '../labels/label-repository.js';
import type { LabelPrintQueue } from '../labels/print-queue.js';
import type { StoredLabel } from '../labels/types.js';
import { OrderRepository } from '../orders/order-repository.js';
import type { StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import { OfflineQueueRepository } from '../queue/offline-queue-repository.js';
import type { Db } from '../storage/database.js';
import { systemClock, type Clock, type StationScope } from '../storage/scope.js';
import { buildShipment } from './build-shipment.js';
import { LabelPurchaser, type PurchaseHooks } from './label-purchase.js';
import type { FailureClassifier, PackingPlatform } from './platform-port.js';
import { sendLabelToPrinter } from './print-step.js';
import { lookupScan } from './scan-lookup.js';
import { rateShipment } from './rating.js';
import { ShipmentRepository } from './shipment-repository.js';
import type { Failure, PackedPackage, ScanLookup, Shipment, ShipResult } from './types.js';

export interface PackingWorkflowOptions {
  db: Db;
  profile: Profile;
  platform: PackingPlatform;
  classify: FailureClassifier;
  printQueue: LabelPrintQueue;
  clock?: Clock;
  hooks?: PurchaseHooks;
}

export interface ShipOptions {
  /** Weights (and boxes) as packed; the order's own values when omitted. */
  packages?: PackedPackage[] | undefined;
  stationUser?: string | undefined;
  /** The packer confirmed buying another label for an order that already has one. */
  confirmAnotherLabel?: boolean | undefined;
}

/**
 * scan → shipment → rates → rule → purchase → print, each step persisted in SQLite so a
 * restart continues where the station was, and a purchase is never repeated by accident.
 */
export class PackingWorkflow {
  readonly scope: StationScope;
  readonly orders: OrderRepository;
  readonly labels: LabelRepository;
  readonly shipments: ShipmentRepository;
  readonly queue: OfflineQueueRepository;
  readonly purchaser: LabelPurchaser;
  private readonly clock: Clock;
  private readonly hooks: PurchaseHooks;
  /** Orders being shipped right now: a double scan must not start a second purchase. */
  private readonly busyOrders = new Set<number>();

  constructor(private readonly options: PackingWorkflowOptions) {
    const { db, profile } = options;
    this.clock = options.clock ?? systemClock;
    this.hooks = options.hooks ?? {};
    this.scope = { profileId: profile.id, environment: profile.environment };
    this.orders = new OrderRepository(db, this.clock);
    this.labels = new LabelRepository(db, this.clock);
    this.shipments = new ShipmentRepository(db, this.clock);
    this.queue = new OfflineQueueRepository(db, this.clock);
    this.purchaser = new LabelPurchaser({
      scope: this.scope,
      shipments: this.shipments,
      labels: this.labels,
      platform: options.platform,
      classify: options.classify,
      clock: this.clock,
      hooks: this.hooks,
    });
  }

  /** The platform and print queue this workflow was built with (for needs-attention). */
  get dependencies(): Pick<PackingWorkflowOptions, 'platform' | 'printQueue' | 'classify'> {
    return this.options;
  }

  get profile(): Profile {
    return this.options.profile;
  }

  /** What a scanned value is: an order, a label (tracking number → reprint), or nothing. */
  lookup(scanned: string): ScanLookup {
    return lookupScan(this, scanned);
  }

  /** Ships one order: everything from the shipment to the print job. */
  async ship(orderId: number, options: ShipOptions = {}): Promise<ShipResult> {
    return this.exclusively(orderId, () => this.shipOrder(orderId, options));
  }

  private async exclusively(orderId: number, work: () => Promise<ShipResult>): Promise<ShipResult> {
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
      return await work();
    } finally {
      this.busyOrders.delete(orderId);
    }
  }

  private async shipOrder(orderId: number, options: ShipOptions): Promise<ShipResult> {
    const order = this.orders.get(orderId);
    if (
      !order ||
      order.profileId !== this.scope.profileId ||
      order.environment !== this.scope.environment
    )
      return {
        outcome: 'invalid',
        failure: { code: 'order-not-found', message: `No order ${orderId} in this profile.` },
      };
    const blocked = this.blockers(order, options.confirmAnotherLabel === true);
    if (blocked) return blocked;
    const waiting = this.shipments.forOrder(order.id).find((s) => s.state === 'queued');
    if (waiting)
      return {
        outcome: 'queued',
        shipment: waiting,
        queueId: this.queue.forShipment(waiting.id)?.id ?? 0,
        failure: {
          code: 'already-queued',
          message: `Order ${order.orderNumber} is already waiting in the offline queue.`,
        },
      };
    const built = buildShipment(this.profile, order, options.packages);
    if ('failure' in built) return { outcome: 'invalid', failure: built.failure };

    // Shipments left before a purchase (a crash, a rescan) bought nothing: start afresh.
    for (const open of this.shipments.forOrder(order.id))
      if (open.state === 'ready' || open.state === 'rated')
        this.shipments.setState(open.id, 'cancelled', { why: 'superseded by a new scan' });

    const stationUser = options.stationUser ?? null;
    const confirmedBy = options.confirmAnotherLabel ? (stationUser ?? 'station') : null;
    if (this.options.platform.isReachable?.() === false) {
      return this.enqueueOffline(
        order,
        built.shipment,
        stationUser,
        'The platform is unreachable.',
      );
    }
    const shipment = this.shipments.create(this.scope, {
      tenantId: order.tenantId,
      orderId: order.id,
      state: 'ready',
      shipment: built.shipment,
      stationUser,
    });
    await this.hooks.at?.('shipment-created', { shipmentId: shipment.id });
    return this.rateBuyAndPrint(shipment, order, confirmedBy);
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

  /** Takes a shipment out of the offline queue without buying anything. */
  cancelQueued(shipmentId: number, stationUser: string): boolean {
    const shipment = this.shipments.get(shipmentId);
    const entry = this.queue.forShipment(shipmentId);
    if (
      !shipment ||
      shipment.state !== 'queued' ||
      shipment.profileId !== this.scope.profileId ||
      shipment.environment !== this.scope.environment
    )
      return false;
    this.shipments.db.transaction(() => {
      this.shipments.setState(shipmentId, 'cancelled', { by: stationUser });
      if (entry) this.queue.finish(entry.id, 'failed', `cancelled by ${stationUser}`);
    })();
    return true;
  }

  private notQueued(shipmentId: number): ShipResult {
    return {
      outcome: 'invalid',
      failure: { code: 'not-queued', message: `Shipment ${shipmentId} is not queued.` },
    };
  }

  private async continueShipment(shipmentId: number): Promise<ShipResult> {
    const shipment = this.shipments.get(shipmentId);
    if (
      !shipment ||
      shipment.state !== 'queued' ||
      shipment.profileId !== this.scope.profileId ||
      shipment.environment !== this.scope.environment
    )
      return this.notQueued(shipmentId);
    const order = this.orders.get(shipment.orderId)!;
    const blocked = this.blockers(order, false);
    if (blocked) {
      this.shipments.setState(shipment.id, 'cancelled', { why: blocked.outcome });
      return blocked;
    }
    return this.rateBuyAndPrint(shipment, order, null);
  }

  private blockers(order: StoredOrder, confirmAnother: boolean): ShipResult | undefined {
    const open = this.shipments
      .purchasesForOrder(order.id)
      .filter((p) => p.state === 'unknown' || p.state === 'purchasing');
    if (open.length > 0) return { outcome: 'needs-attention', purchases: open };
    const labels = this.labels.forOrder(order.id);
    if (labels.length > 0 && !confirmAnother) return { outcome: 'already-labelled', labels };
    return undefined;
  }

  private async rateBuyAndPrint(
    shipment: Shipment,
    order: StoredOrder,
    confirmedBy: string | null,
  ): Promise<ShipResult> {
    const rated = await rateShipment(
      this.options.platform,
      this.options.classify,
      this.profile,
      shipment,
      order,
    );
    switch (rated.kind) {
      case 'unreachable':
        return this.queueAfterUnreachable(shipment, rated.failure);
      case 'failed':
        this.shipments.setFailed(shipment.id, 'failed', rated.failure);
        if (rated.rates) this.shipments.setRates(shipment.id, rated.rates);
        return {
          outcome: 'failed',
          shipment: this.shipments.get(shipment.id)!,
          failure: rated.failure,
          carrierProblems: rated.carrierProblems,
        };
      case 'rated':
        break;
      default: {
        const never: never = rated;
        throw new Error(`unexpected rating ${JSON.stringify(never)}`);
      }
    }
    this.shipments.setRated(shipment.id, rated.rates, rated.selection);
    await this.hooks.at?.('rated', { shipmentId: shipment.id });

    const current = this.shipments.get(shipment.id)!;
    const bought = await this.purchaser.purchase(current, order, rated.selection, confirmedBy);
    switch (bought.kind) {
      case 'rejected':
        return {
          outcome: 'failed',
          shipment: this.shipments.get(shipment.id)!,
          failure: bought.failure,
          carrierProblems: rated.carrierProblems,
        };
      case 'not-sent':
        return this.queueAfterUnreachable(this.shipments.get(shipment.id)!, bought.failure);
      case 'unknown':
        return {
          outcome: 'unknown',
          shipment: this.shipments.get(shipment.id)!,
          purchase: bought.purchase,
          failure: bought.failure,
        };
      case 'purchased': {
        const printed = await this.print(shipment.id, bought.label);
        if ('failure' in printed)
          return {
            outcome: 'purchased-not-printed',
            shipment: this.shipments.get(shipment.id)!,
            label: bought.label,
            failure: printed.failure,
          };
        return {
          outcome: 'printed',
          shipment: this.shipments.get(shipment.id)!,
          label: this.labels.get(bought.label.id)!,
          selection: rated.selection,
          carrierProblems: rated.carrierProblems,
          printJobId: printed.printJobId,
        };
      }
      default: {
        const never: never = bought;
        throw new Error(`unexpected purchase ${JSON.stringify(never)}`);
      }
    }
  }

  /** The platform did not answer and nothing was bought: the shipment waits in the queue. */
  private queueAfterUnreachable(shipment: Shipment, failure: Failure): ShipResult {
    const entry = this.queue.forShipment(shipment.id);
    if (entry) {
      this.shipments.setState(shipment.id, 'queued', { still: failure.message });
      return {
        outcome: 'queued',
        shipment: this.shipments.get(shipment.id)!,
        queueId: entry.id,
        failure,
      };
    }
    const queueId = this.shipments.db.transaction(() => {
      this.shipments.setState(shipment.id, 'queued', failure);
      return this.queue.add(this.scope, shipment.id, shipment.tenantId, failure.message);
    })();
    return { outcome: 'queued', shipment: this.shipments.get(shipment.id)!, queueId, failure };
  }

  private enqueueOffline(
    order: StoredOrder,
    shipment: Shipment['shipment'],
    stationUser: string | null,
    why: string,
  ): ShipResult {
    const failure: Failure = {
      code: 'platform-unreachable',
      message: `${why} The shipment was queued and will be labelled when it answers again.`,
    };
    const queued = this.shipments.db.transaction(() => {
      const created = this.shipments.create(this.scope, {
        tenantId: order.tenantId,
        orderId: order.id,
        state: 'queued',
        shipment,
        stationUser,
      });
      const queueId = this.queue.add(this.scope, created.id, order.tenantId, why);
      return { created, queueId };
    })();
    return { outcome: 'queued', shipment: queued.created, queueId: queued.queueId, failure };
  }

  /** Hands a bought label to the print spool and marks the shipment print-queued. */
  async print(
    shipmentId: number,
    label: StoredLabel,
  ): Promise<{ printJobId: number | null } | { failure: Failure }> {
    return sendLabelToPrinter(
      {
        profile: this.profile,
        platform: this.options.platform,
        printQueue: this.options.printQueue,
        labels: this.labels,
        shipments: this.shipments,
        orders: this.orders,
        hooks: this.hooks,
      },
      shipmentId,
      label,
    );
  }

  /**
   * After a restart: a purchase still `purchasing` was cut off mid-request, so its outcome
   * is unknown; a bought label that never reached the spool is spooled now.
   */
  async recover(): Promise<{ unknown: number; printed: number }> {
    let unknown = 0;
    for (const purchase of this.shipments.purchasesInState(this.scope, 'purchasing')) {
      this.purchaser.markUnknown(
        purchase.shipmentId,
        purchase.id,
        purchase.orderReference,
        'the station stopped while buying it',
      );
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
