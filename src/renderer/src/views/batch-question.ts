import type { OrderPageView, OrderStatusName } from '../../../shared/views';
import { MAX_BATCH_ORDERS } from '../../../shared/features/floor';
import type { OrdersQuery } from '../store/floor';

/**
 * What the Orders view's batch question says before money is spent: how many orders the batch
 * takes (the picked ones, or every matching one), how many of them it will buy, why the others
 * are skipped, the first ones it buys by name, and a search that matched orders nobody meant.
 */
export function batchQuestion(page: OrderPageView | null, picked: string[], q: OrdersQuery) {
  const batchSize = picked.length || (page?.total ?? 0);
  // What the batch will actually buy: orders labelled, cancelled, or already waiting in the
  // offline queue (which buys them) are skipped, so the question does not count them as charged
  // (of the matching orders, the counts say how many; of picks, those on the page are known).
  const skipped = (st: OrderStatusName | undefined) =>
    st === 'labelled' || st === 'cancelled' || st === 'queued';
  const among = (st: 'labelled' | 'cancelled' | 'queued') =>
    picked.length
      ? picked.filter((id) => page?.rows.find((r) => r.id === id)?.status === st).length
      : q.statuses.length === 0 || q.statuses.includes(st)
        ? (page?.counts[st] ?? 0)
        : 0;
  const skips = {
    labelled: among('labelled'),
    cancelled: among('cancelled'),
    queued: among('queued'),
  };
  const labelledAmong = Math.min(skips.labelled + skips.cancelled + skips.queued, batchSize);
  const skippedWhy = [
    skips.labelled ? 'already have a label' : null,
    skips.cancelled ? 'were cancelled' : null,
    skips.queued ? 'wait in the offline queue' : null,
  ]
    .filter(Boolean)
    .join(' or ')
    .replace(/^already have/, labelledAmong === 1 ? 'already has' : 'already have')
    .replace(/^were/, labelledAmong === 1 ? 'was' : 'were')
    .replace(/^wait /, labelledAmong === 1 ? 'waits ' : 'wait ');
  const toBuy = batchSize - labelledAmong;
  // The question names what it buys (those on the page on screen): a search that also matches
  // orders nobody meant ("RL-" finds TRL-1001 too) is seen before money is spent.
  const buyRows = (page?.rows ?? []).filter(
    (r) => (!picked.length || picked.includes(r.id)) && !skipped(r.status),
  );
  const named = buyRows.slice(0, 6).map((r) => r.orderNumber);
  const naming = named.length
    ? ` (${named.join(', ')}${toBuy > named.length ? ` and ${(toBuy - named.length).toLocaleString()} more` : ''})`
    : '';
  const typed = q.search?.trim().toLowerCase() ?? '';
  // Only when the search reads as the start of order numbers (some start with it) and others
  // merely contain it: a search by a name or a number's middle is not questioned.
  const starts = (r: { orderNumber: string }) => r.orderNumber.toLowerCase().startsWith(typed);
  const loose = typed && buyRows.some(starts) ? buyRows.filter((r) => !starts(r)).slice(0, 3) : [];
  const looseWords = loose.length
    ? ` The search "${q.search!.trim()}" also finds orders whose number does not start with it, such as ${loose.map((r) => r.orderNumber).join(', ')}: pick the orders meant with Space if those are not.`
    : '';
  return { batchSize, labelledAmong, skippedWhy, toBuy, naming, looseWords };
}

/** Over the batch limit, said before the money question (or instead of it). */
export function tooManyWords(batchSize: number, picked: boolean): string {
  return `${batchSize.toLocaleString()} orders ${picked ? 'are picked' : 'match'}: a batch holds at most ${MAX_BATCH_ORDERS}. Narrow the filter (a status, Single item, Weight known, a search) or pick orders with Space.`;
}

/**
 * The batch panel's line and button before a batch starts: what Alt+B takes, or, with nothing
 * picked and no order in the list (a batch just labelled them all, a filter that finds none),
 * that there is nothing to print and why the button is off.
 */
export function batchStartWords(
  page: OrderPageView | null,
  picked: number,
): { said: string; button: string; nothingWhy: string | null } {
  if (picked)
    return {
      said: `${picked} order${picked === 1 ? '' : 's'} picked.`,
      button: `Print ${picked} picked as a batch`,
      nothingWhy: null,
    };
  if (!page)
    return {
      said: 'Reading the orders…',
      button: 'Print as a batch',
      nothingWhy: 'The orders are still being read.',
    };
  const matching = page.total;
  if (matching === 0)
    return {
      said: 'Nothing to print: no order is in this list. Change the filters or the search, or import orders.',
      button: 'Nothing to print as a batch',
      nothingWhy: 'No order is in this list: nothing to print.',
    };
  return matching === 1
    ? {
        said: 'No order picked: the batch takes the one matching order.',
        button: 'Print the 1 matching order as a batch',
        nothingWhy: null,
      }
    : {
        said: `No order picked: the batch takes all ${matching.toLocaleString()} matching orders.`,
        button: `Print all ${matching.toLocaleString()} matching as a batch`,
        nothingWhy: null,
      };
}
