import type { StoredOrder } from '../orders/types.js';
import type { OfflineQueueRepository } from '../queue/offline-queue-repository.js';
import type { LabelRepository } from '../labels/label-repository.js';
import type { StationScope } from '../storage/scope.js';
import type { ShipmentRepository } from './shipment-repository.js';
import type { Failure, NotAnswering, Shipment, ShipResult } from './types.js';
import type { PackingPlatform } from './platform-port.js';
import { inTransaction } from '../storage/database.js';

export interface OfflineDeps {
  scope: StationScope;
  shipments: ShipmentRepository;
  queue: OfflineQueueRepository;
}

type Queued = Extract<ShipResult, { outcome: 'queued' }>;

/** The platform did not answer and nothing was bought: the shipment waits in the queue. */
export function queueAfterUnreachable(
  deps: OfflineDeps,
  shipment: Shipment,
  failure: Failure,
): Queued {
  const { shipments, queue, scope } = deps;
  // The packer's pick is what the queue will buy (continueShipment): said with the queuing.
  const picked = shipments.get(shipment.id)?.selection;
  if (picked?.chosenBy)
    failure = {
      ...failure,
      message: `${failure.message.trim().replace(/[.\s]*$/, '.')} When it answers, ${picked.rate.serviceLevel} is bought, the rate picked at Pack${picked.chosenBy === 'packer' ? '' : ` by ${picked.chosenBy}`}.`,
    };
  const entry = queue.forShipment(shipment.id);
  if (entry) {
    shipments.setState(shipment.id, 'queued', { still: failure.message });
    return { outcome: 'queued', shipment: shipments.get(shipment.id)!, queueId: entry.id, failure };
  }
  const queueId = inTransaction(shipments.db, () => {
    shipments.setState(shipment.id, 'queued', failure);
    return queue.add(
      scope,
      shipment.id,
      shipment.tenantId,
      failure.message,
      failure.retryAfterMs ?? 0,
    );
  });
  return { outcome: 'queued', shipment: shipments.get(shipment.id)!, queueId, failure };
}

/**
 * A rated shipment the packer buys while the platform is known to be away (packing's requests
 * failing: the header's "offline", "labels failing"): queued with the packer's pick, never sent.
 */
export function queueWhileAway(
  deps: OfflineDeps & { platform: { unreachableReason?(): string | null } },
  shipment: Shipment,
): Queued {
  const why = (deps.platform.unreachableReason?.() ?? 'The platform is unreachable.')
    .trim()
    .replace(/[.\s]*$/, '.');
  return queueAfterUnreachable(deps, shipment, {
    code: 'platform-unreachable',
    message: `${why} Nothing was sent or bought: the shipment was queued and will be labelled when it answers again.`,
  });
}

/**
 * The last label request went unanswered (a reset, a timeout, a 5xx: that purchase is a shift
 * lead's look-up) and nothing has answered on the purchase route since. Before another purchase
 * goes into the same fault, the route is asked (an empty purchase it can only refuse): answered,
 * null and the purchase is sent; unanswered too, the shipment is queued, never sent. Without it
 * a platform that accepts connections and resets them cost one unknown purchase per Ctrl+Enter
 * until three had failed.
 */
export async function queueIfLabelsInDoubt(
  deps: OfflineDeps & {
    platform: Pick<
      PackingPlatform,
      'labelsUnanswered' | 'probeLabelRoute' | 'isReachable' | 'unreachableReason'
    >;
  },
  shipment: Shipment,
): Promise<Queued | null> {
  const { platform } = deps;
  if (!platform.probeLabelRoute || !platform.labelsUnanswered?.()) return null;
  await platform.probeLabelRoute(shipment.tenantId);
  const still = platform.labelsUnanswered();
  if (!still) return null;
  if (platform.isReachable?.() === false) return queueWhileAway(deps, shipment);
  return queueAfterUnreachable(deps, shipment, {
    code: 'platform-unreachable',
    message: `${still} It did not answer the station's check just now either, so nothing was sent or bought: the shipment was queued and will be labelled when the platform answers again.`,
  });
}

/** The platform is known to be away: store the shipment straight into the queue. */
export function enqueueOffline(
  deps: OfflineDeps,
  order: StoredOrder,
  shipment: Shipment['shipment'],
  stationUser: string | null,
  why: string,
): Queued {
  const { shipments, queue, scope } = deps;
  const failure: Failure = {
    code: 'platform-unreachable',
    message: `${why} Nothing was sent or bought: the shipment was queued and will be labelled when it answers again.`,
  };
  const queued = inTransaction(shipments.db, () => {
    const created = shipments.create(scope, {
      tenantId: order.tenantId,
      orderId: order.id,
      state: 'queued',
      shipment,
      stationUser,
    });
    const queueId = queue.add(scope, created.id, order.tenantId, why);
    return { created, queueId };
  });
  return { outcome: 'queued', shipment: queued.created, queueId: queued.queueId, failure };
}

