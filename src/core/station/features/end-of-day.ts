import {
  endOfDay,
  endOfDayCsv,
  manifestGroups,
  renderEndOfDay,
  type DaySummary,
  type EndOfDayQuery,
} from '../../labels/end-of-day.js';
import type { ManifestRecord } from '../../labels/manifest-records.js';
import { slipPrinterOf, tenantsOf } from '../../profiles/profile-schema.js';
import { SiteStoreError } from '../../site/errors.js';
import { SITE_SCHEMA_PACKAGES } from '../../site/schema.js';
import type { ParsedInput } from '../../../shared/contract.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { EndOfDayView, floorCalls } from '../../../shared/features/floor.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { brandName, printJobView } from '../map.js';
import type { ProfileRuntime } from '../runtime.js';
import { closeOut } from './manifest.js';
import { manifestedOf, recordManifest } from './manifest-records.js';
import { leadFor } from './users.js';

type Query = ParsedInput<'endOfDay.summary'>;
type EndOfDayCalls = 'endOfDay.summary' | 'endOfDay.csv' | 'endOfDay.manifest' | 'endOfDay.print';

/**
 * End of day (issue 15.9): this station's labels per day and carrier, or, with a site store, the
 * whole site's (every station's labels from the store, site migration 8), shown, printed on the
 * receipt printer, exported as CSV and closed out with the carriers.
 */
