/**
 * Orders a store's export says are not to ship (cancelled, refunded, shipped already, no line
 * left): never imported as open ones. One the station already has open, from an earlier file,
 * is cancelled here with the export as the reason (through `CancelAtStation`, which leaves an
 * order with a label or a purchase under way, and says why), so nothing buys it; a shift lead
 * reopens it in Orders if it ships after all.
 */
import type { ClosedOrder, ImportProblem, StoredOrder } from './types.js';

/**
 * Cancels an order open at the station, as a shift lead's cancel does (order-cancel.ts): null
 * when it is cancelled, or why it was left (it has a label, a label is being bought for it).
 */
export type CancelAtStation = (orderId: number, by: string, reason: string) => string | null;

/** Who cancelled an order the station cancels because of an export (`OrderCancellation.by`). */
export const CANCELLED_BY_IMPORT = 'order import';

/**
 * The import's problem for an order its file says is not to ship, and what became of the
 * station's own open copy of it (`here`: the order of that number and brand, if there is one).
 */
export function closedOrderProblem(
  closed: ClosedOrder,
  here: { order: StoredOrder; labelled: boolean } | undefined,
  source: string,
  cancel: CancelAtStation | undefined,
): ImportProblem {
  const nothing = closed.cancelled
    ? 'nothing to ship'
    : closed.partly
      ? 'not all of it to ship'
      : 'nothing left to ship';
  const said = closed.partly
    ? `${nothing}: the export says ${closed.what} (${closed.said}); not imported, since a label for all of it would ship those items twice: ship what is left from the store's own order screen, or import a file that lists only what is left`
    : `${nothing}: the export says ${closed.what} (${closed.said}); not imported`;
  const problem = (reason: string): ImportProblem => ({
    row: closed.row,
    line: closed.line,
    orderNumber: closed.orderNumber || undefined,
    field: closed.what.startsWith('no line') ? '(items)' : '(order)',
    reason,
  });
  if (!here) return problem(said);
  const { order, labelled } = here;
  if (order.cancelled) return problem(`${said}; it is cancelled here already`);
  if (labelled)
    return problem(
      closed.cancelled
        ? `${said}; it has a label here: void the label at the carrier (the station cannot)`
        : `${said}; its label was bought here`,
    );
  if (!cancel)
    return problem(`${said}; it is open here: a shift lead cancels it in Orders (Alt+8)`);
  const left = cancel(order.id, CANCELLED_BY_IMPORT, `the export ${source} says ${closed.said}`);
  return problem(
    left === null
      ? `${said}; it was open here, and is now cancelled here (a shift lead reopens it in Orders, Alt+8, if it ships after all)`
      : `${said}; it is open here and was not cancelled: ${left}`,
  );
}
