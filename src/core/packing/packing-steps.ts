import type { LabelRepository } from '../labels/label-repository.js';
import type { StoredLabel } from '../labels/types.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { ShipmentOptions, StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { OfflineQueueRepository } from '../queue/offline-queue-repository.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { buildShipment } from './build-shipment.js';
import type { LabelPurchaser, PurchaseHooks } from './label-purchase.js';
import { alreadyQueued, enqueueOffline, queueAfterUnreachable } from './offline-steps.js';
import type { FailureClassifier, PackingPlatform } from './platform-port.js';
import { findRate, ratesAreFresh, selectionFor } from './rate-choice.js';
import { carrierProblemsIn, rateShipment } from './rating.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type {
  CarrierAccountProblem,
  ChosenRate,
  Failure,
  PackedPackage,
  RateResult,
  RateSelection,
  Shipment,
  ShipResult,
} from './types.js';

export interface RateOptions {
  /** Weights (and boxes) as packed, one per package; the order's own values when omitted. */
  packages?: PackedPackage[] | undefined;
  stationUser?: string | undefined;
  /** The packer confirmed buying another label for an order that already has one. */
  confirmAnotherLabel?: boolean | undefined;
  /** Options as the packer set them (signature, Saturday, messages, incoterm); the order's when omitted. */
  options?: ShipmentOptions | undefined;
}

export interface BuyOptions {
  /** Another of the stored rates than the rule's choice, picked by the packer. */
  rate?: ChosenRate | undefined;
  stationUser?: string | undefined;
  confirmAnotherLabel?: boolean | undefined;
}

export interface PackingStepsDeps {
  scope: StationScope;
  profile: () => Profile;
  platform: PackingPlatform;
  classify: FailureClassifier;
  orders: OrderRepository;
  labels: LabelRepository;
  shipments: ShipmentRepository;
  queue: OfflineQueueRepository;
  purchaser: LabelPurchaser;
  hooks: PurchaseHooks;
  clock: Clock;
  print(
    shipmentId: number,
    label: StoredLabel,
  ): Promise<{ printJobId: number | null } | { failure: Failure }>;
}

const invalid = (code: string, message: string): Extract<ShipResult, { outcome: 'invalid' }> => ({
  outcome: 'invalid',
  failure: { code, message },
});

/**
 * The steps of the state machine, without the per-order hold (PackingWorkflow takes it):
 * ready ──rates──▶ rated ──purchase──▶ purchasing ──label──▶ purchased ──spool──▶ print-queued.
 */
export class PackingSteps {
  constructor(private readonly d: PackingStepsDeps) {}

  /** An open or unknown purchase, or a label the packer did not confirm buying again. */
  blockers(
    order: StoredOrder,
    confirmAnother: boolean,
  ): Extract<ShipResult, { outcome: 'needs-attention' | 'already-labelled' }> | undefined {
    const open = this.d.shipments
      .purchasesForOrder(order.id)
      .filter((p) => p.state === 'unknown' || p.state === 'purchasing');
    if (open.length > 0) return { outcome: 'needs-attention', purchases: open };
    const labels = this.d.labels.forOrder(order.id);
    if (labels.length > 0 && !confirmAnother) return { outcome: 'already-labelled', labels };
    return undefined;
  }

  async rateOrder(orderId: number, options: RateOptions): Promise<RateResult> {
    const { shipments, scope } = this.d;
    const order = this.d.orders.get(orderId);
    if (!order || order.profileId !== scope.profileId || order.environment !== scope.environment)
      return invalid('order-not-found', `No order ${orderId} in this profile.`);
    const blocked = this.blockers(order, options.confirmAnotherLabel === true);
    if (blocked) return blocked;
    const waiting = shipments.forOrder(order.id).find((s) => s.state === 'queued');
    if (waiting && !options.packages) return alreadyQueued(this.d, order, waiting, null);
    const built = buildShipment(this.d.profile(), order, options.packages, options.options);
    if ('failure' in built) return { outcome: 'invalid', failure: built.failure };
    if (waiting) return alreadyQueued(this.d, order, waiting, built.shipment);

    // Shipments rated before and not bought (a rescan, new weights, a crash) bought nothing.
    for (const open of shipments.forOrder(order.id))
      if (open.state === 'ready' || open.state === 'rated')
        shipments.setState(open.id, 'cancelled', { why: 'superseded by a new rating' });

    const stationUser = options.stationUser ?? null;
    if (this.d.platform.isReachable?.() === false)
      return enqueueOffline(
        this.d,
        order,
        built.shipment,
        stationUser,
        this.d.platform.unreachableReason?.() ?? 'The platform is unreachable.',
      );
    const shipment = shipments.create(scope, {
      tenantId: order.tenantId,
      orderId: order.id,
      state: 'ready',
      shipment: built.shipment,
      stationUser,
    });
    await this.d.hooks.at?.('shipment-created', { shipmentId: shipment.id });
    return this.rateStored(shipment, order);
  }

