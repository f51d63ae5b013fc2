import { NeedsAttention } from '../../packing/needs-attention.js';
import { dismissFailedOrder } from '../../packing/attention.js';
import { typedLabelSearch } from '../../labels/typed-search.js';
import { looksLikeTrackingNumber } from '../../tracking/numbers.js';
import { isPlatformError } from '../../platform/index.js';
import { labelPrinterOf } from '../../profiles/profile-schema.js';
import type { StationContext } from '../context.js';
import type { SiteReprint } from '../../site/types.js';
import { actor, leadFor, reprintsWithoutLead } from './users.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { recordCalls } from '../../../shared/features/records.js';
import { codeOf, StationFailure } from '../errors.js';
import { brandName, carrierView, labelView, printJobView, trackingSync } from '../map.js';
import { attentionOf, printerNamer, trackerRows } from '../snapshots.js';
import { printJobId, queueHandlers } from './queue.js';
import { purchaseView } from './pack-views.js';
import { labelledAgainAt, labelVoidHandlers, profileLabel, withVoids } from './label-voids.js';
import { refuseIfLabelledElsewhere } from './buy-again-elsewhere.js';
import { SITE_REFRESH_MS, within } from './scan-site.js';

/** History (label cache, reprints), needs attention, queues, tracking and carrier accounts. */
export function recordHandlers(ctx: StationContext): FeatureHandlers<typeof recordCalls> {
  const rt = () => ctx.runtime();
  const brand = (tenantId: string) => brandName(rt().profile, tenantId);
  const label = (id: string) => profileLabel(rt(), id);

  return {
    ...labelVoidHandlers(ctx),
    ...queueHandlers(ctx),
    'labels.search': async (q) => {
      const r = rt();
      // From after To: nothing can match, and the person is told why rather than "No labels".
      if (q.from && q.to && q.from > q.to)
        return {
          labels: [],
          total: 0,
          offset: 0,
          note: `The first day (${q.from}) is after the last (${q.to}): no label can match.`,
        };
      const { filter, total, note } = typedLabelSearch(
        r.labels,
        r.scope,
        q.query,
        {
          ...(q.tenantId ? { tenantId: q.tenantId } : {}),
          ...(q.from ? { from: new Date(q.from).toISOString() } : {}),
          ...(q.to ? { to: new Date(Date.parse(q.to) + 86_400_000).toISOString() } : {}),
        },
        {
          isOrderNumber: (typed) => r.orders.findByNumber(r.scope, typed).length > 0,
          looksLikeTrackingNumber,
        },
      );
      const page = r.labels.searchSummaries(r.scope, {
        ...filter,
        limit: Math.min(q.limit, 500),
        offset: q.offset,
      });
      // One query for the reprint counts of the whole page, not one per row; one for returns.
      const reprints = r.reprints.counts(page.labels.map((l) => l.id));
      // At a site, other stations' reprints of these labels count too, as the pane counts them.
      const elsewhere = await pageReprintsElsewhere(
        ctx,
        page.labels.map((l) => l.id),
      );
      const returns = r.labels.returnsOf(page.labels.map((l) => l.id));
      const unprinted = ctx.spool.printOutcomes(page.labels.map((l) => l.platformLabelId));
      return {
        labels: withVoids(
          r,
          page.labels.map((l) =>
            labelView(
              l,
              brand(l.tenantId),
              (reprints.get(l.id) ?? 0) + (elsewhere.get(l.id) ?? 0),
              (returns.get(l.id) ?? []).map((x) => x.trackingNumber),
              unprinted.get(l.platformLabelId),
            ),
          ),
          labelledAgainAt(ctx, r),
        ),
        total,
        offset: q.offset,
        ...(note ? { note } : {}),
      };
    },
    'labels.get': async ({ id }) => {
      const l = label(id);
      const reprints =
        (rt().reprints.counts([l.id]).get(l.id) ?? 0) + (await reprintsElsewhere(ctx, l.id)).length;
      const unprinted = ctx.spool.printOutcomes([l.platformLabelId]).get(l.platformLabelId);
      const [view] = withVoids(
        rt(),
        [labelView(l, brand(l.tenantId), reprints, [], unprinted)],
        labelledAgainAt(ctx, rt()),
      );
      return { ...view!, zpl: l.zpl };
    },
    'labels.printJob': async ({ id }) => {
      const job = ctx.spool.labelJob(label(id).platformLabelId);
      return { job: job ? printJobView(job, printerNamer(ctx)(job.printerId)) : null };
    },
    'labels.reprint': async ({ id, reason, printerId, packageIndex }) => {
      const r = rt();
      const l = label(id);
      const target = printerId ?? labelPrinterOf(r.profile);
      if (!target)
        throw new StationFailure(
          'printer-offline',
          `Profile ${r.profile.name} has no label printer; add one in Settings.`,
        );
      // Reprints beyond the site's count need a shift lead (issue 14); the approver is recorded.
      let stationUser = actor(ctx);
      // At a site, the other stations' reprints of this label count too.
      const done =
        (r.reprints.counts([l.id]).get(l.id) ?? 0) + (await reprintsElsewhere(ctx, l.id)).length;
      const limit = reprintsWithoutLead(ctx);
      if (done >= limit) {
        const lead = leadFor(ctx, {
          kind: 'reprint',
          orderNumber: l.orderNumber,
          reprints: done,
          limit,
        });
        if (lead && lead !== stationUser) stationUser = `${stationUser} (approved by ${lead})`;
      }
      const record = await r.reprints.reprint(r.scope, {
        labelId: l.id,
        printerId: target,
        stationUser,
        reason,
        packageIndex,
      });
      const job = record.printJobId ? ctx.spool.get(Number(record.printJobId)) : null;
      ctx.changed('queue');
      if (!job)
        throw new StationFailure(
          'internal',
          'The reprint was recorded but no print job came back.',
        );
      // The spool checked the bytes against the printer (its reported resolution included):
      // a 203-dpi label on a 300-dpi printer is said out loud, not printed small in silence.
      const payload = ctx.spool.payload(job.id);
      const warnings = payload ? ctx.spool.checkLabel(job.printerId, payload) : [];
      return printJobView(job, printerNamer(ctx)(job.printerId), warnings);
    },
    'labels.returnLabel': async ({ labelId, confirmAnother }) => {
      const r = rt();
      const l = label(labelId);
      // Without a client secret nothing can be bought: said in words, as pack.rate does.
      await ctx.profiles.clientSecret(r.profile, ctx.options.env ?? process.env);
      const result = await r.workflow.returnLabel(l.id, {
        stationUser: actor(ctx),
        confirmAnotherLabel: confirmAnother,
      });
      ctx.changed('queue');
      ctx.changed('attention');
      if (result.outcome === 'already-labelled')
        throw new StationFailure(
          'already-labelled',
          `A return label was already bought for ${l.trackingNumber} (${result.labels.map((x) => x.trackingNumber).join(', ')}). Confirm to buy another.`,
        );
      return purchaseView(ctx, r, result);
    },
    'labels.audit': async ({ labelId }) => {
      const r = rt();
      if (!labelId) return [];
      const l = label(labelId);
      const here = r.reprints.history(l.id).map((a) => ({
        id: String(a.id),
        labelId: String(a.labelId),
        trackingNumber: l.trackingNumber,
        orderNumber: l.orderNumber,
        user: a.stationUser,
        reason: a.reason,
        at: a.createdAt,
      }));
      // At a site, the other stations' reprints of this label too (the site's audit), with
      // where; a store that does not answer leaves this station's own, which it always has.
      const elsewhere = await reprintsElsewhere(ctx, l.id);
      if (!elsewhere.length) return here;
      return [
        ...here,
        ...elsewhere.map((x, i) => ({
          id: `${x.stationId}:${i}`,
          labelId: String(l.id),
          trackingNumber: l.trackingNumber,
          orderNumber: l.orderNumber,
          user: x.stationUser,
          reason: x.reason,
          at: x.at,
          stationName: x.stationName,
        })),
      ].sort((a, b) => a.at.localeCompare(b.at));
    },

    'attention.list': async () => attentionOf(ctx),
    'attention.resolve': async ({ id, action, note }) => {
      const r = rt();
      const [kind, key] = id.split(':') as [string, string | undefined];
      if (!key || !['purchase', 'shipment', 'print', 'import'].includes(kind))
        throw new StationFailure(
          'validation',
          `"${id}" is not an item of Needs attention; refresh the list and pick one.`,
        );
      let user = actor(ctx);
      const why = note?.trim() ? `: ${note.trim()}` : '';
      const na = new NeedsAttention(r.workflow);
      if (kind === 'purchase' && (action === 'mark-not-bought' || action === 'buy-again')) {
        // Both decide about money already possibly spent: a shift lead approves (issue 14).
        const p = r.workflow.shipments.purchase(key);
        const shipment = p ? r.workflow.shipments.get(p.shipmentId) : undefined;
        const orderNumber =
          (shipment && r.workflow.orders.get(shipment.orderId)?.orderNumber) ??
          p?.orderReference ??
          key;
        const lead = leadFor(ctx, {
          kind: action === 'buy-again' ? 'buy-another' : 'mark-not-bought',
          orderNumber,
        });
        if (lead && lead !== user) user = `${lead} (for ${user})`;
      }
      let message: string | undefined;
      if (kind === 'purchase') {
        if (action === 'check-trackers') {
          const found = await lookUpOnPlatform(na, key, user);
          if (!found.found) throw new StationFailure('not-found', found.message);
          const orderNumber =
            r.workflow.orders.get(found.label.orderId)?.orderNumber ?? found.label.orderReference;
          message = `Found on the platform: label ${found.label.trackingNumber} of order ${orderNumber}, stored${found.printed ? ' and sent to the label printer' : `; it did not print (${(found.failure?.message ?? 'not sent').replace(/\.$/, '')})`}.`;
        } else if (action === 'mark-not-bought') {
          na.markNotBought(
            key,
            user,
            note?.trim() ? `checked: not bought — ${note.trim()}` : 'checked: not bought',
          );
          message = `Released as not bought (by ${user}): the order can be scanned and bought again.`;
        } else if (action === 'buy-again') {
          await refuseIfLabelledElsewhere(ctx, key);
          const again = await na.buyAgain(key, { stationUser: user, confirm: true });
          message =
            'label' in again
              ? `Bought again: label ${again.label.trackingNumber}${again.outcome === 'printed' ? ', sent to the label printer' : ''}.`
              : `Asked again (${again.outcome.replaceAll('-', ' ')}): see Pack and History for how it ended.`;
        } else throw new StationFailure('validation', `${action} does not apply to a purchase.`);
      } else if (kind === 'shipment' && action === 'dismiss') {
        // The order's earlier failed attempts go with it: one order, one entry, one dismissal.
        const done = dismissFailedOrder(r.workflow, Number(key), user, note);
        if ('problem' in done)
          throw done.problem === 'not-found'
            ? new StationFailure('not-found', `No shipment ${key} in this profile.`)
            : new StationFailure(
                'conflict',
                `Shipment ${key} is ${done.state}, not failed; there is nothing to dismiss.`,
              );
      } else if (kind === 'import' && action === 'dismiss') {
        if (!r.importAlerts.dismiss(r.scope, Number(key), user))
          throw new StationFailure(
            'not-found',
            `No order file ${key} waiting under Needs attention.`,
          );
      } else if (
        kind === 'print' &&
        (action === 'retry' || action === 'cancel' || action === 'mark-printed')
      ) {
        if (action === 'retry') ctx.spool.retry(printJobId(key), `sent again by ${user}${why}`);
        else if (action === 'cancel')
          ctx.spool.cancel(printJobId(key), `cancelled by ${user}${why}`);
        else ctx.spool.markPrinted(printJobId(key), `marked printed by ${user}${why}`);
        if (action === 'mark-printed')
          message = `Print job ${key} marked printed by ${user}: it is not sent again.`;
      } else throw new StationFailure('validation', `${action} does not apply to ${id}.`);
      ctx.log(`needs attention ${id}: ${action} by ${user}${why}${message ? ` (${message})` : ''}`); // who, why
      ctx.changed('attention');
      return { resolved: true as const, ...(message ? { message } : {}) };
    },

    'tracking.board': async ({ status, search, offset, limit }) => {
      const r = rt();
      const filter = search ? { search } : {};
      const counts: Record<string, number> = {};
      for (const c of r.board.counts(r.trackingScope, filter)) counts[c.status] = c.count;
      // One page (at most 1000 rows): the board asks for the rows in view, never all of them.
      const rows = trackerRows(
        r,
        r.board.list(r.trackingScope, { ...filter, ...(status ? { status } : {}), limit, offset }),
      );
      const total = status
        ? (counts[status] ?? 0)
        : Object.values(counts).reduce((a, b) => a + b, 0);
      return { rows, total, offset, counts, sync: trackingSync(r) };
    },
    'carriers.list': async ({ refresh }) => {
      const r = rt();
      const health = refresh ? await r.refreshCarriers() : r.carriers();
      ctx.changed('status');
      return health.map(carrierView);
    },
  };
}

