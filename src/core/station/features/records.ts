import { NeedsAttention } from '../../packing/needs-attention.js';
import type { StoredLabel } from '../../labels/types.js';
import { labelPrinterOf } from '../../profiles/profile-schema.js';
import type { AttentionItem, TrackerRow } from '../../../shared/views.js';
import type { StationContext } from '../context.js';
import type { Handlers } from '../dispatch.js';
import { StationFailure } from '../errors.js';
import { brandName, carrierView, labelView, printJobView } from '../map.js';

/** History (label cache, reprints), needs attention, queues, tracking and carrier accounts. */
export function recordHandlers(ctx: StationContext): Partial<Handlers> {
  const rt = () => ctx.runtime();
  const brand = (tenantId: string) => brandName(rt().profile, tenantId);
  const printerName = (id: string) => rt().profile.printers.find((p) => p.id === id)?.name ?? id;
  const label = (id: string) => {
    const r = rt();
    const l = r.workflow.labels.get(Number(id));
    if (!l || l.profileId !== r.scope.profileId || l.environment !== r.scope.environment)
      throw new StationFailure('not-found', `Label ${id} is not in this profile.`);
    return l;
  };

  return {
    'labels.search': async (q) => {
      const r = rt();
      const query = q.query?.trim();
      const page = r.workflow.labels.searchSummaries(r.scope, {
        ...(query
          ? /^\d{6,}$|^1Z|^[A-Z]{2}\d/.test(query) &&
            !r.workflow.orders.findByNumber(r.scope, query).length
            ? { trackingNumber: query }
            : { orderNumber: query }
          : {}),
        ...(q.tenantId ? { tenantId: q.tenantId } : {}),
        ...(q.from ? { from: new Date(q.from).toISOString() } : {}),
        ...(q.to ? { to: new Date(Date.parse(q.to) + 86_400_000).toISOString() } : {}),
        limit: Math.min(q.limit, 500),
      });
      let labels: (typeof page.labels)[number][] | StoredLabel[] = page.labels;
      if (query && labels.length === 0) {
        const byTracking = r.workflow.labels.findByTracking(r.scope, query);
        labels = byTracking ? [byTracking] : [];
      }
      // One query for the reprint counts of the whole page, not one per row.
      const reprints = r.reprints.counts(labels.map((l) => l.id));
      return {
        labels: labels.map((l) => labelView(l, brand(l.tenantId), reprints.get(l.id) ?? 0)),
        total: labels.length,
      };
    },
    'labels.get': async ({ id }) => {
      const l = label(id);
      const reprints = rt().reprints.counts([l.id]).get(l.id) ?? 0;
      return { ...labelView(l, brand(l.tenantId), reprints), zpl: l.zpl };
    },
    'labels.reprint': async ({ id, reason, printerId }) => {
      const r = rt();
      const l = label(id);
      const target = printerId ?? labelPrinterOf(r.profile);
      if (!target)
        throw new StationFailure(
          'printer-offline',
          `Profile ${r.profile.name} has no label printer; add one in Settings.`,
        );
      const record = await r.reprints.reprint(r.scope, {
        labelId: l.id,
        printerId: target,
        stationUser: ctx.stationSettings().userName,
        reason,
      });
      const job = record.printJobId ? ctx.spool.get(Number(record.printJobId)) : null;
      ctx.changed('queue');
      if (!job)
        throw new StationFailure(
          'internal',
          'The reprint was recorded but no print job came back.',
        );
      return printJobView(job, printerName(job.printerId));
    },
    'labels.audit': async ({ labelId }) => {
      const r = rt();
      if (!labelId) return [];
      const l = label(labelId);
      return r.reprints.history(l.id).map((a) => ({
        id: String(a.id),
        labelId: String(a.labelId),
        trackingNumber: l.trackingNumber,
        orderNumber: l.orderNumber,
        user: a.stationUser,
        reason: a.reason,
        at: a.createdAt,
      }));
    },

    'attention.list': async () => {
      const r = rt();
      const items: AttentionItem[] = [];
      for (const a of new NeedsAttention(r.workflow).list())
        items.push({
          id: `purchase:${a.purchase.id}`,
          kind: 'purchase-unknown',
          orderNumber: a.orderNumber,
          title: `Order ${a.orderNumber}: purchase outcome unknown`,
          detail: `${a.failure?.message ?? 'The station did not hear back.'} Look it up on the platform before deciding (reference ${a.orderReference}).`,
          reasons: [],
          createdAt: a.since,
          actions: ['check-trackers', 'mark-not-bought', 'buy-again'],
        });
      for (const s of r.workflow.shipments.inState(r.scope, 'failed')) {
        const order = r.workflow.orders.get(s.orderId);
        items.push({
          id: `shipment:${s.id}`,
          kind: 'purchase-failed',
          orderNumber: order?.orderNumber ?? null,
          title: `Order ${order?.orderNumber ?? s.orderId}: no label`,
          detail: s.failure?.message ?? 'The platform refused the shipment.',
          reasons: (s.failure?.errors ?? []).map((e) => `${e.field}: ${e.message}`),
          createdAt: s.updatedAt,
          actions: ['dismiss'],
        });
      }
      for (const j of ctx.spool.list({ states: ['failed', 'unknown'] }))
        items.push({
          id: `print:${j.id}`,
          kind: 'print-failed',
          orderNumber: j.orderReference,
          title: `Print job ${j.id} on ${printerName(j.printerId)} ${j.state === 'unknown' ? 'may not have printed' : 'failed'}`,
          detail: j.lastError ?? '',
          reasons: [],
          createdAt: j.updatedAt,
          actions: ['retry', 'cancel'],
        });
      return items;
    },
    'attention.resolve': async ({ id, action }) => {
      const r = rt();
      const [kind, key] = id.split(':') as [string, string];
      const user = ctx.stationSettings().userName;
      const na = new NeedsAttention(r.workflow);
      if (kind === 'purchase') {
        if (action === 'check-trackers') {
          const found = await na.lookUp(key, user);
          if (!found.found) throw new StationFailure('not-found', found.message);
        } else if (action === 'mark-not-bought') na.markNotBought(key, user);
        else if (action === 'buy-again')
          await na.buyAgain(key, { stationUser: user, confirm: true });
        else throw new StationFailure('validation', `${action} does not apply to a purchase.`);
      } else if (kind === 'shipment' && action === 'dismiss') {
        r.workflow.shipments.setState(Number(key), 'cancelled', { dismissedBy: user });
      } else if (kind === 'print' && (action === 'retry' || action === 'cancel')) {
        if (action === 'retry') ctx.spool.retry(Number(key));
        else ctx.spool.cancel(Number(key));
      } else throw new StationFailure('validation', `${action} does not apply to ${id}.`);
      ctx.changed('attention');
      return { resolved: true as const };
    },

    'queue.list': async () => {
      const r = rt();
      const shipments = r.workflow.queue
        .list(r.scope, 200)
        .filter(
          (q) =>
            q.state !== 'done' && r.workflow.shipments.get(q.shipmentId)?.state !== 'cancelled',
        )
        .map((q) => {
          const s = r.workflow.shipments.get(q.shipmentId);
          const order = s ? r.workflow.orders.get(s.orderId) : undefined;
          return {
            id: String(q.id),
            orderNumber: order?.orderNumber ?? String(q.shipmentId),
            state: q.state,
            attempts: q.attempts,
            lastError: q.lastError,
            createdAt: q.createdAt,
          };
        });
      const printJobs = ctx.spool
        .list({ limit: 200 })
        .filter((j) => j.state !== 'printed' && j.state !== 'cancelled')
        .map((j) => printJobView(j, printerName(j.printerId)));
      return { shipments, printJobs };
    },
    'queue.retry': async ({ kind, id }) => {
      if (kind === 'print-job') ctx.spool.retry(Number(id));
      else void rt().drainer.drain(true);
      ctx.changed('queue');
      return { done: true as const };
    },
    'queue.cancel': async ({ kind, id }) => {
      const r = rt();
      if (kind === 'print-job') ctx.spool.cancel(Number(id));
      else {
        const entry = r.workflow.queue.get(Number(id));
        if (!entry) throw new StationFailure('not-found', `No queued shipment ${id}.`);
        if (!r.workflow.cancelQueued(entry.shipmentId, ctx.stationSettings().userName))
          throw new StationFailure('conflict', 'That shipment is no longer waiting in the queue.');
      }
      ctx.changed('queue');
      return { done: true as const };
    },
    'queue.move': async ({ id, printerId }) => {
      ctx.spool.move(Number(id), printerId);
      ctx.changed('queue');
      return { done: true as const };
    },

    'tracking.board': async ({ status, search, offset, limit }) => {
      const r = rt();
      const filter = search ? { search } : {};
      const counts: Record<string, number> = {};
      for (const c of r.board.counts(r.trackingScope, filter)) counts[c.status] = c.count;
      const rows: TrackerRow[] = [];
      // The board answers in pages of at most 1000; the renderer virtualises whatever it gets.
      for (let at = offset; rows.length < limit; at += 1000) {
        const page = r.board.list(r.trackingScope, {
          ...filter,
          ...(status ? { status } : {}),
          limit: Math.min(1000, limit - rows.length),
          offset: at,
        });
        rows.push(
          ...page.map((t) => ({
            id: t.trackerId ?? t.trackingNumber,
            trackingNumber: t.trackingNumber,
            carrier: t.carrier ?? '',
            status: t.status,
            statusDetail: t.statusDetail,
            orderReference: t.orderReference,
            tenantId: t.tenantId,
            estimatedDeliveryDate: t.estimatedDeliveryDate,
            updatedAt: t.updatedAt,
          })),
        );
        if (page.length < 1000) break;
      }
      const total = status
        ? (counts[status] ?? 0)
        : Object.values(counts).reduce((a, b) => a + b, 0);
      return { rows, total, counts };
    },
    'carriers.list': async ({ refresh }) => {
      const r = rt();
      const health = refresh ? await r.health.refresh() : r.health.cached();
      ctx.changed('status');
      return health.map(carrierView);
    },
  };
}
