import {
  parseSiteStoreConfig,
  SITE_PASSWORD_ENV,
  SITE_PASSWORD_KEY,
  SiteConfigError,
  siteStorePassword,
  type SiteStoreConfig,
} from '../../site/config.js';
import { tenantsOf } from '../../profiles/profile-schema.js';
import { inProfileScope } from '../../site/console.js';
import { neverAnsweredWords, SiteStoreError } from '../../site/errors.js';
import { SITE_SCHEMA_VERSION } from '../../site/schema.js';
import { olderSchemaWords } from '../../site/sync.js';
import { asSentence } from '../../../shared/result.js';
import type { SiteLabel } from '../../site/types.js';
import type * as V from '../../../shared/views.js';
import type { StationContext } from '../context.js';
import type { FeatureHandlers } from '../../../shared/features/define.js';
import type { siteCalls } from '../../../shared/features/site.js';
import { StationFailure } from '../errors.js';
import { brandName } from '../map.js';
import { openSite, saveSiteStore, siteStoreSetting } from './site-link.js';
import { refuseStationIdInUse } from './site-station-id.js';
import { voidView } from './label-voids.js';
import { siteHeader, siteLabelView } from './site-views.js';
import { siteOrderHandlers } from './site-orders.js';
import { siteReprintHandlers } from './site-reprints.js';
import { actor, leadFor } from './users.js';

export { openSite, pullSiteOrders, saveSiteStore, siteStoreInFile } from './site-link.js';
export { provisionedSiteStore, refuseStationIdInUse } from './site-station-id.js';
export { siteHeader } from './site-views.js';

/** Settings → Site store's field names, for a refusal of one. */
const formField: Record<string, string> = {
  url: 'The database address',
  stationId: 'The station id',
  stationName: 'The station name',
};

