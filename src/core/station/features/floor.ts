import type { LabelVoid } from '../../labels/voids.js';
import type { OrderListQuery } from '../../orders/order-list.js';
import type { StoredOrder } from '../../orders/types.js';
import type { BatchSummary } from '../../packing/batch.js';
import { MAX_BATCH_ORDERS } from '../../packing/batch.js';
import type { VerificationState } from '../../packing/verification.js';
import type { Profile } from '../../profiles/profile-schema.js';
import type { ParsedInput } from '../../../shared/contract.js';
import type * as V from '../../../shared/views.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { floorCalls } from '../../../shared/features/floor.js';
import { StationFailure } from '../errors.js';
import { brandName } from '../map.js';
import { endOfDayHandlers } from './end-of-day.js';
import { cancelOrders, reopenOrders } from '../../packing/order-cancel.js';
import { actor, leadFor } from './users.js';
import type { ProfileRuntime } from '../runtime.js';
import { SITE_REFRESH_MS, within } from './scan-site.js';

/** What the packer sees of an order's verification. */
export function verificationView(state: VerificationState, profile: Profile): V.VerificationView {
  return {
    orderId: String(state.orderId),
    required: profile.requireItemVerification === true,
    lines: state.lines.map((l) => ({
      key: l.key,
      package: l.packageIndex + 1,
      sku: l.sku,
      name: l.name,
      barcode: l.barcode,
      imageUrl: l.imageUrl,
      quantity: l.quantity,
      scanned: l.scanned,
    })),
    complete: state.complete,
    verified: state.verified,
    override: state.override,
  };
}

/**
 * A batch as the Orders view shows it. With the spool: how many of its labels are bought but
 * still waiting for their printer (a batch "done" while its labels sit at a dead printer is
 * not done for the shift lead).
 */
export function batchView(
  s: BatchSummary,
  spool?: { pendingLabelJob(labelId: string): unknown },
): V.BatchView {
  const printWaiting = spool
    ? s.items.filter(
        (i) =>
          i.state === 'bought' &&
          i.platformLabelId !== null &&
          spool.pendingLabelJob(i.platformLabelId),
      ).length
    : 0;
  return {
    printWaiting,
    heldBy: s.heldBy,
    waitingForPrinter: s.waitingForPrinter,
    id: s.id,
    state: s.state,
    description: s.description,
    createdBy: s.createdBy,
    createdAt: s.createdAt,
    total: s.total,
    done: s.done,
    bought: s.bought,
    failed: s.failed,
    skipped: s.skipped,
    unknown: s.unknown,
    queued: s.queued,
    waiting: s.waiting,
    cost: s.costCents / 100,
    items: s.items.map((i) => ({
      orderId: String(i.orderId),
      orderNumber: i.orderNumber,
      state: i.state,
      trackingNumber: i.trackingNumber,
      cost: i.costCents === null ? null : i.costCents / 100,
      reason: i.reason,
    })),
  };
}

/** Who a lead's action is recorded for: the signed-in user, and the lead who approved it. */
function approved(ctx: StationContext, lead: string | null): string {
  const user = actor(ctx);
  return lead && lead !== user ? `${user} (approved by ${lead})` : user;
}

type Filter = NonNullable<ParsedInput<'batch.start'>['filter']>;
const listQuery = (f: Filter): OrderListQuery => ({
  search: f.search,
  statuses: f.statuses,
  tenantId: f.tenantId,
  singleItem: f.singleItem,
  weightKnown: f.weightKnown,
});

/**
 * The packing floor (issue 15): the Orders view, scan to verify, batch printing and the end of
 * day, as translations onto the core (OrderList, ItemVerification, BatchRunner, endOfDay).
 */
