import { call } from '../bridge';
import { useStation } from './index';
import { sayOnPack } from './pack-reimport';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a label bought before the page opened is waited for (a label's deadline is 15 s). */
const WAIT_FOR_LABEL_MS = 40_000;

/**
 * A page opened, or reloaded, while the station buys a label a Pack view asked for (the packer
 * reloaded mid-purchase, or a second tab): without this the label came out of the printer with
 * nothing on screen, free to go on the next parcel. Pack says which order's label is being
 * bought, and once the station is done shows that order as a scan would (its label, with
 * Reprint), saying what happened. Anything the packer scans meanwhile takes over.
 */
export async function resumeBuying(): Promise<void> {
  const idle = () => {
    const st = useStation.getState();
    return !st.order && !st.busy && !st.buyPending;
  };
  if (!idle()) return;
  const r = await call('pack.buying', {});
  const b = r.ok ? r.value.orders.at(-1) : undefined;
  if (!b || !idle()) return;
  useStation.setState({
    result: {
      kind: 'info',
      text: `A label for order ${b.orderNumber} is being bought (asked before this page was opened): it shows here when it is done. Keep order ${b.orderNumber}'s parcel at hand.`,
    },
  });
  for (let waited = 0; waited < WAIT_FOR_LABEL_MS; waited += 500) {
    await wait(500);
    if (!idle()) return;
    const again = await call('pack.buying', {});
    if (!again.ok || !again.value.orders.some((o) => o.orderId === b.orderId)) break;
  }
  if (!idle()) return;
  await useStation.getState().scan(b.orderNumber, b.orderId);
  const after = useStation.getState();
  if (after.order?.id !== b.orderId) return;
  const text = after.existingLabels.length
    ? `Order ${b.orderNumber}'s label was bought while this page was being opened, and sent to the label printer: it goes on order ${b.orderNumber}'s parcel.`
    : `The label asked for order ${b.orderNumber} before this page was opened was not bought here: Needs attention (Alt+2) says why (refused, or not confirmed). Do not buy it again before looking there.`;
  sayOnPack(b.orderId, text);
}

/**
 * The order on screen is being bought right now elsewhere at this station (another tab or window, its queue)
 * (its buy key here was refused as `beingBought`): its label is waited for and shown here, as a
 * scan would, instead of a red FAILED over a live Buy & print key. Scanning something else
 * meanwhile takes over.
 */
export async function awaitBoughtElsewhere(orderId: string, orderNumber: string): Promise<void> {
  const onScreen = () => {
    const st = useStation.getState();
    return st.order?.id === orderId && !st.busy;
  };
  for (let waited = 0; waited < WAIT_FOR_LABEL_MS; waited += 500) {
    await wait(500);
    if (!onScreen()) return;
    const again = await call('pack.buying', {});
    if (!again.ok || !again.value.orders.some((o) => o.orderId === orderId)) {
      // Not a Pack view's purchase (the offline queue or a batch buys it): looked at again
      // after a pause, not in a tight loop of scans.
      if (waited === 0) await wait(2000);
      break;
    }
  }
  if (!onScreen()) return;
  await useStation.getState().scan(orderNumber, orderId);
  const after = useStation.getState();
  if (after.order?.id !== orderId) return;
  // Still being bought (by the queue or a batch): the rating said so and waits again.
  if (after.result?.kind === 'info' && after.result.text === beingBoughtWords(orderNumber)) return;
  sayOnPack(
    orderId,
    after.existingLabels.length
      ? `Order ${orderNumber}'s label was bought meanwhile elsewhere at this station and sent to the label printer: it goes on order ${orderNumber}'s parcel. Alt+R reprints it.`
      : `The label being bought elsewhere at this station for order ${orderNumber} was not bought: Needs attention (Alt+2) says why if its outcome is unknown. Check there before buying it again.`,
  );
}

/** What Pack says while something else at this station (a tab, a window, the queue) buys the order on screen. */
export const beingBoughtWords = (orderNumber: string) =>
  `A label for order ${orderNumber} is being bought right now elsewhere at this station (another tab or window, or its offline queue): it shows here when it is done. Nothing more was bought; keep order ${orderNumber}'s parcel at hand.`;

/** A rating or buy refused because the order is being bought right now elsewhere at this station. */
export function beingBoughtElsewhere(error: { code: string; details?: unknown }): boolean {
  return (
    error.code === 'conflict' &&
    (error.details as { beingBought?: boolean } | undefined)?.beingBought === true
  );
}
