import type { StoredLabel } from '../labels/types.js';
import type { PackingWorkflow } from './packing-workflow.js';
import type { PurchasedLabel, TrackerSearch } from './platform-port.js';
import type { Failure, LabelPurchase, PackedPackage, Shipment, ShipResult } from './types.js';
import { inTransaction } from '../storage/database.js';

/** A purchase whose outcome is unknown, as the shift lead sees it. */
export interface AttentionItem {
  purchase: LabelPurchase;
  shipment: Shipment;
  orderNumber: string;
  tenantId: string;
  /** Search for this on the platform (trackers, the platform's own UI). */
  orderReference: string;
  failure: Failure | null;
  since: string;
}

export type LookUpResult =
  | { found: true; label: StoredLabel; printed: boolean; failure?: Failure }
  | { found: false; message: string };

/**
 * How long before the purchase a look-up starts reading trackers. A label's tracker is created
 * when it is bought and its updatedAt only moves on from there; the day before leaves room for
 * a station clock that is ahead of the platform's.
 */
const LOOK_UP_MARGIN_MS = 24 * 3_600_000;

/** Why a look-up that found no label proves nothing, or the plain "not yet" when it does. */
function notFoundMessage(orderReference: string, search: TrackerSearch): string {
  const dont = `Do not mark it as not bought or buy again on this look-up: look for ${orderReference} on the platform first.`;
  const matched = search.trackers[0];
  if (matched)
    return `The platform has a shipment for ${orderReference} (tracking number ${matched.trackingNumber}), so its label was bought, but the platform did not say which label it is and the station cannot print it from here. ${dont}`;
  if (!search.reachedEnd)
    return `The station read ${search.read} of the platform's trackers without finding ${orderReference} and stopped before the end of the list, so it cannot tell whether the label was bought. ${dont}`;
  if (search.read > 0 && !search.referencesShown)
    return `The platform's trackers do not show order references, so the station cannot tell whether ${orderReference} was bought. ${dont}`;
  return `The platform has no label for ${orderReference} yet. If the shift lead is sure nothing was bought, mark it as not bought; otherwise look again later.`;
}

export class AttentionError extends Error {
  constructor(
    readonly code: 'purchase-not-found' | 'purchase-not-unknown' | 'confirmation-required',
    message: string,
  ) {
    super(message);
    this.name = 'AttentionError';
  }
}

/**
 * "Needs attention": purchases that may or may not have bought a label. The station never
 * decides alone; a shift lead picks one of three resolutions:
 * - lookUp: search the platform's trackers for the attempt's orderReference; when found, the
 *   label is stored (nothing lost) and printed;
 * - markNotBought: the shift lead checked and nothing was bought;
 * - buyAgain: buy a new label, only with an explicit confirmation.
 */
export class NeedsAttention {
  constructor(private readonly workflow: PackingWorkflow) {}

  list(): AttentionItem[] {
    const { shipments, orders, scope } = this.workflow;
    return shipments.purchasesInState(scope, 'unknown').map((purchase) => {
      const shipment = shipments.get(purchase.shipmentId)!;
      const order = orders.get(shipment.orderId)!;
      return {
        purchase,
        shipment,
        orderNumber: order.orderNumber,
        tenantId: purchase.tenantId,
        orderReference: purchase.orderReference,
        failure: purchase.failure,
        // When the purchase was made: found unanswered at a restart, its updatedAt is the
        // restart's time, which says nothing about the label the lead looks for.
        since: purchase.createdAt,
      };
    });
  }

  count(): number {
    return this.workflow.shipments.purchasesInState(this.workflow.scope, 'unknown').length;
  }