export function floorHandlers(ctx: StationContext): FeatureHandlers<typeof floorCalls> {
  const rt = (): ProfileRuntime => ctx.runtime();

  function orderOf(r: ProfileRuntime, id: string): StoredOrder {
    const order = r.workflow.orders.get(Number(id));
    if (
      !order ||
      order.profileId !== r.scope.profileId ||
      order.environment !== r.scope.environment
    )
      throw new StationFailure('not-found', `Order ${id} is not in this profile.`);
    return order;
  }

  /**
   * A labelled order whose every label here was voided at the carrier: what next, unless another
   * station of the site has labelled it again since (as kept here), which is then named.
   */
  const relabelledReason = (v: LabelVoid, tenantId: string, orderNumber: string) => {
    const holder = ctx.site?.labelledElsewhere(rt().scope, tenantId, orderNumber);
    return holder?.label
      ? `its label here was voided at the carrier (${v.reason}); labelled again at ${holder.stationName} (${holder.label.trackingNumber})`
      : `its label was voided at the carrier (${v.reason}): buy another at Pack (scan it, then Ctrl+Shift+A)`;
  };

  return {
    'orders.page': async (input) => {
      const r = rt();
      const page = r.orderList.page(r.scope, {
        ...listQuery(input),
        siteLabels: Boolean(ctx.site),
        limit: input.limit,
        offset: input.offset,
      });
      // Labelled at another station of the site (as kept here): where, by whom, which label, and
      // whether it was voided at the carrier there since (asked of the store, as a scan does: the
      // labels kept here carry no marks; unanswered within a scan's wait, the row reads as kept).
      const holders = new Map(
        page.rows
          .filter((o) => o.labelledElsewhere)
          .map((o) => [o.id, ctx.site?.labelledElsewhere(r.scope, o.tenantId, o.orderNumber)]),
      );
      const held = [...holders.values()].flatMap((h) =>
        h?.label ? [{ stationId: h.stationId, localId: h.label.localId }] : [],
      );
      const voidsThere =
        held.length && ctx.site
          ? await within(ctx.site.labelVoids(held), SITE_REFRESH_MS, undefined)
          : undefined;
      const elsewhereReason = (o: (typeof page.rows)[number]) => {
        const holder = holders.get(o.id);
        if (!holder?.label) return null;
        const where = `labelled at ${holder.stationName}${holder.packer ? ` by ${holder.packer}` : ''} (${holder.label.trackingNumber})`;
        const voided = voidsThere?.get(`${holder.stationId}:${holder.label.localId}`);
        return voided
          ? `${where}, and that label was voided at the carrier there (${voided.reason}): buy another at Pack (scan it, then Ctrl+Shift+A)`
          : `${where}: reprint it from Pack or History (whole site)`;
      };
      // A labelled order whose every label was voided at the carrier says so, and what next.
      const voided = r.voids.allVoidedOf(
        page.rows.filter((o) => o.status === 'labelled').map((o) => o.id),
      );
      return {
        rows: page.rows.map((o) => ({
          id: String(o.id),
          orderNumber: o.orderNumber,
          brandName: brandName(r.profile, o.tenantId),
          shipToName: o.shipTo.name ?? o.shipTo.company ?? '',
          place: [o.shipTo.city, o.shipTo.stateProvince, o.shipTo.countryCode]
            .filter(Boolean)
            .join(', '),
          packages: o.packageCount,
          units: o.unitCount,
          weightKnown: o.weightKnown,
          status: o.status,
          reason: o.labelledElsewhere
            ? elsewhereReason(o)
            : voided.has(o.id)
              ? relabelledReason(voided.get(o.id)!, o.tenantId, o.orderNumber)
              : o.reason,
          importedAt: o.importedAt,
        })),
        total: page.total,
        offset: page.offset,
        counts: page.counts,
      };
    },

    'orders.cancel': async ({ orderIds, reason }) => {
      const r = rt();
      const ids = orderIds.map((id) => orderOf(r, id).id);
      const by = approved(
        ctx,
        leadFor(ctx, { kind: 'cancel-orders', orders: ids.length, reopen: false }),
      );
      const out = cancelOrders(r.workflow, ids, by, reason);
      ctx.ordersChanged({ orderIds });
      if (out.done.length) ctx.log(`orders cancelled by ${by} (${reason}): ${out.done.join(', ')}`);
      return out;
    },
    'orders.reopen': async ({ orderIds, reason }) => {
      const r = rt();
      const ids = orderIds.map((id) => orderOf(r, id).id);
      const by = approved(
        ctx,
        leadFor(ctx, { kind: 'cancel-orders', orders: ids.length, reopen: true }),
      );
      const out = reopenOrders(r.workflow, ids);
      ctx.ordersChanged({ orderIds });
      if (out.done.length) ctx.log(`orders reopened by ${by} (${reason}): ${out.done.join(', ')}`);
      return out;
    },

    'verify.scan': async ({ orderId, value, quantity }) => {
      const r = rt();
      const order = orderOf(r, orderId);
      const result = r.workflow.verification.scan(order, value, {
        quantity,
        stationUser: actor(ctx),
      });
      ctx.ordersChanged({ orderIds: [orderId] });
      const verification = verificationView(result.state, r.profile);
      if (result.kind === 'counted') {
        const l = result.line;
        return {
          outcome: 'counted',
          lineKey: l.key,
          message: `${quantity > 1 ? `${quantity} × ` : ''}${l.sku}: ${l.scanned} of ${l.quantity}.${result.state.complete ? ' Every item is in the box.' : ''}`,
          verification,
        };
      }
      return {
        outcome: result.kind,
        lineKey: result.kind === 'too-many' ? result.line.key : null,
        message: result.message,
        verification,
      };
    },
    'verify.override': async ({ orderId, by, reason }) => {
      const r = rt();
      const state = r.workflow.verification.override(orderOf(r, orderId), by, reason);
      ctx.ordersChanged({ orderIds: [orderId] });
      return verificationView(state, r.profile);
    },
    'verify.reset': async ({ orderId }) => {
      const r = rt();
      const state = r.workflow.verification.reset(orderOf(r, orderId), actor(ctx));
      ctx.ordersChanged({ orderIds: [orderId] });
      return verificationView(state, r.profile);
    },

    'batch.start': async ({ orderIds, filter, description }) => {
      const r = rt();
      if (!orderIds?.length && !filter)
        throw new StationFailure('validation', 'Pick some orders, or a filter, for the batch.');
      const ids = orderIds?.length
        ? orderIds.map((id) => orderOf(r, id).id)
        : r.orderList.ids(
            r.scope,
            { ...listQuery(filter!), siteLabels: Boolean(ctx.site) },
            MAX_BATCH_ORDERS + 1,
          );
      if (ids.length === 0) throw new StationFailure('validation', 'No order matches the filter.');
      if (ids.length > MAX_BATCH_ORDERS)
        throw new StationFailure(
          'validation',
          `More than ${MAX_BATCH_ORDERS} orders match; narrow the filter (a batch holds at most ${MAX_BATCH_ORDERS}).`,
        );
      if (r.batches.list(50).some((b) => b.state === 'running' && r.batches.isRunning(b.id)))
        throw new StationFailure('conflict', 'A batch is running; pause or stop it first.');
      const batch = r.batches.create({
        orderIds: ids,
        description: description || `${ids.length} order${ids.length === 1 ? '' : 's'}`,
        createdBy: actor(ctx),
      });
      void r.batches
        .run(batch.id)
        .catch((e: unknown) => ctx.log(`batch ${batch.id}: ${String(e)}`));
      return batchView(batch, ctx.spool);
    },
    'batch.control': async ({ id, action }) => {
      const r = rt();
      let summary: BatchSummary | undefined;
      if (action === 'pause') summary = r.batches.pause(id);
      else if (action === 'stop') summary = r.batches.stop(id);
      else {
        summary = r.batches.summary(id);
        if (summary && summary.state === 'paused')
          void r.batches.run(id).catch((e: unknown) => ctx.log(`batch ${id}: ${String(e)}`));
        summary = r.batches.summary(id);
      }
      if (!summary) throw new StationFailure('not-found', `No batch ${id} in this profile.`);
      return batchView(summary, ctx.spool);
    },
    'batch.list': async () =>
      rt()
        .batches.list(20)
        .map((b) => batchView(b, ctx.spool)),

    ...endOfDayHandlers(ctx),
  };
}
