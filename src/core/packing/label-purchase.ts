import { orderNumberInReference } from '../labels/order-reference.js';
import { randomUUID } from 'node:crypto';
import type { LabelRepository } from '../labels/label-repository.js';
import type { StoredLabel } from '../labels/types.js';
import type { StoredOrder } from '../orders/types.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { toCents } from '../storage/scope.js';
import type {
  FailureClassifier,
  LabelRequest,
  PackingPlatform,
  PurchasedLabel,
} from './platform-port.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { ClaimHolder, OrderClaims } from './order-claims.js';
import type { Failure, LabelPurchase, RateSelection, Shipment } from './types.js';
import { inTransaction } from '../storage/database.js';
import type { PrintQueued } from './print-step.js';

/** Points where a test (or a crash) can stop the purchase; see test/core/packing/fixtures. */
export type PurchaseStep =
  | 'shipment-created'
  | 'rated'
  | 'purchase-committed'
  | 'label-received'
  | 'label-stored'
  | 'print-job-stored'
  | 'print-enqueued';

export interface PurchaseHooks {
  at?(
    step: PurchaseStep,
    context: { shipmentId: number; purchaseId?: string },
  ): void | Promise<void>;
}

export type PurchaseOutcome =
  | {
      kind: 'purchased';
      label: StoredLabel;
      purchase: LabelPurchase;
      /** What `withLabel` gave, in the label's transaction (its print job), if it ran. */
      print?: PrintQueued | undefined;
      /** Bought without the site store's word (it was away): checked when it answers. */
      unclaimed?: true;
    }
  | { kind: 'rejected'; failure: Failure; purchase: LabelPurchase }
  | { kind: 'unknown'; failure: Failure; purchase: LabelPurchase }
  | { kind: 'not-sent'; failure: Failure; purchase: LabelPurchase }
  /** The site store refused the order claim: nothing was written, nothing bought. */
  | { kind: 'not-claimed'; failure: Failure; holder?: ClaimHolder | undefined };

/** Who confirmed a purchase, its batch, and what goes into its two transactions. */
export interface PurchaseAttempt {
  /** Who confirmed buying another label for an order that has one; null: not another. */
  confirmedBy: string | null;
  /** The batch this label is bought in (issue 15.8); sent as shipment.batchId. */
  batchId?: string | undefined;
  /** Runs first in the purchase intent's transaction (ship()'s rating, PendingRating). */
  withIntent?: (() => void) | undefined;
  /**
   * Runs in the transaction that stores the label (queueBoughtLabel: its print job), so the
   * label and its job are one commit between the platform's answer and the first byte.
   */
  withLabel?: ((label: StoredLabel) => PrintQueued | undefined) | undefined;
}

/**
 * orderReference of one purchase attempt: the order number the shift lead knows plus a short
 * attempt id, so the label can be found on the platform even when the station lost track.
 */
export function orderReferenceFor(orderNumber: string, purchaseId: string): string {
  return `${orderNumber}-${purchaseId.slice(3, 11).toUpperCase()}`;
}

export { orderNumberInReference } from '../labels/order-reference.js';

/**
 * The crash-safe purchase of DESIGN.md:
 * 1. a `purchasing` row with the request and a local id is committed before the POST;
 * 2. on a label, the label and `purchased` are written in one transaction;
 * 3. on a 4xx, `failed` with the platform's reasons;
 * 4. on anything else (timeout, reset, 5xx, crash), `unknown`: never bought again by itself.
 */
export class LabelPurchaser {
  constructor(
    private readonly deps: {
      scope: StationScope;
      shipments: ShipmentRepository;
      labels: LabelRepository;
      platform: PackingPlatform;
      classify: FailureClassifier;
      clock: Clock;
      hooks: PurchaseHooks;
      /** The site's order claim (issue 12); absent on a station without a site store. */
      claims?: OrderClaims;
    },
  ) {}

