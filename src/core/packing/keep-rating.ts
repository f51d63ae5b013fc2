import type { PendingRating } from './purchase-step.js';
import { notAnswering, queueAfterUnreachable } from './offline-steps.js';
import type { PackingStepsDeps } from './packing-steps.js';
import type { Rating } from './rating.js';
import type { RateResult, Shipment } from './types.js';

/**
 * Keeps what the platform answered to a shipment's rates request: the rates (at once, or in
 * `pending` to be written with the purchase intent), a failure on the shipment, or, the platform
 * away, the shipment queued (`queue`) or cancelled and said (`say`).
 */
export async function keepRating(
  d: PackingStepsDeps,
  rated: Rating,
  shipment: Shipment,
  pending: PendingRating | undefined,
  unreachable: 'queue' | 'say',
): Promise<RateResult> {
  const { shipments } = d;
  switch (rated.kind) {
    case 'unreachable':
      if (unreachable === 'say') {
        shipments.setState(shipment.id, 'cancelled', { why: rated.failure.message });
        return notAnswering(rated.failure.message, rated.failure.code === 'key-refused');
      }
      return queueAfterUnreachable(d, shipment, rated.failure);
    case 'failed':
      shipments.setFailed(shipment.id, 'failed', rated.failure);
      if (rated.rates) shipments.setRates(shipment.id, rated.rates);
      return {
        outcome: 'failed',
        shipment: shipments.get(shipment.id)!,
        failure: rated.failure,
        carrierProblems: rated.carrierProblems,
      };
    case 'rated': {
      let ratedAt: string;
      if (pending) {
        ratedAt = d.clock().toISOString();
        const at = ratedAt;
        pending.write = () => shipments.setRated(shipment.id, rated.rates, rated.selection, at);
      } else ratedAt = shipments.setRated(shipment.id, rated.rates, rated.selection);
      await d.hooks.at?.('rated', { shipmentId: shipment.id });
      return {
        outcome: 'rated',
        // What setRated wrote, without reading it back (the rating is on the packer's path).
        shipment: {
          ...shipment,
          state: 'rated',
          rates: rated.rates,
          selection: rated.selection,
          failure: null,
          updatedAt: ratedAt,
        },
        rates: rated.rates,
        selection: rated.selection,
        carrierProblems: rated.carrierProblems,
        ratedAt,
      };
    }
    default: {
      const never: never = rated;
      throw new Error(`unexpected rating ${JSON.stringify(never)}`);
    }
  }
}

/**
 * Lets a request just started reach its socket: the HTTP client writes it from the promise jobs
 * that follow the call, which all run before the next turn of the event loop's check phase.
 */
export function requestOnItsWay(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
