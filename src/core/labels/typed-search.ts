import type { StationScope } from '../storage/scope.js';
import type { LabelRepository } from './label-repository.js';
import type { LabelSearch } from './types.js';

export type LabelFilters = Pick<LabelSearch, 'tenantId' | 'from' | 'to'>;

/**
 * History's search box: what was typed is an order number or a tracking number (of any package
 * of a label). A text that looks like a tracking number (`looksLikeTrackingNumber` of
 * src/core/tracking, handed in by the station: labels may not import tracking), and is no known
 * order number, is tried as one first; when the first guess finds nothing the other is tried.
 * Returns the filter that found labels (or the last one tried) and how many labels match it.
 */
export function typedLabelSearch(
  labels: Pick<LabelRepository, 'count'>,
  scope: StationScope,
  typed: string | undefined,
  filters: LabelFilters,
  guess: { isOrderNumber(text: string): boolean; looksLikeTrackingNumber(text: string): boolean },
): { filter: LabelSearch; total: number } {
  const query = typed?.trim();
  if (!query) return { filter: filters, total: labels.count(scope, filters) };
  const byOrder = { ...filters, orderNumber: query };
  const byTracking = { ...filters, trackingNumber: query };
  const trackingFirst = guess.looksLikeTrackingNumber(query) && !guess.isOrderNumber(query);
  const [first, second] = trackingFirst ? [byTracking, byOrder] : [byOrder, byTracking];
  const total = labels.count(scope, first);
  if (total > 0) return { filter: first, total };
  return { filter: second, total: labels.count(scope, second) };
}
