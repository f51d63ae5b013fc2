import { offeredServiceLevels } from '../../tracking/carrier-health.js';
import {
  importOrdersInSlices,
  chosenFileFormatOf,
  importedNone,
} from '../../orders/order-import.js';
import type { StoredOrder } from '../../orders/types.js';
import { importError } from '../../orders/import-error.js';
import { scanHandler } from './pack-scan.js';
import type { PackedPackage } from '../../packing/types.js';
import { tenantsOf, type Profile } from '../../profiles/profile-schema.js';
import type { ParsedInput } from '../../../shared/contract.js';
import type { StationContext } from '../context.js';
import type { BuyingView } from '../../../shared/views.js';
import { actor, leadFor } from './users.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import {
  MAPPABLE_COLUMNS,
  REQUIRED_MAPPED_COLUMNS,
  type packingCalls,
} from '../../../shared/features/packing.js';
import { suggestedMapping } from '../../orders/store-formats.js';
import { optionsFromView } from '../map.js';
import { StationFailure } from '../errors.js';
import { brandName, orderView } from '../map.js';
import { purchaseView, quoteView } from './pack-views.js';
import { hasFailedRating } from '../../packing/failed-ratings.js';
import { shippingChangedSince } from '../../packing/order-changed.js';
import { takeSiteVersion } from './site-order-refresh.js';
import { cancelClosedOrder } from '../../packing/order-cancel.js';

/** What the person mapping columns sees for each required station column. */
const MAPPED_COLUMN_WORDS: Record<(typeof REQUIRED_MAPPED_COLUMNS)[number], string> = {
  order_number: 'the order number',
  ship_to_address1: 'the street address',
  ship_to_city: 'the city',
  ship_to_postal_code: 'the postal code',
  ship_to_country: 'the country',
};

/**
 * Scan, rate, buy and print, and the order inbox: translation onto PackingWorkflow, nothing
 * more. Rating keeps a shipment in state `rated`; buying buys that shipment (two platform round
 * trips per label).
 */