  async purchase(
    shipment: Shipment,
    order: StoredOrder,
    selection: RateSelection,
    attempt: PurchaseAttempt,
  ): Promise<PurchaseOutcome> {
    const { confirmedBy, batchId, withIntent, withLabel } = attempt;
    const { shipments, platform, classify, scope } = this.deps;
    const id = `lp_${randomUUID().replaceAll('-', '')}`;
    const orderReference = orderReferenceFor(order.orderNumber, id);
    const { rate } = selection;
    const request: LabelRequest = {
      service: rate.carrier,
      serviceLevel: rate.serviceLevel,
      carrierAccountId: rate.carrierAccount.id,
      rateQuoteId: rate.rateQuoteId,
      orderReference,
      shipment: {
        ...shipment.shipment,
        orderReference,
        externalOrderId: order.orderNumber,
        ...(batchId ? { batchId } : {}),
      },
      labelOptions: { type: 'ZPL', size: '4x6', inline: true },
      ...(scope.environment === 'production' ? {} : { mode: 'TEST' as const }),
    };

    let unclaimed = false;
    if (this.deps.claims) {
      const claim = await this.deps.claims.claim({
        tenantId: shipment.tenantId,
        orderNumber: order.orderNumber,
        purchaseId: id,
        packer: shipment.stationUser,
        confirmed: confirmedBy !== null,
      });
      if (!claim.granted)
        return {
          kind: 'not-claimed',
          failure: { code: claim.code, message: claim.message },
          holder: claim.holder,
        };
      unclaimed = claim.mode === 'offline';
    }

    inTransaction(shipments.db, () => {
      withIntent?.();
      shipments.createPurchase(scope, {
        id,
        shipmentId: shipment.id,
        tenantId: shipment.tenantId,
        orderReference,
        request,
        confirmedBy,
      });
      shipments.setState(shipment.id, 'purchasing', { purchaseId: id, orderReference });
    });
    await this.deps.hooks.at?.('purchase-committed', { shipmentId: shipment.id, purchaseId: id });

    let bought: PurchasedLabel;
    try {
      bought = await platform.buyLabel(shipment.tenantId, request);
    } catch (error) {
      const failure = classify(error);
      switch (failure.kind) {
        case 'rejected': {
          const reason: Failure = {
            code: failure.errorCode ?? `http-${failure.status}`,
            // The client's sentence already says what was refused ("The platform refused the label: …").
            message: failure.message,
            errors: failure.errors,
            correlationId: failure.correlationId,
          };
          inTransaction(shipments.db, () => {
            shipments.setPurchaseState(id, 'failed', reason);
            shipments.setFailed(shipment.id, 'failed', reason);
          });
          return { kind: 'rejected', failure: reason, purchase: shipments.purchase(id)! };
        }
        case 'not-sent': {
          // Provably never sent: nothing was bought, so the shipment may wait in the queue.
          const reason: Failure = {
            code: 'platform-unreachable',
            message: failure.message,
            ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
          };
          inTransaction(shipments.db, () => {
            shipments.setPurchaseState(id, 'not-bought', reason);
            shipments.resolvePurchase(
              id,
              'not-bought',
              'not sent: platform unreachable',
              'station',
            );
          });
          return { kind: 'not-sent', failure: reason, purchase: shipments.purchase(id)! };
        }
        case 'unreachable':
        case 'outcome-unknown':
          return this.markUnknown(
            shipment.id,
            id,
            orderReference,
            failure.kind === 'outcome-unknown' && failure.explainsOutcome
              ? { explained: failure.message }
              : { cause: failure.message },
            failure.correlationId,
          );
        default: {
          const never: never = failure;
          throw new Error(`unexpected failure ${JSON.stringify(never)}`);
        }
      }
    }
    await this.deps.hooks.at?.('label-received', { shipmentId: shipment.id, purchaseId: id });

    let zpl = bought.labelData ? Buffer.from(bought.labelData, 'base64').toString('utf8') : '';
    if (!zpl) {
      try {
        zpl = await platform.labelZpl(shipment.tenantId, bought.id);
      } catch {
        // Stored without ZPL; the print step fetches it again. The label itself is not lost.
      }
    }
    let print: PrintQueued | undefined;
    // A label answer without a cost costs what the rate bought said, never 0.00.
    const priced = bought.cost
      ? bought
      : { ...bought, cost: { amount: rate.amount, currency: rate.currency } };
    const label = this.store(shipment, order, id, orderReference, priced, zpl, 'purchased', (l) => {
      print = withLabel?.(l);
    });
    await this.deps.hooks.at?.('label-stored', { shipmentId: shipment.id, purchaseId: id });
    return {
      kind: 'purchased',
      label,
      purchase: shipments.purchase(id)!,
      print,
      ...(unclaimed ? { unclaimed: true as const } : {}),
    };
  }

