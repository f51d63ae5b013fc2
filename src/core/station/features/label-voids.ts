import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { LabelSummary, recordCalls } from '../../../shared/features/records.js';
import type { LabelVoid } from '../../labels/voids.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { brandName, labelView } from '../map.js';
import type { ProfileRuntime } from '../runtime.js';
import { actor, leadFor } from './users.js';

/** A label of the profile in use, by History's id; refused (not-found) otherwise. */
export function profileLabel(r: ProfileRuntime, id: string) {
  const l = r.labels.get(Number(id));
  if (!l || l.profileId !== r.scope.profileId || l.environment !== r.scope.environment)
    throw new StationFailure('not-found', `Label ${id} is not in this profile.`);
  return l;
}

const voidedView = (v: LabelVoid) => ({ by: v.by, reason: v.reason, at: v.at });

/** A label's voided mark as History's views carry it (none: undefined). */
export const voidView = (v: LabelVoid | undefined) => (v ? voidedView(v) : undefined);

/**
 * Where an order was labelled again at another station of the site (as this station keeps the
 * others' labels), for a voided label's note: "Station Delta (1ZSBX…)", or null.
 */
export function labelledAgainAt(ctx: StationContext, rt: ProfileRuntime) {
  return (tenantId: string | null, orderNumber: string): string | null => {
    if (!tenantId) return null;
    const holder = ctx.site?.labelledElsewhere(rt.scope, tenantId, orderNumber);
    return holder?.label ? `${holder.stationName} (${holder.label.trackingNumber})` : null;
  };
}

/** History's labels with their voided marks (one query for the page). */
export function withVoids<T extends LabelSummary>(
  rt: ProfileRuntime,
  labels: T[],
  /** See labelledAgainAt: a voided label's order labelled again elsewhere is named. */
  again?: (tenantId: string | null, orderNumber: string) => string | null,
): T[] {
  const marks = rt.voids.of(labels.map((l) => Number(l.id)));
  if (marks.size === 0) return labels;
  return labels.map((l) => {
    const v = marks.get(Number(l.id));
    if (!v) return l;
    const where = again?.(l.tenantId, l.orderNumber);
    return { ...l, voided: { ...voidedView(v), ...(where ? { labelledAgain: where } : {}) } };
  });
}

/**
 * History → Voided at the carrier…: a shift lead's mark on a label voided at the carrier's portal
 * or the platform's console (the Shipping Platform API shows no void, so the station voids
 * nothing itself). Logged with who, why and when; taken back the same way.
 */
export function labelVoidHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof recordCalls>, 'labels.markVoided'> {
  return {
    'labels.markVoided': async ({ id, voided, reason }) => {
      const r = ctx.runtime();
      const l = profileLabel(r, id);
      const user = actor(ctx);
      const lead = leadFor(ctx, {
        kind: 'void-label',
        trackingNumber: l.trackingNumber,
        undo: !voided,
      });
      const by = lead && lead !== user ? `${user} (approved by ${lead})` : user;
      if (voided) {
        const mark = r.voids.mark(l.id, by, reason);
        ctx.log(
          `label ${l.trackingNumber} (order ${l.orderNumber}) marked voided at the carrier by ${mark.by}: ${mark.reason}`,
        );
      } else if (r.voids.unmark(l.id))
        ctx.log(
          `label ${l.trackingNumber} (order ${l.orderNumber}): voided mark taken back by ${by}: ${reason}`,
        );
      const reprints = r.reprints.counts([l.id]).get(l.id) ?? 0;
      return withVoids(
        r,
        [labelView(l, brandName(r.profile, l.tenantId), reprints)],
        labelledAgainAt(ctx, r),
      )[0]!;
    },
  };
}