  /** Asks the platform for the stored shipment's rates (safe to repeat) and keeps them. */
  async rateStored(shipment: Shipment, order: StoredOrder): Promise<RateResult> {
    const { shipments } = this.d;
    const rated = await rateShipment(
      this.d.platform,
      this.d.classify,
      this.d.profile(),
      shipment,
      order,
    );
    switch (rated.kind) {
      case 'unreachable':
        return queueAfterUnreachable(this.d, shipment, rated.failure);
      case 'failed':
        shipments.setFailed(shipment.id, 'failed', rated.failure);
        if (rated.rates) shipments.setRates(shipment.id, rated.rates);
        return {
          outcome: 'failed',
          shipment: shipments.get(shipment.id)!,
          failure: rated.failure,
          carrierProblems: rated.carrierProblems,
        };
      case 'rated':
        shipments.setRated(shipment.id, rated.rates, rated.selection);
        await this.d.hooks.at?.('rated', { shipmentId: shipment.id });
        return {
          outcome: 'rated',
          shipment: shipments.get(shipment.id)!,
          rates: rated.rates,
          selection: rated.selection,
          carrierProblems: rated.carrierProblems,
          ratedAt: shipments.ratedAt(shipment.id)!,
        };
      default: {
        const never: never = rated;
        throw new Error(`unexpected rating ${JSON.stringify(never)}`);
      }
    }
  }

  /** `known`: the carrier problems of a rating just made (with their authorization links). */
  async buyShipment(
    shipmentId: number,
    options: BuyOptions,
    known?: CarrierAccountProblem[],
  ): Promise<ShipResult> {
    const { shipments } = this.d;
    const shipment = shipments.get(shipmentId)!;
    const order = this.d.orders.get(shipment.orderId)!;
    // A return label is bought for an order that has its label: returnLabel checked its own.
    const blocked =
      shipment.returnOfLabelId === undefined
        ? this.blockers(order, options.confirmAnotherLabel === true)
        : undefined;
    if (blocked) return blocked;
    const n = order.orderNumber;
    switch (shipment.state) {
      case 'rated':
      case 'ready':
        break;
      case 'queued':
        return alreadyQueued(this.d, order, shipment, null);
      case 'cancelled':
        return invalid(
          'rates-superseded',
          `These rates of order ${n} were replaced; rate it again.`,
        );
      case 'failed':
        return invalid(
          'not-rated',
          `Order ${n} has no usable rate (${shipment.failure?.message ?? 'rating failed'}); rate it again.`,
        );
      case 'purchasing':
      case 'purchased':
      case 'print-queued':
      case 'unknown':
        return invalid(
          'already-bought',
          `This shipment of order ${n} is already ${shipment.state}; rate the order again to buy another label.`,
        );
      default: {
        const never: never = shipment.state;
        throw new Error(`unexpected shipment state ${String(never)}`);
      }
    }
    // The packer's pick, named by account and service level so it survives a re-rating.
    let wanted: { carrierAccountId: string; serviceLevel: string } | undefined;
    if (options.rate) {
      const stored = shipment.rates ? findRate(shipment.rates, options.rate) : undefined;
      if (!stored)
        return invalid(
          'rate-not-offered',
          `That rate is not among the rates of order ${n}; pick one of the rates listed.`,
        );
      wanted = { carrierAccountId: stored.carrierAccount.id, serviceLevel: stored.serviceLevel };
    }

    let current = shipment;
    let carrierProblems: CarrierAccountProblem[];
    const fresh =
      shipment.state === 'rated' &&
      shipment.rates !== null &&
      shipment.selection !== null &&
      ratesAreFresh(shipments.ratedAt(shipment.id), this.d.clock());
    if (fresh) carrierProblems = known ?? carrierProblemsIn(shipment.rates!);
    else {
      const again = await this.rateStored(shipment, order);
      if (again.outcome !== 'rated') return again;
      current = again.shipment;
      carrierProblems = again.carrierProblems;
    }

    const stationUser = options.stationUser ?? shipment.stationUser;
    const selection = selectionFor(current.rates!, current.selection!, wanted, stationUser);
    if ('failure' in selection) return { outcome: 'invalid', failure: selection.failure };
    if (selection !== current.selection) {
      shipments.setSelection(current.id, selection);
      current = shipments.get(current.id)!;
    }
    const confirmedBy = options.confirmAnotherLabel ? (stationUser ?? 'station') : null;
    return this.purchaseAndPrint(current, order, selection, carrierProblems, confirmedBy);
  }

