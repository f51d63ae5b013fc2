import { orderNumberInReference } from './order-reference.js';
import type { StationScope } from '../storage/scope.js';
import type { LabelRepository } from './label-repository.js';
import type { LabelSearch } from './types.js';

export type LabelFilters = Pick<LabelSearch, 'tenantId' | 'from' | 'to'>;

/** Matches by the beginning of an order number, up to this many labels (then: type more). */
export const PREFIX_MATCH_LIMIT = 5000;

/**
 * A part in the middle of a number is looked for among the station's newest labels only: no
 * index finds it, and reading 10,000,000 labels row by row would hold the station for seconds.
 * 100,000 labels (weeks to months of a busy station) read in tens of milliseconds.
 */
export const PART_SEARCH_WINDOW = 100_000;

/** At most this many labels are listed for a part of a number (then: type more). */
export const PART_MATCH_LIMIT = 500;

/**
 * The texts a search may stand for, in order: as typed; upper case (order numbers are stored
 * as the file had them, usually upper case: "bat-3010" finds BAT-3010); case swapped (Caps
 * Lock on a keyboard-wedge scanner); and the label's REF (the platform's orderReference, the
 * order number plus "-" and an 8-character attempt id, as printed at the label's foot).
 */
function candidates(query: string): string[] {
  const upper = query.toUpperCase();
  const swapped = [...query]
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('');
  const ref = orderNumberInReference(upper);
  // Shopify's "#2001" typed as 2001.
  const hash = /^\d{1,12}$/.test(query) ? [`#${query}`] : [];
  return [...new Set([query, upper, swapped, ...(ref ? [ref] : []), ...hash])];
}

/**
 * History's search box: what was typed is an order number or a tracking number (of any package
 * of a label). A text that looks like a tracking number (`looksLikeTrackingNumber` of
 * src/core/tracking, handed in by the station: labels may not import tracking), and is no known
 * order number, is tried as one first; when the first guess finds nothing the other is tried,
 * then the same in upper case, case swapped, and as a label's REF; then, from 3 characters, as
 * the beginning of order numbers ("BAT-301" finds BAT-3010 … BAT-3019), when at most
 * PREFIX_MATCH_LIMIT labels match (more: `note` asks for more of the number); then, from 4
 * characters, as a part anywhere in an order or tracking number ("3010" for BAT-3010, the last
 * digits of a tracking number) among the newest PART_SEARCH_WINDOW labels, said in `note`.
 * Returns the filter that found labels (or the last one tried) and how many labels match it.
 */
export function typedLabelSearch(
  labels: Pick<LabelRepository, 'count' | 'countUpTo' | 'newestWindowStart'>,
  scope: StationScope,
  typed: string | undefined,
  filters: LabelFilters,
  guess: { isOrderNumber(text: string): boolean; looksLikeTrackingNumber(text: string): boolean },
): { filter: LabelSearch; total: number; note?: string } {
  const query = typed?.trim();
  if (!query) return { filter: filters, total: labels.count(scope, filters) };
  const trackingFirst = guess.looksLikeTrackingNumber(query) && !guess.isOrderNumber(query);
  let last: LabelSearch = { ...filters, orderNumber: query };
  for (const text of candidates(query)) {
    const byOrder = { ...filters, orderNumber: text };
    const byTracking = { ...filters, trackingNumber: text };
    for (const filter of trackingFirst ? [byTracking, byOrder] : [byOrder, byTracking]) {
      const total = labels.count(scope, filter);
      if (total > 0) return { filter, total };
      last = filter;
    }
  }
  if (query.length >= 3) {
    for (const text of [...new Set([query, query.toUpperCase()])]) {
      const filter = { ...filters, orderNumberPrefix: text };
      const total = labels.countUpTo(scope, filter, PREFIX_MATCH_LIMIT + 1);
      if (total > PREFIX_MATCH_LIMIT)
        return {
          filter: { ...filters, orderNumber: query },
          total: 0,
          note: `More than ${PREFIX_MATCH_LIMIT.toLocaleString('en-US')} labels have an order number that begins with ${text}: type more of the number.`,
        };
      if (total > 0) return { filter, total };
    }
  }
  if (query.length >= 4) {
    const text = query.toUpperCase();
    const window = PART_SEARCH_WINDOW.toLocaleString('en-US');
    const filter = {
      ...filters,
      numberPart: { text, fromId: labels.newestWindowStart(PART_SEARCH_WINDOW) },
    };
    const total = labels.countUpTo(scope, filter, PART_MATCH_LIMIT + 1);
    if (total > PART_MATCH_LIMIT)
      return {
        filter: { ...filters, orderNumber: query },
        total: 0,
        note: `More than ${PART_MATCH_LIMIT} labels have ${text} in their order or tracking number: type more of it.`,
      };
    if (total > 0)
      return {
        filter,
        total,
        note: `found by a part of the number, among the newest ${window} labels`,
      };
  }
  // Nothing: said with what was looked for, and what a longer search would look for too.
  return {
    filter: last,
    total: 0,
    note:
      query.length < 3
        ? `No label has the order or tracking number ${query}: from 3 characters, order numbers that begin with them are found too.`
        : query.length < 4
          ? `No label has an order number that is or begins with ${query}: from 4 characters, a part anywhere in an order or tracking number is found too.`
          : `No label has ${query} in its order or tracking number.`,
  };
}
