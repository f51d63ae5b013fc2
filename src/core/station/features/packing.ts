import { importOrders, formatOf } from '../../orders/order-import.js';
import type { StoredOrder } from '../../orders/types.js';
import { buildShipment } from '../../packing/build-shipment.js';
import { rateShipment } from '../../packing/rating.js';
import { classifyPlatformError } from '../../packing/platform-adapter.js';
import type { PackedPackage, Shipment, ShipResult } from '../../packing/types.js';
import { tenantsOf } from '../../profiles/profile-schema.js';
import type { ParsedInput } from '../../../shared/contract.js';
import type { ErrorCode } from '../../../shared/result.js';
import type { PurchaseView, RateQuote } from '../../../shared/views.js';
import type { StationContext } from '../context.js';
import type { Handlers } from '../dispatch.js';
import { StationFailure } from '../errors.js';
import { labelView, orderView, printJobView } from '../map.js';
import type { ProfileRuntime } from '../runtime.js';

/** Scan, rate, buy and print, and the order inbox: translation onto PackingWorkflow. */
export function packingHandlers(ctx: StationContext): Partial<Handlers> {
  const brandName = (rt: ProfileRuntime, tenantId: string) =>
    rt.profile.brandTenants.find((b) => b.tenantId === tenantId)?.name || null;
  const reprintCount = (labelId: number) => rt().reprints.history(labelId).length;
  const rt = () => ctx.runtime();

  function orderOf(id: string): StoredOrder {
    const r = rt();
    const order = r.workflow.orders.get(Number(id));
    if (
      !order ||
      order.profileId !== r.scope.profileId ||
      order.environment !== r.scope.environment
    )
      throw new StationFailure('not-found', `Order ${id} is not in this profile.`);
    return order;
  }

  function packed(
    order: StoredOrder,
    input: { weightLbs: number; boxId: string | null },
  ): PackedPackage[] {
    const box = input.boxId
      ? ctx.stationSettings().boxes.find((b) => b.id === input.boxId)
      : undefined;
    // One weight field on the screen: it is the first package's; further packages keep the
    // weights the order file gave them (or the same weight when it gave none).
    return order.packages.map((p, i) => ({
      weightLbs: i === 0 ? input.weightLbs : (p.weightLbs ?? input.weightLbs),
      ...(box && i === 0
        ? { box: box.code, lengthIn: box.lengthIn, widthIn: box.widthIn, heightIn: box.heightIn }
        : {}),
    }));
  }

  async function rate(input: ParsedInput<'pack.rate'>): Promise<RateQuote> {
    const r = rt();
    const order = orderOf(input.orderId);
    const built = buildShipment(r.profile, order, packed(order, input));
    if ('failure' in built)
      throw new StationFailure('validation', built.failure.message, built.failure.errors);
    const preview = { tenantId: order.tenantId, shipment: built.shipment } as Shipment;
    const rated = await rateShipment(r.platform, classifyPlatformError, r.profile, preview, order);
    const base = { orderId: input.orderId, orderNumber: order.orderNumber };
    switch (rated.kind) {
      case 'unreachable':
        return {
          ...base,
          rates: [],
          chosenRateId: null,
          accountIssues: [],
          queued: true,
          reason: `The platform is unreachable (${rated.failure.message}). Buy & print queues the shipment; it is labelled when the platform answers again.`,
        };
      case 'failed':
        throw new StationFailure(
          rated.failure.code === 'no-usable-rate' ? 'no-rates' : 'platform-rejected',
          rated.failure.message,
          { errors: rated.failure.errors, carrierProblems: rated.carrierProblems },
        );
      case 'rated': {
        const rates = rated.rates.shipmentRates.map((x, i) => ({
          id: String(i),
          carrierAccountId: x.carrierAccount.id,
          carrierAccountName: x.carrierAccount.name ?? null,
          carrier: x.carrier,
          serviceLevel: x.serviceLevel,
          amount: x.amount,
          currency: x.currency,
          transitDays: x.transitDays ?? null,
        }));
        const chosen = rated.rates.shipmentRates.indexOf(rated.selection.rate);
        return {
          ...base,
          rates,
          chosenRateId: chosen >= 0 ? String(chosen) : null,
          reason: rated.selection.reason,
          accountIssues: rated.carrierProblems.map((p) => ({
            carrierAccountId: p.carrierAccountId,
            name: p.name ?? p.carrierAccountId,
            carrier: p.carrier ?? '',
            status: p.authorizationStatus ?? p.errorCode,
            oauthUrl: p.oauthUrl ?? null,
          })),
          queued: false,
        };
      }
      default: {
        const never: never = rated;
        throw new Error(`unexpected ${JSON.stringify(never)}`);
      }
    }
  }

  async function buy(input: ParsedInput<'pack.buy'>): Promise<PurchaseView> {
    const r = rt();
    const order = orderOf(input.orderId);
    const result = await r.workflow.ship(order.id, {
      packages: packed(order, input),
      stationUser: ctx.stationSettings().userName,
      confirmAnotherLabel: input.confirmAnother,
    });
    ctx.changed('queue');
    ctx.changed('attention');
    return purchaseView(r, result);
  }

  function purchaseView(r: ProfileRuntime, result: ShipResult): PurchaseView {
    const fail = (code: ErrorCode, message: string, details?: unknown): never => {
      throw new StationFailure(code, message, details);
    };
    switch (result.outcome) {
      case 'printed': {
        const job = result.printJobId ? ctx.spool.get(Number(result.printJobId)) : null;
        const printer = r.profile.printers.find((p) => p.id === job?.printerId);
        return {
          outcome: 'printing',
          label: labelView(result.label, brandName(r, result.label.tenantId), 0),
          printJob: job ? printJobView(job, printer?.name ?? job.printerId) : null,
          message: `${result.selection.reason.replace(/\.$/, '')}. Sent to ${printer?.name ?? 'the printer'}.`,
        };
      }
      case 'purchased-not-printed':
        return {
          outcome: 'print-waiting',
          label: labelView(result.label, brandName(r, result.label.tenantId), 0),
          printJob: null,
          message: result.failure.message,
        };
      case 'queued':
        return {
          outcome: 'queued-offline',
          label: null,
          printJob: null,
          message: result.failure.message,
        };
      case 'already-labelled':
        return fail(
          'already-labelled',
          `Order already has a label (${result.labels.map((l) => l.trackingNumber).join(', ')}). Reprint it, or confirm buying another.`,
          { labels: result.labels.map((l) => labelView(l, null, 0)) },
        );
      case 'needs-attention':
        return fail(
          'purchase-outcome-unknown',
          'An earlier purchase of this order has an unknown outcome. A shift lead must resolve it under Needs attention before buying again.',
        );
      case 'invalid':
        return fail('validation', result.failure.message, result.failure.errors);
      case 'failed': {
        const notAuthorized =
          result.failure.code === 'CONNECTION_NOT_AUTHORIZED' ||
          (result.carrierProblems.some((p) => p.errorCode === 'CONNECTION_NOT_AUTHORIZED') &&
            result.failure.code === 'no-usable-rate');
        return fail(
          notAuthorized
            ? 'connection-not-authorized'
            : result.failure.code === 'no-usable-rate'
              ? 'no-rates'
              : 'purchase-failed',
          result.failure.message,
          {
            errors: result.failure.errors ?? [],
            correlationId: result.failure.correlationId,
            carrierProblems: result.carrierProblems,
          },
        );
      }
      case 'unknown':
        return fail('purchase-outcome-unknown', result.failure.message);
      default: {
        const never: never = result;
        throw new Error(`unexpected ${JSON.stringify(never)}`);
      }
    }
  }

  return {
    'pack.scan': async ({ value }) => {
      const box = ctx
        .stationSettings()
        .boxes.find((b) => b.code.toLowerCase() === value.toLowerCase());
      if (box) return { kind: 'box', box };
      const r = rt();
      const found = r.workflow.lookup(value);
      switch (found.kind) {
        case 'order':
          return {
            kind: 'order',
            order: orderView(
              found.order,
              brandName(r, found.order.tenantId),
              found.labels.length ? 'labelled' : 'open',
            ),
            existingLabels: found.labels.map((l) =>
              labelView(l, brandName(r, l.tenantId), reprintCount(l.id)),
            ),
          };
        case 'label':
          return {
            kind: 'label',
            label: labelView(
              found.label,
              brandName(r, found.label.tenantId),
              reprintCount(found.label.id),
            ),
          };
        case 'ambiguous':
          throw new StationFailure(
            'conflict',
            `${found.orders.length} orders are numbered ${found.scanned} (brands ${found.orders.map((o) => o.tenantId).join(', ')}).`,
          );
        case 'not-found':
          return { kind: 'not-found', value: found.scanned };
        default: {
          const never: never = found;
          throw new Error(`unexpected ${JSON.stringify(never)}`);
        }
      }
    },
    'pack.rate': rate,
    'pack.buy': buy,
    'orders.import': async ({ fileName, content }) => {
      const r = rt();
      const format = formatOf(fileName);
      if (!format)
        throw new StationFailure(
          'validation',
          `${fileName}: only .csv and .json order files can be imported.`,
        );
      const report = importOrders(
        r.workflow.orders,
        r.scope,
        { defaultTenantId: r.profile.tenantId, allowedTenantIds: tenantsOf(r.profile) },
        { text: content, format, source: fileName },
      );
      ctx.changed('orders');
      return {
        imported: report.imported.length + report.updated.length,
        skipped: report.unchanged.length,
        errors: report.problems.map((p) => ({ row: p.row, field: p.field, reason: p.reason })),
      };
    },
    'orders.list': async ({ limit }) => {
      const r = rt();
      return r.workflow.orders
        .recent(r.scope, limit)
        .map((o) => orderView(o, brandName(r, o.tenantId), 'open'));
    },
  };
}