  /**
   * Label + purchase + shipment state in one transaction: either all of it or none. `then`
   * runs last in it (the print job); what it throws is not the label's problem: the label's
   * writes stand and the print is left to the caller (recovery queues a 'purchased' label).
   */
  store(
    shipment: Shipment,
    order: StoredOrder,
    purchaseId: string,
    orderReference: string,
    bought: PurchasedLabel,
    zpl: string,
    event: string,
    then?: (label: StoredLabel) => void,
  ): StoredLabel {
    const { shipments, labels, scope } = this.deps;
    return inTransaction(shipments.db, () => {
      const label = labels.insert(scope, {
        purchaseId,
        platformLabelId: bought.id,
        tenantId: shipment.tenantId,
        orderId: order.id,
        orderNumber: order.orderNumber,
        orderReference,
        trackingNumber: bought.trackingNumber,
        packageTrackingNumbers: bought.packages?.map((p) => p.trackingNumber) ?? [],
        trackerId: bought.trackerId ?? null,
        carrier: bought.carrier,
        serviceLevel: bought.serviceLevel,
        carrierAccountId: bought.carrierAccountId,
        costCents: toCents(bought.cost?.amount ?? 0),
        currency: bought.cost?.currency ?? 'USD',
        zpl,
        labelUrl: bought.labelUrl ?? null,
        createdAt: bought.createdAt,
        returnOfLabelId: shipment.returnOfLabelId ?? null,
      });
      shipments.setPurchaseState(purchaseId, 'purchased');
      shipments.setState(shipment.id, 'purchased', {
        event,
        labelId: bought.id,
        trackingNumber: bought.trackingNumber,
      });
      if (then)
        try {
          then(label);
        } catch {
          // queueBoughtLabel rolls back its own savepoint and does not throw; anything else
          // leaves the label 'purchased' for the caller's print step or recovery.
        }
      return label;
    });
  }

  /**
   * `explained`: a message that already says the label may have been bought and what to do;
   * `cause`: why the outcome is unknown (a restart, a reset), put into the whole sentence.
   */
  markUnknown(
    shipmentId: number,
    purchaseId: string,
    orderReference: string,
    why: { explained: string } | { cause: string },
    correlationId?: string,
  ): PurchaseOutcome {
    const { shipments } = this.deps;
    // The order as people know it; the reference (with its attempt id) is what the platform
    // is asked about, so it is said too.
    const order = orderNumberInReference(orderReference);
    const which = order ? `order ${order} (reference ${orderReference})` : orderReference;
    const failure: Failure = {
      code: 'purchase-outcome-unknown',
      message:
        'explained' in why
          ? `Label for ${which}: ${why.explained}`
          : `The label for ${which} may or may not have been bought (${why.cause}). It will not be bought again automatically; a shift lead can look it up under Needs attention.`,
      correlationId,
    };
    inTransaction(shipments.db, () => {
      shipments.setPurchaseState(purchaseId, 'unknown', failure);
      shipments.setFailed(shipmentId, 'unknown', failure);
    });
    return { kind: 'unknown', failure, purchase: shipments.purchase(purchaseId)! };
  }
}
