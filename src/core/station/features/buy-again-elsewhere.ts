// Needs attention → Buy again, checked against the site first (records.ts's attention calls).
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { whenSaid } from '../../site/when-said.js';

/**
 * Buying again for an unknown purchase while another station of the site has since labelled
 * the order (it took over once this one went quiet) would pay for a second label: refused,
 * naming that label. With the site store away nothing more can be known; the question asked
 * before buying again says the first purchase may have gone through.
 */
export async function refuseIfLabelledElsewhere(
  ctx: StationContext,
  purchaseId: string,
): Promise<void> {
  const r = ctx.runtime();
  const site = ctx.site;
  const p = r.workflow.shipments.purchase(purchaseId);
  const shipment = p ? r.workflow.shipments.get(p.shipmentId) : undefined;
  const order = shipment ? r.workflow.orders.get(shipment.orderId) : undefined;
  if (!site || !order) return;
  const found = await site.store
    .searchLabels(r.scope, { query: order.orderNumber, limit: 20 })
    .catch(() => null);
  const other = found?.labels.find(
    (l) =>
      l.orderNumber === order.orderNumber &&
      l.tenantId === order.tenantId &&
      l.stationId !== site.config.stationId,
  );
  if (other)
    throw new StationFailure(
      'conflict',
      `Order ${order.orderNumber} was labelled at ${other.stationName} at ${whenSaid(new Date(other.createdAt))} (${other.trackingNumber}): nothing is bought again here. Look this station's attempt up on the platform, mark it not bought if it is not there, and reprint ${other.stationName}'s label from History (whole site).`,
    );
}
