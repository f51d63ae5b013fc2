import type { LabelledElsewhereView } from '../../../shared/features/site.js';
import type { StationScope } from '../../storage/scope.js';
import type { StationContext } from '../context.js';
import { labelledElsewhereView } from './pack-views.js';

/**
 * How long a scan waits for the site store's word on an order it has seen before (a newer copy
 * of an order fetched from it, another station's label voided since).
 */
export const SITE_REFRESH_MS = 300;

/** `work`'s answer when it comes within `ms`, else `otherwise` (a late answer is dropped). */
export async function within<T>(work: Promise<T>, ms: number, otherwise: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<T>((resolve) => (timer = setTimeout(() => resolve(otherwise), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Another station's label of the scanned order, as this station keeps the site's labels (see
 * LabelledElsewhere), for the scan to say: nothing when none is known. Whether it was voided at
 * the carrier there since is asked of the store (the labels kept here carry no marks), for as
 * long as a refresh; unanswered, the label is offered as it is kept, and a reprint of it is still
 * refused in the void's words.
 */
export async function labelledElsewhereAtScan(
  ctx: StationContext,
  scope: StationScope,
  order: { tenantId: string; orderNumber: string },
): Promise<{ labelledElsewhere?: LabelledElsewhereView }> {
  const site = ctx.site;
  const holder = site?.labelledElsewhere(scope, order.tenantId, order.orderNumber);
  if (!site || !holder?.label) return {};
  const voided = await within(
    site.labelVoid(holder.stationId, holder.label.localId),
    SITE_REFRESH_MS,
    undefined,
  );
  return {
    labelledElsewhere: labelledElsewhereView({
      ...holder,
      label: { ...holder.label, voided: voided ?? undefined },
    }),
  };
}
