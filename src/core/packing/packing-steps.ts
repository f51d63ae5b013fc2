import { orderChangedSince } from './order-changed.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { StoredOrder } from '../orders/types.js';
import type { Profile } from '../profiles/profile-schema.js';
import type { Clock } from '../storage/scope.js';
import { buildShipment } from './build-shipment.js';
import {
  flushPendingRating,
  purchaseAndPrint,
  type PendingRating,
  type PurchaseStepDeps,
} from './purchase-step.js';
import {
  alreadyQueued,
  enqueueOffline,
  notAnswering,
  queueIfLabelsInDoubt,
  queueWhileAway,
} from './offline-steps.js';
import type { FailureClassifier, PackingPlatform } from './platform-port.js';
import {
  findRate,
  lapsedRateRefusal,
  pickDespiteRefusedRule,
  ratesAreFresh,
  sameService,
  selectionFor,
} from './rate-choice.js';
import { carrierProblemsIn, rateShipment } from './rating.js';
import { keepRating, requestOnItsWay } from './keep-rating.js';
import { returnShipment } from './return-label.js';
import { preRateOrder, reuseRates } from './pre-rated.js';
import { invalid, orderBlockers } from './invalid.js';
import { notVerifiedMessage, type ItemVerification } from './verification.js';
import type {
  BuyOptions,
  BuyingRateResult,
  RateOptions,
  CarrierAccountProblem,
  PackedPackage,
  PreRateOutcome,
  RateResult,
  Shipment,
  ShipResult,
} from './types.js';

/** Everything the steps use; the purchase's own part is PurchaseStepDeps (purchase-step.ts). */
export interface PackingStepsDeps extends PurchaseStepDeps {
  profile: () => Profile;
  platform: PackingPlatform;
  classify: FailureClassifier;
  orders: OrderRepository;
  verification: ItemVerification;
  clock: Clock;
  /** See PackingWorkflowOptions.lapsedAccount. */
  lapsedAccount?: (tenantId: string, carrierAccountId: string) => string | null;
}

/**
 * The steps of the state machine, without the per-order hold (PackingWorkflow takes it):
 * ready ──rates──▶ rated ──purchase──▶ purchasing ──label──▶ purchased ──spool──▶ print-queued.
 */
export class PackingSteps {
  constructor(private readonly d: PackingStepsDeps) {}

  /** An open or unknown purchase, or a label the packer did not confirm buying again. */
  blockers(order: StoredOrder, confirmAnother: boolean) {
    return orderBlockers(this.d, order, confirmAnother);
  }

