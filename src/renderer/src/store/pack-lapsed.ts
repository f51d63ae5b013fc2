import type { CarrierAccountView } from '../../../shared/views';
import { useStation } from './index';
import { sayOnPack } from './pack-reimport';

/** Statuses of a connection that no longer rates or buys (the header's banner names them). */
const LAPSED = new Set(['EXPIRED', 'ERROR', 'UNAUTHORIZED']);

/** The quote (shipment and rating) already rated again for a lapsed account: once each. */
let rerated: string | null = null;

/**
 * The carrier accounts were read again (`carriers-changed`) and one of the rates on Pack is on
 * an account that has since lapsed (rates pre-rated before its connection expired, shown
 * without a round trip): that rate would be refused at Ctrl+Enter, and the rule's choice may
 * now be another carrier at another price. Pack rates the order again with what is on screen
 * and says why. A purchase under way, a label, or a queued order is left alone.
 */
export async function rerateLapsed(accounts: readonly CarrierAccountView[]): Promise<void> {
  const { order, quote, busy, buyPending, result } = useStation.getState();
  if (!order || !quote || quote.queued || busy || buyPending || result?.kind === 'success') return;
  const lapsed = accounts.filter((a) => !a.isActive || LAPSED.has(a.status));
  const hit = lapsed.find((a) => quote.rates.some((r) => r.carrierAccountId === a.id));
  const key = `${quote.shipmentId}@${quote.ratedAt}`;
  if (!hit || rerated === key) return;
  rerated = key;
  await useStation.getState().rate();
  sayOnPack(
    order.id,
    `Carrier account "${hit.name}" is ${hit.isActive ? hit.status : 'inactive'} since order ${order.orderNumber}'s rates were fetched: its rates cannot be bought, so the order was rated again.`,
  );
}