export function endOfDayHandlers(
  ctx: StationContext,
): Pick<FeatureHandlers<typeof floorCalls>, EndOfDayCalls> {
  const rt = (): ProfileRuntime => ctx.runtime();

  /** The site store, able to read the whole site's End of day, or a refusal in words. */
  function siteStore() {
    const link = ctx.site;
    if (!link)
      throw new StationFailure(
        'validation',
        "This station has no site store: its End of day is this station's own.",
      );
    // Not known yet (the store has not answered since this station started): asked, and a store
    // that does not answer is said so below.
    const schema = link.store.schema;
    if (schema !== null && schema < SITE_SCHEMA_PACKAGES)
      throw new StationFailure(
        'not-available',
        `The site store is at schema ${schema}: the whole site's End of day needs site migration ${SITE_SCHEMA_PACKAGES}. Site IT runs npm run site -- migrate once every station is updated; this station's own End of day is under This station.`,
      );
    return link.store;
  }

  /** A site store that does not answer, said for the shift lead, with what still works. */
  async function fromSite<T>(read: () => Promise<T>, what: string): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof SiteStoreError)
        throw new StationFailure(
          'site-store-unreachable',
          `${(error.problem.fact ?? error.problem.message).replace(/\.$/, '')}: ${what} now. This station's own End of day is under This station.`,
        );
      throw error;
    }
  }

  async function days(r: ProfileRuntime, q: Query): Promise<DaySummary[]> {
    if (q.from > q.to)
      throw new StationFailure(
        'validation',
        `The first day (${q.from}) is after the last (${q.to}).`,
      );
    const range: EndOfDayQuery = { from: q.from, to: q.to, utcOffsetMinutes: q.utcOffsetMinutes };
    const brand = (tenantId: string) => brandName(r.profile, tenantId) ?? tenantId;
    if (q.scope === 'site') {
      const store = siteStore();
      return fromSite(
        () => store.endOfDay(r.scope, range, brand, tenantsOf(r.profile)),
        "the whole site's End of day cannot be read",
      );
    }
    return endOfDay(r.workflow.shipments.db, r.scope, range, brand);
  }

  const hereId = () => ctx.site?.config.stationId;

  /**
   * Of the labels a close-out of these days would send, those on a manifest already (a close-out
   * here, or at any station of the site as its store records them), for the close-out question.
   */
  async function onManifest(
    r: ProfileRuntime,
    q: Query,
  ): Promise<{ onManifest: number; heldBack: number }> {
    const range: EndOfDayQuery = { from: q.from, to: q.to, utcOffsetMinutes: q.utcOffsetMinutes };
    const groups =
      q.scope === 'site'
        ? await fromSite(
            () => siteStore().manifestGroups(r.scope, range, tenantsOf(r.profile)),
            "the whole site's labels cannot be read",
          )
        : manifestGroups(r.workflow.shipments.db, r.scope, range);
    const ids = groups.flatMap((g) => [...g.labels, ...(g.heldBack ?? [])].map((l) => l.labelId));
    const manifested = await manifestedOf(ctx, r, ids);
    const held = groups.flatMap((g) => g.heldBack ?? []).filter((l) => !manifested.has(l.labelId));
    return { onManifest: manifested.size, heldBack: held.length };
  }

  return {
    'endOfDay.summary': async (q): Promise<EndOfDayView> => {
      const r = rt();
      const list = await days(r, q);
      const sum = (of: (d: DaySummary) => number) => list.reduce((n, d) => n + of(d), 0);
      return {
        days: list.map((d) => ({
          day: d.day,
          labels: d.labels,
          packages: d.packages,
          cost: d.costCents / 100,
          returns: d.returns,
          returnCost: d.returnCostCents / 100,
          reprints: d.reprints,
          voided: d.voided,
          voidedCost: d.voidedCostCents / 100,
          // A carrier whose labels of the day were all voided is said in the day's line only.
          carriers: d.carriers
            .filter((c) => c.labels > 0)
            .map((c) => ({
              carrier: c.carrier,
              labels: c.labels,
              packages: c.packages,
              cost: c.costCents / 100,
              brands: c.brands
                .filter((b) => b.labels > 0)
                .map((b) => ({ name: b.name, labels: b.labels, cost: b.costCents / 100 })),
            })),
          ...(d.stations
            ? {
                stations: d.stations.map((s) => ({
                  name: s.name,
                  here: s.stationId === hereId(),
                  labels: s.labels,
                  packages: s.packages,
                  cost: s.costCents / 100,
                })),
              }
            : {}),
        })),
        labels: sum((d) => d.labels),
        cost: sum((d) => d.costCents) / 100,
        returns: sum((d) => d.returns),
        returnCost: sum((d) => d.returnCostCents) / 100,
        reprints: sum((d) => d.reprints),
        voided: sum((d) => d.voided),
        voidedCost: sum((d) => d.voidedCostCents) / 100,
        ...(await onManifest(r, q)),
      };
    },
    'endOfDay.csv': async (q) => ({
      fileName: `end-of-day-${q.scope === 'site' ? 'site-' : ''}${q.from}${q.to === q.from ? '' : `-to-${q.to}`}.csv`,
      csv: endOfDayCsv(await days(rt(), q)),
    }),
    'endOfDay.manifest': async (q) => {
      const r = rt();
      // Closing out ends the day with the carriers (for every station, scope site): a shift
      // lead's, where users are set up (trial of 2026-11-29: a packer closed out the site).
      leadFor(ctx, { kind: 'close-out', site: q.scope === 'site', from: q.from, to: q.to });
      const record = (m: ManifestRecord) => recordManifest(ctx, r, m);
      if (q.scope !== 'site') return closeOut(r, q, undefined, record);
      const store = siteStore();
      return closeOut(
        r,
        q,
        (range) =>
          fromSite(
            () => store.manifestGroups(r.scope, range, tenantsOf(r.profile)),
            "the whole site's labels cannot be read for a close-out",
          ),
        record,
      );
    },
    'endOfDay.print': async (q) => {
      const r = rt();
      const printerId =
        slipPrinterOf({ ...r.profile, packingSlips: r.profile.packingSlips ?? {} }) ?? null;
      const printer = printerId ? r.profile.printers.find((p) => p.id === printerId) : undefined;
      if (!printer)
        throw new StationFailure(
          'printer-offline',
          `Profile ${r.profile.name} has no receipt printer; add one in Settings → Printers (role: receipt).`,
        );
      const slips = r.profile.packingSlips;
      const payload = renderEndOfDay(
        await days(r, q),
        {
          station: q.scope === 'site' ? `${r.profile.name}: whole site` : r.profile.name,
          printedAt: new Date(),
          utcOffsetMinutes: q.utcOffsetMinutes,
        },
        { type: slips?.type ?? 'epson', width: slips?.width ?? 48 },
      );
      const { job } = ctx.spool.enqueue({
        printerId: printer.id,
        payload,
        kind: 'slip',
        reason: `end of day${q.scope === 'site' ? ' (whole site)' : ''} ${q.from}${q.to === q.from ? '' : ` to ${q.to}`}`,
      });
      ctx.changed('queue');
      return printJobView(job, printer.name);
    },
  };
}