  /**
   * A return label for a bought label (returnType LABEL): the original shipment with its
   * addresses swapped (from the customer back to the site that shipped it), rated by the rule
   * and bought through the same crash-safe purchase, printed like any label. A second return
   * label for the same label needs `confirmAnotherLabel`.
   */
  async returnLabel(
    labelId: number,
    options: { stationUser?: string | undefined; confirmAnotherLabel?: boolean | undefined },
  ): Promise<ShipResult> {
    const { shipments, labels, scope } = this.d;
    const label = labels.get(labelId);
    if (!label || label.profileId !== scope.profileId || label.environment !== scope.environment)
      return invalid('label-not-found', `No label ${labelId} in this profile.`);
    if (label.returnOfLabelId)
      return invalid(
        'is-a-return-label',
        `Label ${label.trackingNumber} is itself a return label; make the return label from the original shipment's label.`,
      );
    const order = this.d.orders.get(label.orderId)!;
    const mine = shipments.forOrder(order.id).filter((s) => s.returnOfLabelId === label.id);
    const open = mine.flatMap((s) =>
      shipments
        .purchasesForShipment(s.id)
        .filter((p) => p.state === 'unknown' || p.state === 'purchasing'),
    );
    if (open.length > 0) return { outcome: 'needs-attention', purchases: open };
    const earlier = (labels.returnsOf([label.id]).get(label.id) ?? []).map((r) =>
      labels.get(r.id)!,
    );
    if (earlier.length > 0 && options.confirmAnotherLabel !== true)
      return { outcome: 'already-labelled', labels: earlier };
    const purchase = shipments.purchase(label.purchaseId);
    const original = purchase && shipments.get(purchase.shipmentId);
    if (!original)
      return invalid(
        'original-shipment-missing',
        `The shipment of label ${label.trackingNumber} is no longer stored; a return label cannot be made from it.`,
      );
    const { siteId, ...warehouse } = original.shipment.shipFrom;
    const { deliveryOption: _saturday, ...options_ } = original.shipment.options ?? {};
    for (const s of mine)
      if (s.state === 'ready' || s.state === 'rated')
        shipments.setState(s.id, 'cancelled', { why: 'superseded by a new return label' });
    const shipment = shipments.create(scope, {
      tenantId: label.tenantId,
      orderId: order.id,
      state: 'ready',
      stationUser: options.stationUser ?? null,
      returnOfLabelId: label.id,
      shipment: {
        // From the customer, back to the site the parcel left from (its siteId stays: the
        // return belongs to that site's account).
        shipTo: warehouse,
        shipFrom: { ...original.shipment.shipTo, ...(siteId ? { siteId } : {}) },
        packages: original.shipment.packages,
        returnType: 'LABEL',
        ...(Object.keys(options_).length > 0 ? { options: options_ } : {}),
      },
    });
    await this.d.hooks.at?.('shipment-created', { shipmentId: shipment.id });
    const rated = await this.rateStored(shipment, order);
    if (rated.outcome !== 'rated') return rated;
    return this.buyShipment(
      shipment.id,
      { stationUser: options.stationUser, confirmAnotherLabel: options.confirmAnotherLabel },
      rated.carrierProblems,
    );
  }

  /** The crash-safe purchase (LabelPurchaser), then the print spool. */
  private async purchaseAndPrint(
    shipment: Shipment,
    order: StoredOrder,
    selection: RateSelection,
    carrierProblems: CarrierAccountProblem[],
    confirmedBy: string | null,
  ): Promise<ShipResult> {
    const { shipments } = this.d;
    const bought = await this.d.purchaser.purchase(shipment, order, selection, confirmedBy);
    switch (bought.kind) {
      case 'rejected':
        return {
          outcome: 'failed',
          shipment: shipments.get(shipment.id)!,
          failure: bought.failure,
          carrierProblems,
        };
      case 'not-sent':
        return queueAfterUnreachable(this.d, shipments.get(shipment.id)!, bought.failure);
      case 'not-claimed':
        return { outcome: 'invalid', failure: bought.failure };
      case 'unknown':
        return {
          outcome: 'unknown',
          shipment: shipments.get(shipment.id)!,
          purchase: bought.purchase,
          failure: bought.failure,
        };
      case 'purchased': {
        const printed = await this.d.print(shipment.id, bought.label);
        if ('failure' in printed)
          return {
            outcome: 'purchased-not-printed',
            shipment: shipments.get(shipment.id)!,
            label: bought.label,
            failure: printed.failure,
          };
        return {
          outcome: 'printed',
          shipment: shipments.get(shipment.id)!,
          label: this.d.labels.get(bought.label.id)!,
          selection,
          carrierProblems,
          printJobId: printed.printJobId,
        };
      }
      default: {
        const never: never = bought;
        throw new Error(`unexpected purchase ${JSON.stringify(never)}`);
      }
    }
  }
}