  async lookUp(purchaseId: string, stationUser: string): Promise<LookUpResult> {
    const { purchase, shipment } = this.unknownPurchase(purchaseId);
    const { platform } = this.workflowOptions();
    // From about the purchase's time: the platform lists its oldest trackers first, and a
    // tenant's whole history can be longer than the search reads.
    const boughtAt = Date.parse(purchase.createdAt);
    const search = await platform.trackersByOrderReference(
      purchase.tenantId,
      purchase.orderReference,
      Number.isNaN(boughtAt)
        ? {}
        : { updatedSince: new Date(boughtAt - LOOK_UP_MARGIN_MS).toISOString() },
    );
    const tracker = search.trackers.find((t) => t.labelId);
    if (!tracker || !tracker.labelId)
      return { found: false, message: notFoundMessage(purchase.orderReference, search) };
    const order = this.workflow.orders.get(shipment.orderId)!;
    const zpl = await platform.labelZpl(purchase.tenantId, tracker.labelId);
    const rate = shipment.selection?.rate;
    const request = purchase.request as { carrierAccountId?: string; serviceLevel?: string };
    const bought: PurchasedLabel = {
      id: tracker.labelId,
      trackingNumber: tracker.trackingNumber,
      trackerId: tracker.id,
      carrier: tracker.carrier ?? rate?.carrier ?? '',
      serviceLevel: tracker.serviceLevel ?? request.serviceLevel ?? '',
      carrierAccountId: request.carrierAccountId ?? rate?.carrierAccount.id ?? '',
      orderReference: purchase.orderReference,
      // Trackers carry no price: the quote the label was bought against is the best record.
      cost: { amount: rate?.amount ?? 0, currency: rate?.currency ?? 'USD' },
      createdAt: tracker.createdAt ?? purchase.createdAt,
    };
    const { shipments, purchaser } = this.workflow;
    const label = inTransaction(shipments.db, () => {
      const stored = purchaser.store(
        shipment,
        order,
        purchase.id,
        purchase.orderReference,
        bought,
        zpl,
        'found-on-platform',
      );
      shipments.resolvePurchase(purchase.id, 'purchased', 'found on the platform', stationUser);
      // Bought by the offline queue: its entry is over with the decision, not left in the Queue.
      this.workflow.queue.decided(
        shipment.id,
        'needs-attention',
        'done',
        `found on the platform by ${stationUser}`,
      );
      return stored;
    });
    const printed = await this.workflow.print(shipment.id, label);
    return 'failure' in printed
      ? { found: true, label, printed: false, failure: printed.failure }
      : { found: true, label, printed: true };
  }

  markNotBought(purchaseId: string, stationUser: string, note = 'checked: not bought'): void {
    const { purchase, shipment } = this.unknownPurchase(purchaseId);
    const { shipments } = this.workflow;
    inTransaction(shipments.db, () => {
      shipments.resolvePurchase(purchase.id, 'not-bought', note, stationUser);
      shipments.setState(shipment.id, 'cancelled', { resolution: note, by: stationUser });
      this.workflow.queue.decided(shipment.id, 'needs-attention', 'failed', note);
    });
  }

  /** Buys a new label for the order. `confirm` must be true: the first one may exist. */
  async buyAgain(
    purchaseId: string,
    options: { stationUser: string; confirm: boolean },
  ): Promise<ShipResult> {
    if (options.confirm !== true)
      throw new AttentionError(
        'confirmation-required',
        'Buying again may pay for a second label if the first one went through; confirm to continue.',
      );
    const { shipment } = this.unknownPurchase(purchaseId);
    this.markNotBought(
      purchaseId,
      options.stationUser,
      `bought again on confirmation by ${options.stationUser}`,
    );
    const packages: PackedPackage[] = shipment.shipment.packages.map((p) => ({
      weightLbs: p.weightLbs,
      lengthIn: p.lengthIn,
      widthIn: p.widthIn,
      heightIn: p.heightIn,
    }));
    return this.workflow.ship(shipment.orderId, {
      packages,
      stationUser: options.stationUser,
      confirmAnotherLabel: true,
    });
  }

  private unknownPurchase(purchaseId: string): { purchase: LabelPurchase; shipment: Shipment } {
    const purchase = this.workflow.shipments.purchase(purchaseId);
    const shipment = purchase && this.workflow.shipments.get(purchase.shipmentId);
    if (
      !purchase ||
      !shipment ||
      shipment.profileId !== this.workflow.scope.profileId ||
      shipment.environment !== this.workflow.scope.environment
    )
      throw new AttentionError('purchase-not-found', `No purchase ${purchaseId} in this profile.`);
    if (purchase.state !== 'unknown')
      throw new AttentionError(
        'purchase-not-unknown',
        `Purchase ${purchase.orderReference} is ${purchase.state}, not waiting for a decision.`,
      );
    return { purchase, shipment };
  }

  private workflowOptions() {
    return this.workflow.dependencies;
  }
}
