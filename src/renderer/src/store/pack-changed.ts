import type { StationError } from '../../../shared/result';
import type { OrderView, ShipOptionsView } from '../../../shared/views';
import type { PackedEntry } from './pack';
import { useStation } from './index';

/** What the packer had on screen for an order, offered to the scan of its new version. */
export interface KeptPacking {
  order: OrderView;
  packages: PackedEntry[];
  shipOptions: ShipOptionsView | null;
}

/**
 * The packer's weights, boxes and options stand over a new version of the order whose file
 * gives the same ones (a new address only): those are what the box weighs now. A new version
 * that changed them brings the file's (the packer weighs again if they differ).
 */
export function keptOver(keep: KeptPacking | undefined, found: OrderView) {
  if (!keep) return null;
  const file = (o: OrderView) =>
    JSON.stringify(o.packages.map((p) => [p.weightLbs, p.box, p.lengthIn, p.widthIn, p.heightIn]));
  if (file(keep.order) !== file(found) || keep.packages.length !== found.packages.length)
    return null;
  const sameOptions = JSON.stringify(keep.order.options) === JSON.stringify(found.options);
  return {
    packages: keep.packages,
    shipOptions: sameOptions ? keep.shipOptions : (found.options ?? null),
  };
}

/**
 * A buy refused because the order was imported again since it was rated (here, or at another
 * station of the site): nothing was bought. Pack shows the order as it is now (its new address
 * and packages) and rates it again, so the packer's next Ctrl+Enter buys it as it is, and says
 * why in the result panel; until 2026-11-30 the old address stayed on screen until a new scan.
 */
export async function showChangedOrder(order: OrderView, error: StationError): Promise<void> {
  const st = useStation.getState();
  const changed = (error.details as { changed?: string | null } | undefined)?.changed;
  const keep = { order, packages: st.packages, shipOptions: st.shipOptions };
  useStation.setState({ quote: null, selectedRateId: null, buyPending: false });
  await st.scan(order.orderNumber, order.id, keep);
  const now = useStation.getState();
  // Moved on meanwhile, or the scan or its rating said something of its own (labelled at
  // another station since, a refusal): that stands.
  if (now.order?.id !== order.id || now.result) return;
  const rated = now.quote && !now.quote.queued && !now.quote.unreachable && now.quote.rates.length;
  const why = changed ? ` (${changed})` : '';
  useStation.setState({
    result: {
      kind: 'failure',
      error: {
        code: 'order-changed',
        message: `Order ${order.orderNumber} was imported again after it was rated${why}: nothing was bought. It is shown as it is now${rated ? ' and rated again: check the address and the rate, then Ctrl+Enter buys it' : ': Enter rates it'}.`,
      },
    },
  });
}