/**
 * A rescan of an order already waiting in the queue: never queued twice. When the packer gave
 * packages (re-weighed it), the waiting shipment takes them, so it is bought at what was weighed
 * last, not at what was typed before.
 */
export function alreadyQueued(
  deps: OfflineDeps,
  order: StoredOrder,
  waiting: Shipment,
  repacked: Shipment['shipment'] | null,
): Queued {
  if (repacked && JSON.stringify(repacked) !== JSON.stringify(waiting.shipment))
    deps.shipments.setShipment(waiting.id, repacked);
  return {
    outcome: 'queued',
    shipment: deps.shipments.get(waiting.id)!,
    queueId: deps.queue.forShipment(waiting.id)?.id ?? 0,
    failure: {
      code: 'already-queued',
      message: `Order ${order.orderNumber} is already waiting in the offline queue.`,
    },
  };
}

/**
 * A packer's rating with the platform away: said, with what Ctrl+Enter does now. Nothing was
 * bought and nothing queued; the shipment is queued (and later bought by the rule) only when the
 * packer asks to buy.
 */
export function notAnswering(why: string, keyRefused = false): NotAnswering {
  const reason = why.trim().replace(/[.\s]*$/, '.');
  const when = keyRefused
    ? 'once site IT has put the key right in Settings (call the shift lead)'
    : 'when the platform answers again';
  return {
    outcome: 'unreachable',
    failure: {
      code: 'platform-unreachable',
      message: `${reason} Nothing was bought or queued. Ctrl+Enter queues this order: it is labelled by the profile's rule ${when}.`,
    },
  };
}

export type RequeueOutcome =
  { outcome: 'requeued' } | { outcome: 'labelled'; trackingNumber: string };

/**
 * A failed queue entry waits again (Retry now): its shipment is queued as it was (the packer's
 * pick kept) and the drainer rates and buys it by the rule, checking the order's labels and open
 * purchases first as for any queued shipment. `labelled`: the order got a label since, so
 * nothing is queued and the entry is over. Null: no failed entry of this scope.
 */
export function requeueFailed(
  deps: OfflineDeps & { labels: Pick<LabelRepository, 'forOrder'> },
  queueId: number,
  stationUser: string,
): RequeueOutcome | null {
  const { queue, shipments, labels, scope } = deps;
  const entry = queue.getInScope(scope, queueId);
  const shipment = entry && shipments.get(entry.shipmentId);
  if (!entry || entry.state !== 'failed' || !shipment || shipment.state !== 'failed') return null;
  const label = labels.forOrder(shipment.orderId)[0];
  if (label) {
    queue.finish(entry.id, 'done', 'the order got its label');
    return { outcome: 'labelled', trackingNumber: label.trackingNumber };
  }
  inTransaction(shipments.db, () => {
    shipments.setState(shipment.id, 'queued', { retriedBy: stationUser });
    queue.requeue(entry.id, `retried by ${stationUser}`);
  });
  return { outcome: 'requeued' };
}

/**
 * Takes a shipment out of the offline queue without buying anything: one waiting for the
 * platform, or one whose entry failed (nothing bought, its order without a label: it stays on
 * the Queue page until retried or taken off). False for anything else: a shipment being bought
 * right now, bought, or with the outcome unknown (decided under Needs attention).
 */
export function cancelQueued(deps: OfflineDeps, shipmentId: number, stationUser: string): boolean {
  const { shipments, queue, scope } = deps;
  const shipment = shipments.get(shipmentId);
  const entry = queue.forShipment(shipmentId);
  if (
    !shipment ||
    shipment.profileId !== scope.profileId ||
    shipment.environment !== scope.environment
  )
    return false;
  const failed = shipment.state === 'failed' && entry?.state === 'failed';
  if (shipment.state !== 'queued' && !failed) return false;
  inTransaction(shipments.db, () => {
    shipments.setState(shipmentId, 'cancelled', { by: stationUser });
    if (failed) queue.decided(shipmentId, 'failed', 'failed', `cancelled by ${stationUser}`);
    else if (entry) queue.finish(entry.id, 'failed', `cancelled by ${stationUser}`);
  });
  return true;
}