export function packingHandlers(ctx: StationContext): FeatureHandlers<typeof packingCalls> {
  const rt = () => ctx.runtime();
  /** What `pack.buy` is buying now, by shipment: `pack.buying` tells a page opened meanwhile. */
  const buying = new Map<number, BuyingView & { profileId: string }>();
  /**
   * Without a client secret no call can succeed; saying so beats queueing the order "until the
   * platform answers" when it never will.
   */
  const needsSecret = async (profile: Profile) => {
    // The same check the token request makes: a secret given for another address does not count.
    await ctx.profiles.clientSecret(profile, ctx.options.env ?? process.env);
  };

  function orderOf(id: string): StoredOrder {
    const r = rt();
    const order = r.orders.get(Number(id));
    if (
      !order ||
      order.profileId !== r.scope.profileId ||
      order.environment !== r.scope.environment
    )
      throw new StationFailure('not-found', `Order ${id} is not in this profile.`);
    return order;
  }

  /** One entry per package: its own weight (null: not weighed) and box preset. */
  function packed(packages: ParsedInput<'pack.rate'>['packages']): PackedPackage[] {
    const boxes = ctx.stationSettings().boxes;
    return packages.map((p, i) => {
      const box = p.boxId ? boxes.find((b) => b.id === p.boxId) : undefined;
      if (p.boxId && !box)
        throw new StationFailure(
          'validation',
          `Package ${i + 1}: box ${p.boxId} is not one of the station's box presets.`,
        );
      return {
        weightLbs: p.weightLbs,
        ...(box
          ? { box: box.code, lengthIn: box.lengthIn, widthIn: box.widthIn, heightIn: box.heightIn }
          : {}),
      };
    });
  }

  return {
    'pack.scan': scanHandler(ctx),
    'pack.rate': async (input) => {
      const r = rt();
      await needsSecret(r.profile);
      const order = orderOf(input.orderId);
      const wasFailed = hasFailedRating(r.workflow, order.id);
      const result = await r.workflow.rate(order.id, {
        packages: packed(input.packages),
        stationUser: actor(ctx),
        confirmAnotherLabel: input.confirmAnother,
        queueIfUnreachable: input.queue,
        ...(input.options ? { options: optionsFromView(input.options) } : {}),
      });
      if (result.outcome === 'queued') ctx.changed('queue');
      // A failed rating is listed under Needs attention; a new rating (rated, or queued for the
      // platform) takes an old one off. Anything else leaves the list as it was: no event, so
      // the list and the header's counts are not read again after every good scan.
      const cleared = wasFailed && (result.outcome === 'rated' || result.outcome === 'queued');
      if (result.outcome === 'failed' || cleared) ctx.changed('attention');
      if (result.outcome === 'rated' || result.outcome === 'failed')
        r.noticeCarrierProblems(
          result.carrierProblems,
          result.outcome === 'rated' && result.preRated ? order.tenantId : undefined,
        );
      return quoteView(input.orderId, order.orderNumber, result, r.profile);
    },
    'pack.changedSince': async ({ shipmentId }) => {
      const { workflow } = rt();
      const shipment = workflow.shipments.get(Number(shipmentId));
      const order = shipment && workflow.orders.get(shipment.orderId);
      if (!shipment || !order || order.profileId !== rt().scope.profileId) return { what: null };
      return { what: shippingChangedSince(shipment, order) };
    },
    'pack.buying': async () => {
      const profileId = ctx.runtimeOrNull()?.scope.profileId;
      return {
        orders: [...buying.values()]
          .filter((b) => b.profileId === profileId)
          .map(({ orderId, orderNumber, since }) => ({ orderId, orderNumber, since })),
      };
    },
    'pack.buy': async (input) => {
      const r = rt();
      await needsSecret(r.profile);
      const shipmentId = Number(input.shipmentId);
      if (!Number.isSafeInteger(shipmentId))
        throw new StationFailure('not-found', `No shipment ${input.shipmentId} in this profile.`);
      const stationUser = actor(ctx);
      // Another label for an order that has one needs a shift lead (issue 14).
      const lead = input.confirmAnother
        ? leadFor(ctx, {
            kind: 'buy-another',
            orderNumber:
              r.workflow.orders.get(r.workflow.shipments.get(shipmentId)?.orderId ?? -1)
                ?.orderNumber ?? input.shipmentId,
          })
        : null;
      const order = r.workflow.orders.get(r.workflow.shipments.get(shipmentId)?.orderId ?? -1);
      // A corrected version imported at another station since these rates were asked: taken
      // here first, so the buy refuses the old version's rates as for a re-import here.
      if (order && !input.confirmAnother) await takeSiteVersion(ctx, order);
      // A second buy of a shipment already being bought (another tab) is refused as busy: the
      // first purchase stays listed until it is done (it used to be struck off by the refusal).
      const mine = order !== undefined && !buying.has(shipmentId);
      if (mine && order)
        buying.set(shipmentId, {
          orderId: String(order.id),
          orderNumber: order.orderNumber,
          since: new Date().toISOString(),
          profileId: r.scope.profileId,
        });
      const result = await r.workflow
        .buy(shipmentId, {
          rate: input.rate ?? undefined,
          stationUser,
          confirmAnotherLabel: input.confirmAnother,
          ...(lead ? { confirmedBy: lead } : {}),
        })
        .finally(() => {
          if (mine) buying.delete(shipmentId);
        });
      ctx.changed('queue');
      // A label bought and handed to the printer adds nothing to Needs attention (its print job
      // signals for itself if it gets stuck); any other outcome may (unknown, refused, queued).
      if (result.outcome !== 'printed') ctx.changed('attention');
      if (result.outcome === 'failed') {
        r.noticeCarrierProblems(result.carrierProblems);
        // Bought against an account whose connection has just expired: the banner should know.
        if (result.failure.code === 'CONNECTION_NOT_AUTHORIZED')
          void r.refreshCarriers().catch(() => {});
      }
      // The first label since the printer was away (or since start): its resolution was asked
      // while the platform answered; the panel's size warning waits for that word (≤ 2 s: a
      // printer answers in milliseconds, a station busy with an import or a batch slower).
      if (result.outcome === 'printed' && result.printJobId) {
        const printerId = ctx.spool.get(Number(result.printJobId))?.printerId;
        if (printerId) await ctx.spool.dpiAnswered(printerId, 2000);
      }
      return purchaseView(ctx, r, result);
    },
    'orders.import': async ({ fileName, content }) => {
      const r = rt();
      const format = chosenFileFormatOf(fileName);
      if (!format)
        throw new StationFailure(
          'validation',
          `${fileName}: only .csv, .tsv, .txt (tab-separated) and .json order files can be imported.`,
        );
      // One import per file for the whole site (issue 12).
      const site = ctx.site;
      const elsewhere = await site?.claimFile(r.scope, content, fileName);
      if (elsewhere) throw new StationFailure('conflict', elsewhere);
      // A file that brought in nothing (or failed) is not kept as imported for the site.
      const release = () => site?.releaseFile(r.scope, content);
      // In slices: a 100,000-order file must not hold up the packer's scans meanwhile.
      const report = await importOrdersInSlices(
        r.orders,
        r.scope,
        {
          defaultTenantId: r.profile.tenantId,
          allowedTenantIds: tenantsOf(r.profile),
          shipFromCountry: r.profile.shipFrom.countryCode,
          offeredServiceLevels: (tenantId) => offeredServiceLevels(r.carriers(), tenantId),
          brandName: (tenantId) => brandName(r.profile, tenantId),
        },
        { text: content, format, source: fileName },
        {
          onProgress: (p) => ctx.events.emit('import-progress', { fileName, ...p }),
          mappings: r.profile.orderColumnMappings ?? [],
          // An open order the file says the store cancelled or shipped: cancelled here.
          cancelClosed: cancelClosedOrder(r.workflow, ctx.log),
        },
      ).catch(async (error: unknown) => {
        await release();
        throw error;
      });
      if (importedNone(report)) await release();
      ctx.ordersChanged({ fileName, imported: report.imported.length + report.updated.length });
      // Orders whose weight and box are known are rated in the background from now on.
      r.preRater.wake();
      return {
        imported: report.imported.length + report.updated.length,
        skipped: report.unchanged.length,
        alreadyImported: report.same.length,
        // Cleaned fields are listed too: the orders came in, but someone should fix the source.
        // In file order: row problems and whole-order problems are found in separate passes.
        errors: [...report.problems, ...(report.cleaned ?? [])]
          .map((p) => importError(p, format))
          .sort((a, b) => a.row - b.row),
        errorCount: report.problemCount + (report.cleaned?.length ?? 0),
        ...(report.ordersLeftOut ? { ordersLeftOut: report.ordersLeftOut } : {}),
        // Orders abroad whose customs data Pack would refuse: said now, apart from problems.
        ...(report.notices?.length
          ? { notices: report.notices.map((p) => importError(p, format)) }
          : {}),
        // Labelled orders the file now gives differently: said by order, nothing changed.
        ...(report.labelledChanged?.length
          ? { labelledChanged: report.labelledChanged.map((p) => importError(p, format)) }
          : {}),
        // Orders the export says are closed: not imported, not problems of the file.
        ...(report.closed?.length
          ? {
              closed: report.closed.slice(0, 500).map((p) => importError(p, format)),
              closedCount: report.closed.length,
            }
          : {}),
        // Cancelled orders the file changed: updated, still cancelled, said by order.
        ...(report.stillCancelled?.length
          ? { stillCancelled: report.stillCancelled.map((p) => importError(p, format)) }
          : {}),
        // A number two brands now share: a scan of it cannot choose, Orders can.
        ...(report.sharedNumbers?.length
          ? { sharedNumbers: report.sharedNumbers.map((p) => importError(p, format)) }
          : {}),
        format: report.format ?? null,
        unmappedHeader: report.unmappedHeader ?? null,
        ...(report.unmappedHeader
          ? { suggestedColumns: suggestedColumns(report.unmappedHeader) }
          : {}),
      };
    },
    'orders.saveMapping': async ({ name, columns, weightUnit, weightUnitColumn }) => {
      const r = rt();
      const missing = REQUIRED_MAPPED_COLUMNS.filter((c) => !columns[c]);
      if (missing.length > 0)
        throw new StationFailure(
          'validation',
          `The mapping needs a column for ${missing.map((c) => MAPPED_COLUMN_WORDS[c]).join(', ')}.`,
        );
      const others = (r.profile.orderColumnMappings ?? []).filter((m) => m.name !== name);
      await ctx.saveProfile({
        ...r.profile,
        orderColumnMappings: [
          ...others,
          {
            name,
            columns,
            ...(weightUnit && weightUnit !== 'lb' ? { weightUnit } : {}),
            ...(weightUnitColumn ? { weightUnitColumn } : {}),
          },
        ],
      });
      return { saved: name };
    },
    'orders.list': async ({ search, limit }) => {
      const r = rt();
      const term = search?.trim();
      const orders = term ? r.orders.search(r.scope, term, limit) : r.orders.recent(r.scope, limit);
      const labelled = r.orders.labelledAmong(orders.map((o) => o.id));
      return orders.map((o) =>
        orderView(
          o,
          brandName(r.profile, o.tenantId),
          labelled.has(o.id) ? 'labelled' : 'open',
          r.profile.shipFrom.countryCode,
        ),
      );
    },
  };
}

/**
 * The column-mapping form's first guess for a header no format reads: what the known export it
 * is nearest to (a Shopify export missing a column) reads each mappable column from.
 */
function suggestedColumns(header: readonly string[]): Record<string, string> {
  const suggested = suggestedMapping(header) as Record<string, string | undefined>;
  return Object.fromEntries(
    MAPPABLE_COLUMNS.flatMap((c) => (suggested[c] ? [[c, suggested[c]]] : [])),
  );
}