  /**
   * `seen.order`: set to the order as it was read (ship() buys with it, not reading it again).
   * `pending`: a new rating is not written but left there (ship() writes it with the intent).
   */
  rateOrder(
    orderId: number,
    options: RateOptions,
    seen?: { order?: StoredOrder },
    pending?: PendingRating,
  ): Promise<BuyingRateResult>;
  /** `say`: a packer's rating; an unreachable platform is said, nothing is queued. */
  rateOrder(
    orderId: number,
    options: RateOptions,
    seen: { order?: StoredOrder } | undefined,
    pending: PendingRating | undefined,
    unreachable: 'say',
  ): Promise<RateResult>;
  async rateOrder(
    orderId: number,
    options: RateOptions,
    seen: { order?: StoredOrder } = {},
    pending?: PendingRating,
    unreachable: 'queue' | 'say' = 'queue',
  ): Promise<RateResult> {
    const { shipments, scope } = this.d;
    const order = this.d.orders.get(orderId);
    if (!order || order.profileId !== scope.profileId || order.environment !== scope.environment)
      return invalid('order-not-found', `No order ${orderId} in this profile.`);
    seen.order = order;
    const blocked = this.blockers(order, options.confirmAnotherLabel === true);
    if (blocked) return blocked;
    // The order's shipments, read once for the three questions below.
    const existing = shipments.forOrder(order.id);
    const waiting = existing.find((s) => s.state === 'queued');
    if (waiting && !options.packages) return alreadyQueued(this.d, order, waiting, null);
    const built = buildShipment(this.d.profile(), order, options.packages, options.options);
    if ('failure' in built) return { outcome: 'invalid', failure: built.failure };
    if (waiting) return alreadyQueued(this.d, order, waiting, built.shipment);

    // Rates asked for moments ago (in the background after import, or by an earlier scan) for
    // exactly this shipment are still good: shown without asking the platform again.
    const stationUser = options.stationUser ?? null;
    const reused = reuseRates(this.d, order, built.shipment, stationUser, existing);
    if (reused) return reused;

    // Shipments rated before and not bought (a rescan, new weights, a crash) bought nothing.
    for (const open of existing)
      if (open.state === 'ready' || open.state === 'rated')
        shipments.setState(open.id, 'cancelled', { why: 'superseded by a new rating' });

    // Offline: a buy queues at once. A plain rating asks the platform anyway once the last
    // failure is a few seconds old (its answer brings the station back online); sooner, it is
    // told at once rather than wait on a platform that just failed.
    const tryAgain = unreachable === 'say' && this.d.platform.mayTryAgain?.() === true;
    if (this.d.platform.isReachable?.() === false && !tryAgain) {
      const why = this.d.platform.unreachableReason?.() ?? 'The platform is unreachable.';
      if (unreachable === 'say') return notAnswering(why);
      return enqueueOffline(this.d, order, built.shipment, stationUser, why);
    }
    // The rates request goes out first and the shipment is committed while the platform answers
    // (issue 16.1): a rating is a read, so a crash before that commit has bought nothing.
    const asking = rateShipment(
      this.d.platform,
      this.d.classify,
      this.d.profile(),
      { tenantId: order.tenantId, shipment: built.shipment },
      order,
    );
    asking.catch(() => undefined); // awaited below; never left unhandled should the commit throw
    await requestOnItsWay();
    const shipment = shipments.create(scope, {
      tenantId: order.tenantId,
      orderId: order.id,
      state: 'ready',
      shipment: built.shipment,
      stationUser,
    });
    await this.d.hooks.at?.('shipment-created', { shipmentId: shipment.id });
    return keepRating(this.d, await asking, shipment, pending, unreachable);
  }

  /** Rates an order in the background (pre-rated.ts). */
  preRate(orderId: number, packages: PackedPackage[] | undefined): Promise<PreRateOutcome> {
    return preRateOrder(this.d, orderId, packages);
  }

  /**
   * Asks the platform for the stored shipment's rates (safe to repeat) and keeps them; with
   * `pending`, a good rating is kept there to be written with what follows (PendingRating).
   */
  rateStored(
    shipment: Shipment,
    order: StoredOrder,
    pending?: PendingRating,
  ): Promise<BuyingRateResult>;
  /** `say`: the platform away is said and the shipment, which bought nothing, cancelled. */
  rateStored(
    shipment: Shipment,
    order: StoredOrder,
    pending: PendingRating | undefined,
    unreachable: 'say',
  ): Promise<RateResult>;
  async rateStored(
    shipment: Shipment,
    order: StoredOrder,
    pending?: PendingRating,
    unreachable: 'queue' | 'say' = 'queue',
  ): Promise<RateResult> {
    const rated = await rateShipment(
      this.d.platform,
      this.d.classify,
      this.d.profile(),
      shipment,
      order,
    );
    return keepRating(this.d, rated, shipment, pending, unreachable);
  }