export function siteHandlers(ctx: StationContext): FeatureHandlers<typeof siteCalls> {
  const rt = () => ctx.runtime();
  /** The Whole site list as last read, shown (marked) while the store does not answer. */
  let lastAttention: { key: string; items: V.SiteAttentionView['items']; readAt: string } | null =
    null;
  const view = (l: SiteLabel): V.SiteLabelView =>
    siteLabelView(
      l,
      {
        stationId: l.stationId,
        stationName: l.stationName,
        labelId: String(l.localId),
        brandName: brandName(rt().profile, l.tenantId),
        packer: l.packer,
        reprints: l.reprints,
        here: l.stationId === ctx.site?.config.stationId,
      },
      l.voided,
    );

  const status = async (): Promise<V.SiteStatusView> => {
    const link = ctx.site;
    let config: SiteStoreConfig | null = null;
    try {
      config = siteStoreSetting(ctx);
    } catch {
      config = null;
    }
    const hasPassword = Boolean(await siteStorePassword(ctx.options.vault, ctx.options.env));
    // The vault first, as the station reads it: said with where that vault keeps it.
    const passwordFrom = !hasPassword
      ? null
      : (await ctx.options.vault.get(SITE_PASSWORD_KEY))
        ? (ctx.options.vault.description ?? 'in the keychain')
        : `from ${SITE_PASSWORD_ENV}`;
    if (!link)
      return {
        configured: config !== null,
        where: null,
        stationId: config?.stationId ?? null,
        stationName: config?.stationName ?? null,
        hasPassword,
        passwordFrom,
        header: null,
        lastSyncedAt: null,
        offlinePurchase: 'allow',
        sitePrinters: [],
        stations: [],
      };
    const s = link.sync.status();
    const now = Date.now();
    const mine = ctx.runtimeOrNull()?.profile;
    // A station of another tenant on the same store (no brand in common) is not listed: its
    // name, queues and printer are not this profile's to see. One of the same brands under
    // another profile id is, marked below; one that does not say its profile is kept.
    const stations = (await link.store.stations().catch(() => [])).filter(
      (st) =>
        !mine ||
        st.stationId === link.config.stationId ||
        inProfileScope(st.profile, { ...mine, id: st.profile?.id ?? '', tenants: tenantsOf(mine) }),
    );
    // Another profile id for the same platform and a brand of this one's: the store keeps
    // History, orders and claims per profile, so that station is apart from this one.
    const otherProfile = (st: (typeof stations)[number]) =>
      mine &&
      st.stationId !== link.config.stationId &&
      st.profile &&
      st.profile.id !== mine.id &&
      st.profile.environment === mine.environment &&
      st.profile.tenants.some((t) => tenantsOf(mine).includes(t))
        ? `${st.profile.name} (${st.profile.id})`
        : null;
    const apart = stations.filter((st) => otherProfile(st));
    return {
      configured: true,
      where: link.where,
      stationId: link.config.stationId,
      stationName: link.config.stationName,
      hasPassword,
      passwordFrom,
      header: siteHeader(
        s,
        now,
        link.outbox.offlinePurchase(),
        link.hasReachedStore() ? null : link.config.url,
      ),
      schemaNote:
        link.store.schema !== null && link.store.schema < SITE_SCHEMA_VERSION
          ? olderSchemaWords(link.store.schema)
          : null,
      lastSyncedAt: s.lastSyncedAt,
      offlinePurchase: link.outbox.offlinePurchase(),
      sitePrinters: link.remotePrinters().map((p) => ({ id: p.id, name: p.name })),
      profileNote:
        apart.length && mine
          ? `${apart.map((st) => `${st.stationName} packs under profile ${otherProfile(st)}`).join('; ')}, not this station's ${mine.name} (${mine.id}), for the same platform account: ${apart.length === 1 ? 'it shares' : 'they share'} no History, orders or console with this station, and an order one of them holds is refused at the other. Site IT gives every station of the site the same profile (provision them from one file: docs/site.md).`
          : null,
      stations: stations.map((st) => ({
        otherProfile: otherProfile(st),
        stationId: st.stationId,
        stationName: st.stationName,
        lastSeenAt: st.lastSeenAt,
        depth: st.depth,
        lagMs: st.oldestAt ? Math.max(0, now - Date.parse(st.oldestAt)) : 0,
        queuedShipments: st.shipments,
        queuedPrintJobs: st.printJobs,
        needsAttention: st.needsAttention,
      })),
    };
  };

  /** This station's own labels, shaped as site labels (the offline fallback and scope 'station'). */
  const localLabels = (query: string | undefined, limit: number, filters: HistoryFilters) => {
    const r = rt();
    const typed = query?.trim();
    const search = (by: { orderNumber?: string; trackingNumber?: string }) =>
      r.labels.searchSummaries(r.scope, { ...filters, ...by, limit }).labels;
    // What was typed is an order number, or else a tracking number.
    let found = search(typed ? { orderNumber: typed } : {});
    if (typed && found.length === 0) found = search({ trackingNumber: typed });
    const counts = r.reprints.counts(found.map((l) => l.id));
    const packers = r.workflow.shipments.packersOfLabels(found.map((l) => l.id));
    const voids = r.voids.of(found.map((l) => l.id));
    const me = ctx.site?.config ?? { stationId: 'this-station', stationName: 'This station' };
    return found.map((l) =>
      siteLabelView(
        l,
        {
          stationId: me.stationId,
          stationName: me.stationName,
          labelId: String(l.id),
          brandName: brandName(r.profile, l.tenantId),
          packer: packers.get(l.id) ?? null,
          reprints: counts.get(l.id) ?? 0,
          here: true,
        },
        voidView(voids.get(l.id)),
      ),
    );
  };

  return {
    'site.status': status,
    'site.configure': async ({ siteStore, password }) => {
      let config: SiteStoreConfig | null = null;
      if (siteStore !== null) {
        try {
          config = parseSiteStoreConfig(siteStore);
        } catch (error) {
          if (error instanceof SiteConfigError) {
            // Said as the form's field, not the setting's path ("siteStore.stationId …").
            const message = error.message.replace(
              /^siteStore\.(url|stationId|stationName)\b/,
              (_, f: string) => formField[f] ?? f,
            );
            throw new StationFailure('validation', message, [{ field: error.field, message }]);
          }
          throw error;
        }
      }
      // Where the station's records go, and its password there: a shift lead's (or site IT's)
      // change, not a packer's. Asked once the fields are right, so a lead's approval is not
      // spent on a form that is refused anyway.
      leadFor(ctx, { kind: 'site-store' });
      // Removed: its password is forgotten with it (not kept in the keychain for a store this
      // station no longer uses; a store added again asks for it again).
      if (!config) await ctx.options.vault.delete(SITE_PASSWORD_KEY);
      else if (password) await ctx.options.vault.set(SITE_PASSWORD_KEY, password);
      // A store that does not answer is saved all the same (it may be set up later), and said
      // now: a typo in the host or port is seen at saving, not later in the header.
      const unanswered = config ? await refuseStationIdInUse(ctx, config) : null;
      saveSiteStore(ctx, config);
      await openSite(ctx);
      // The claim port lives in the profile's workflow: reopen it with the new link.
      await ctx.reload();
      // Never reached at this address (a new one, or a station not set up yet): it buys nothing
      // until it answers, which the warning says instead of "works on its own".
      const neverReached =
        unanswered?.kind === 'unreachable' && ctx.site?.hasReachedStore() === false;
      const saveWarning = !unanswered
        ? null
        : neverReached && config
          ? `${neverAnsweredWords(config.url, unanswered)} Until it answers, this station buys no label.`
          : unanswered.message;
      return { ...(await status()), saveWarning };
    },
    'site.labels': async (q) => {
      const limit = Math.min(q.limit, 500);
      const filters: HistoryFilters = {
        ...(q.tenantId ? { tenantId: q.tenantId } : {}),
        ...(q.from ? { from: dayStart(q.from) } : {}),
        ...(q.to ? { to: dayStart(q.to, 1) } : {}),
      };
      if (q.scope === 'station' || !ctx.site)
        return {
          labels: localLabels(q.query, limit, filters),
          more: false,
          scope: 'station',
          note: ctx.site ? null : 'This station has no site store: its own labels only.',
        };
      try {
        const page = await ctx.site.store.searchLabels(rt().scope, {
          // The profile's brands only: a station of another tenant pointed at this store by
          // mistake sees none of the site's labels.
          tenantIds: tenantsOf(rt().profile),
          ...(q.query ? { query: q.query } : {}),
          ...(q.stationId ? { stationId: q.stationId } : {}),
          ...(q.packer ? { packer: q.packer } : {}),
          ...filters,
          limit,
          offset: q.offset,
        });
        // Reprints made here and not sent yet count at once (the store has them a moment later).
        const unsent = ctx.site.outbox.unsentReprints();
        const labels = page.labels.map((l) =>
          view({ ...l, reprints: l.reprints + (unsent.get(`${l.stationId}:${l.localId}`) ?? 0) }),
        );
        return { labels, more: page.more, scope: 'site', note: null };
      } catch (error) {
        return {
          labels: localLabels(q.query, limit, filters),
          more: false,
          scope: 'station',
          note: `Showing this station's labels only: ${(error as Error).message}`,
        };
      }
    },
    ...siteReprintHandlers(ctx),
    ...siteOrderHandlers(ctx),
    'site.attention': async () => {
      const link = ctx.site;
      if (!link) return { reachable: false, note: 'This station has no site store.', items: [] };
      const key = `${link.config.stationId}|${rt().scope.profileId}|${rt().scope.environment}`;
      try {
        // This station's own unknown purchases are listed with its own items, where they are
        // resolved: listed here too, a shift lead would see (and count) each one twice.
        const items = (
          await link.store.attention(rt().scope, link.config.stationId, tenantsOf(rt().profile))
        ).map((i) => ({
          id: i.id,
          kind: i.kind,
          orderNumber: i.orderNumber,
          message: i.message,
          since: i.since,
          labels: i.kind === 'possible-double-label' ? i.labels.map(view) : [],
        }));
        lastAttention = { key, items, readAt: new Date().toISOString() };
        // The header's count reads the store on its changes; a list read here that may differ
        // from it (an item raised without a change this station heard) brings it along.
        ctx.siteAttention?.refresh();
        return { reachable: true, note: null, readAt: lastAttention.readAt, items };
      } catch (error) {
        // The header keeps counting what was last read; the page shows the same items, marked.
        const last = lastAttention?.key === key ? lastAttention : null;
        // What happened, without what the station does about it ("works on its own …").
        const fact = asSentence(
          error instanceof SiteStoreError
            ? (error.problem.fact ?? error.problem.message)
            : (error as Error).message,
        );
        return {
          reachable: false,
          note: last
            ? `${fact} These are the site's items as last read; they may have changed since.`
            : `Site-wide items cannot be shown: ${fact}`,
          readAt: last?.readAt ?? null,
          items: last?.items ?? [],
        };
      }
    },
    'site.resolveAttention': async ({ id, note }) => {
      const link = ctx.site;
      const m = /^site-double-(\d+)$/.exec(id);
      if (!link || !m)
        throw new StationFailure('not-found', `No site-wide item ${id} can be resolved here.`);
      // Which label of two the customer keeps is a shift lead's decision (docs/site.md).
      const lead = leadFor(ctx, { kind: 'resolve-double', itemId: id });
      const by = lead && lead !== actor(ctx) ? `${lead} (for ${actor(ctx)})` : actor(ctx);
      const done = await link.store.resolveAttention(Number(m[1]), by, note);
      // The other stations hear of it through the store; this one does not hear itself.
      ctx.siteAttention?.refresh();
      if (!done) throw new StationFailure('conflict', 'That item was already resolved.');
      return { resolved: true };
    },
  };
}

/** A platform that cannot be asked now (as opposed to one that answered no). */

/** What both History searches (site store, this station) narrow by: brand and days. */
interface HistoryFilters {
  tenantId?: string;
  /** ISO, inclusive. */
  from?: string;
  /** ISO, exclusive: the day after the last day asked for. */
  to?: string;
}

/** The start of a day typed in History (2026-11-23), `plusDays` later (the contract refused non-dates). */
function dayStart(day: string, plusDays = 0): string {
  return new Date(Date.parse(day) + plusDays * 86_400_000).toISOString();
}