/**
 * The shift lead's "check trackers": a platform that does not answer is a reason to look again
 * later, said as such; the purchase stays under Needs attention, nothing changes.
 */
async function lookUpOnPlatform(na: NeedsAttention, purchaseId: string, user: string) {
  try {
    return await na.lookUp(purchaseId, user);
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    // The client's sentence may name the reference already: said once.
    const ref =
      error.correlationId && !error.message.includes(error.correlationId)
        ? ` (ref ${error.correlationId})`
        : '';
    throw new StationFailure(
      codeOf(`platform:${error.kind}`),
      `The platform's trackers could not be searched just now, so the purchase still needs attention: ${error.message.replace(/\.?\s*$/, '')}. Nothing was changed; check again in a moment${ref}.`,
      error.correlationId ? { correlationId: error.correlationId } : undefined,
    );
  }
}

/**
 * The other stations' reprints of one of this station's labels (the site's audit); none without
 * a site store, or while it does not answer (this station's own are always counted).
 */
async function reprintsElsewhere(ctx: StationContext, labelId: number): Promise<SiteReprint[]> {
  const link = ctx.site;
  if (!link) return [];
  const all = await link.reprintsOf(link.config.stationId, labelId).catch(() => []);
  return all.filter((x) => x.stationId !== link.config.stationId);
}

/**
 * Other stations' reprints of a page of this station's labels, as the site store has them: one
 * statement, waited for at most SITE_REFRESH_MS (a store away or slow leaves the page's own
 * counts, as before).
 */
async function pageReprintsElsewhere(
  ctx: StationContext,
  labelIds: number[],
): Promise<Map<number, number>> {
  const link = ctx.site;
  if (!link || labelIds.length === 0) return new Map();
  const none = new Map<number, number>();
  return within(
    link
      .askNow(() => link.store.reprintsElsewhere(link.config.stationId, labelIds))
      .catch(() => none),
    SITE_REFRESH_MS,
    none,
  );
}