  /**
   * `known`: the carrier problems of a rating just made (with their authorization links);
   * `justRated`: that rating itself, made under the same hold on the order (ship()): its
   * shipment, order and time stand as they are, and what blocked the order was checked by it.
   */
  async buyShipment(
    shipmentId: number,
    options: BuyOptions,
    known?: CarrierAccountProblem[],
    justRated?: {
      shipment: Shipment;
      order: StoredOrder;
      ratedAt: string;
      /** That rating, not written yet: written with the purchase intent (or before anything else). */
      pending?: PendingRating;
    },
  ): Promise<ShipResult> {
    const { shipments } = this.d;
    let shipment = justRated?.shipment ?? shipments.get(shipmentId)!;
    const order = justRated?.order ?? this.d.orders.get(shipment.orderId)!;
    // A return label is bought for an order that has its label: returnLabel checked its own.
    const blocked =
      shipment.returnOfLabelId === undefined && !justRated
        ? this.blockers(order, options.confirmAnotherLabel === true)
        : undefined;
    if (blocked) return blocked;
    const n = order.orderNumber;
    // Issue 15.1: every item scanned into the box (or a shift lead's override) before buying.
    if (this.d.profile().requireItemVerification) {
      const verified = this.d.verification.state(order);
      if (!verified.verified) return invalid('not-verified', notVerifiedMessage(order, verified));
    }
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
      case 'failed': {
        // The rule refused every rate shown: the packer's own pick is bought, nothing else.
        const who = options.stationUser ?? shipment.stationUser;
        const picked = pickDespiteRefusedRule(
          shipments,
          shipment,
          options.rate,
          who,
          n,
          this.d.clock(),
        );
        if ('outcome' in picked) return picked;
        shipment = picked;
        break;
      }
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
    // Imported again since these rates were asked (a corrected address or weight): never bought
    // as the old version (a rating made under this same hold is of the order as it is).
    const changed = justRated ? null : orderChangedSince(shipment, order);
    if (changed) {
      shipments.setState(shipment.id, 'cancelled', { why: changed.message });
      return { outcome: 'invalid', failure: changed };
    }
    // The packer's pick, named by account and service level so it survives a re-rating.
    let wanted: { carrierAccountId: string; serviceLevel: string } | undefined;
    let current = shipment;
    if (options.rate) {
      const stored = shipment.rates ? findRate(shipment.rates, options.rate) : undefined;
      if (!stored)
        return invalid(
          'rate-not-offered',
          `That rate is not among the rates of order ${n}; pick one of the rates listed.`,
        );
      wanted = { carrierAccountId: stored.carrierAccount.id, serviceLevel: stored.serviceLevel };
      // Written before anything is asked of the platform (once: `current` carries it on), so
      // a purchase that ends up queued is bought as picked (PackingWorkflow.continueShipment).
      if (shipment.selection && !sameService(shipment.selection.rate, wanted)) {
        const who = options.stationUser ?? shipment.stationUser;
        const pick = selectionFor(shipment.rates!, shipment.selection, wanted, who);
        if (!('failure' in pick)) {
          flushPendingRating(justRated?.pending);
          shipments.setSelection(shipment.id, pick);
          current = { ...shipment, selection: pick };
        }
      }
    }

    let carrierProblems: CarrierAccountProblem[];
    // A rate shown earlier (not rated in this call) on an account the station has since seen
    // lapse: nothing is bought, the packer rates again (see lapsedRateRefusal).
    const buying = wanted?.carrierAccountId ?? current.selection?.rate.carrierAccount.id;
    const earlier = known === undefined && justRated === undefined;
    const lapsed = earlier && buying ? this.d.lapsedAccount?.(shipment.tenantId, buying) : null;
    if (lapsed) return lapsedRateRefusal(current.selection?.rate, buying!, lapsed, n);
    const fresh =
      shipment.state === 'rated' &&
      shipment.rates !== null &&
      shipment.selection !== null &&
      ratesAreFresh(justRated?.ratedAt ?? shipments.ratedAt(shipment.id), this.d.clock());
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
      flushPendingRating(justRated?.pending);
      shipments.setSelection(current.id, selection);
      current = shipments.get(current.id)!;
    }
    // Offline (packing's requests failing; the header says purchases wait in the offline
    // queue), or the last label request unanswered and the route still silent: queued, not sent
    // where a 5xx or a reset would leave the purchase's outcome for a shift lead to look up.
    if (this.d.platform.isReachable?.() === false || this.d.platform.labelsUnanswered?.()) {
      flushPendingRating(justRated?.pending);
      if (this.d.platform.isReachable?.() === false) return queueWhileAway(this.d, current);
      const queued = await queueIfLabelsInDoubt(this.d, current);
      if (queued) return queued;
    }
    const confirmedBy = options.confirmAnotherLabel
      ? (options.confirmedBy ?? stationUser ?? 'station')
      : null;
    return purchaseAndPrint(this.d, current, order, selection, carrierProblems, {
      confirmedBy,
      batchId: options.batchId,
      pending: justRated?.pending,
    });
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
    const prepared = returnShipment(this.d, labelId, options);
    if ('outcome' in prepared) return prepared;
    const { shipment, order } = prepared;
    await this.d.hooks.at?.('shipment-created', { shipmentId: shipment.id });
    const rated = await this.rateStored(shipment, order);
    if (rated.outcome !== 'rated') return rated;
    return this.buyShipment(
      shipment.id,
      { stationUser: options.stationUser, confirmAnotherLabel: options.confirmAnotherLabel },
      rated.carrierProblems,
    );
  }
}
