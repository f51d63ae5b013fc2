import { call } from '../bridge';
import { useStation } from './index';
import type { KeptPacking } from './pack-changed';

/**
 * An order file imported while an order is rated on Pack: when the import changed that order's
 * ship-to, weights or boxes, its rates are for the old version (a buy of them is refused), so
 * Pack shows the order as it is now and rates it again, and says why it changed under the packer.
 * The weights and boxes the packer typed or weighed stay where the new version's file gives the
 * same packages as the old one (a new address only: `keptOver`); else the file's are taken.
 * Anything else on screen (a purchase under way, a label, rates still fitting) is left alone.
 */
export async function redrawReimported(): Promise<void> {
  const { order, quote, busy } = useStation.getState();
  if (!order || !quote || quote.queued || busy) return;
  const r = await call('pack.changedSince', { shipmentId: quote.shipmentId });
  if (!r.ok || !r.value.what) return;
  const now = useStation.getState();
  // The packer moved on meanwhile (another scan, a purchase): theirs is on screen.
  if (now.order?.id !== order.id || now.quote?.shipmentId !== quote.shipmentId || now.busy) return;
  const keep: KeptPacking = { order, packages: now.packages, shipOptions: now.shipOptions };
  await now.scan(order.orderNumber, order.id, keep);
  const after = useStation.getState();
  const kept = after.order?.id === order.id && after.packages === keep.packages;
  sayOnPack(
    order.id,
    `Order ${order.orderNumber} was imported again while it was on screen (${r.value.what}): it is shown as it is now${after.quote ? ' and rated again' : ''}. ${kept ? 'The weights and boxes on screen stay: the file gives the same packages as before.' : "A weight typed before is the file's again: weigh it again if it was changed."}`,
  );
}

/**
 * Why the order on Pack changed under the packer: in the result panel while that order is still
 * on screen and the panel holds nothing else (never over a refusal or a label); otherwise a toast.
 */
export function sayOnPack(orderId: string, text: string): void {
  const now = useStation.getState();
  if (now.order?.id === orderId && (!now.result || now.result.kind === 'info'))
    useStation.setState({ result: { kind: 'info', text } });
  else now.notify('error', text);
}
