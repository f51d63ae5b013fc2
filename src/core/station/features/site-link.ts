import type { IncomingOrder } from '../../orders/types.js';
import { tenantsOf } from '../../profiles/profile-schema.js';
import {
  describeSiteStore,
  parseSiteStoreConfig,
  SiteConfigError,
  siteStorePassword,
  type SiteStoreConfig,
} from '../../site/config.js';
import { SettingsError } from '../../profiles/settings-store.js';
import { SiteLink } from '../../site/link.js';
import { SiteOutbox } from '../../site/outbox.js';
import { SiteAttentionCount, type SiteAttentionLastRead } from './site-attention.js';
import { SiteConsoleCache } from './site-console.js';
import type { StationContext } from '../context.js';
import { countsOf } from '../snapshots.js';
import { platformState } from './status.js';
import { SITE_SCHEMA_VERSION } from '../../site/schema.js';
import { publishCarriers, type Heartbeat } from '../../site/console.js';
import type { SiteStore } from '../../site/store.js';
import type { SiteProblem } from '../../site/errors.js';

/** The station setting key of the last site settings read from the store (issue 14). */
export const SITE_SETTINGS_CACHE = 'siteSettingsCache';
/**
 * The site's users are copied at the first check-in after they change (each check-in reads how
 * many there are and when the last changed), and at least this often while the store answers.
 */
const USERS_EVERY_MS = 30_000;
/**
 * How often the labels other stations bought are read into this station's memory for an
 * outage (one indexed read of what is new): an order labelled elsewhere this long before the
 * store goes away is refused here offline too.
 */
const LABELLED_EVERY_MS = 10_000;

/**
 * What a station does at each check-in beyond issue 12's: the site settings (read once by the
 * check-in and kept here, so they hold while the store is down), the site's users (copied for
 * sign-in) and the carrier connections it read. The heartbeat for the console (version, who is
 * signed in, the label printer) goes with the check-in's own statement (heartbeatOf).
 */
function checkInExtras(
  ctx: StationContext,
  labelled: { at: number },
): (store: SiteStore, settings: Record<string, string>) => Promise<void> {
  let usersAt = 0;
  let usersSeen: string | null = null;
  let lastCarriers = '';
  return async (store, settings) => {
    const before = ctx.options.settings.get(SITE_SETTINGS_CACHE) as
      Record<string, string> | undefined;
    if (JSON.stringify(settings) !== JSON.stringify(before)) {
      ctx.options.settings.set(SITE_SETTINGS_CACHE, settings);
      // A new rate rule or packing slip: the running profile takes it, nothing is reopened
      // (see StationContext.applySiteSettings; box presets, the reprint limit and offline
      // purchase are read from the cache or the outbox where they are used). Reopening stops
      // what runs (batches pause, the tracker leadership is dropped) and is kept for what the
      // runtime is built from: the platform connection, tenants, printers, hot folder, the
      // site link itself (site.configure); no site setting is one of those.
      if (settings.rateRule !== before?.rateRule || settings.packingSlip !== before?.packingSlip)
        void ctx
          .applySiteSettings()
          .catch((e: unknown) => ctx.log(`site settings: ${(e as Error).message}`));
      ctx.changed('status');
    }
    const version = store.usersVersion;
    if (Date.now() - usersAt >= USERS_EVERY_MS || version !== usersSeen) {
      const before = ctx.session.current()?.userId;
      ctx.users.replaceSite(await store.users());
      usersAt = Date.now();
      usersSeen = version;
      // Its user disabled or removed by site IT: the page turns to sign-in now, saying why.
      if (before && !ctx.session.current()) ctx.changed('status');
    }
    const rt = ctx.runtimeOrNull();
    if (rt && ctx.site && Date.now() - labelled.at >= LABELLED_EVERY_MS) {
      // Labels other stations bought since: the Orders view shows those orders labelled.
      if ((await ctx.site.mirrorLabelled(rt.scope)) > 0) ctx.ordersChanged({});
      labelled.at = Date.now();
    }
    if (rt) {
      const rows = rt.carriers().map((h) => ({
        tenantId: h.tenantId,
        carrierAccountId: h.carrierAccountId,
        carrier: h.carrier ?? h.name ?? h.carrierAccountId,
        authorizationStatus: h.authorizationStatus,
        checkedAt: h.checkedAt,
      }));
      const json = JSON.stringify(rows);
      if (json !== lastCarriers) {
        await publishCarriers(store.pool, rt.scope, store.stationId, rows);
        lastCarriers = json;
      }
    }
  };
}

/**
 * Whether the active profile has a client secret, as each station's heartbeat last asked its
 * vault: the OS keychain is asked at most once a minute (or when the profile changes), not at
 * every 2-second check-in.
 */
const secretSeen = new WeakMap<
  StationContext,
  { profileId: string; hasSecret: boolean; at: number }
>();
const SECRET_RECHECK_MS = 60_000;

/** The station's heartbeat as the console shows it, written with each check-in. */
async function heartbeatOf(ctx: StationContext): Promise<Heartbeat> {
  const printer = ctx.printerView();
  const rt = ctx.runtimeOrNull();
  let seen = secretSeen.get(ctx);
  if (rt && (seen?.profileId !== rt.profile.id || Date.now() - seen.at > SECRET_RECHECK_MS)) {
    seen = {
      profileId: rt.profile.id,
      hasSecret: (await ctx.secretState(rt.profile)).hasSecret,
      at: Date.now(),
    };
    secretSeen.set(ctx, seen);
  }
  // The platform as this station's header says it: the console shows a station that cannot buy.
  const platform =
    rt && seen
      ? {
          ...platformState(rt, seen.hasSecret),
          profile: {
            id: rt.profile.id,
            name: rt.profile.name,
            environment: rt.profile.environment,
            tenants: tenantsOf(rt.profile),
          },
        }
      : undefined;
  return {
    ...(platform ? { platform } : {}),
    // With the site schema this version knows: site IT sees which stations are updated before
    // running migrate (a version number alone may not move between builds).
    appVersion: `${ctx.options.version ?? '0.0.0'} · site schema ${SITE_SCHEMA_VERSION}`,
    signedInUser: ctx.session.current()?.name ?? null,
    printers: printer
      ? [
          {
            id: printer.printerId,
            name: printer.name,
            state: printer.state,
            detail: printer.message || null,
          },
        ]
      : [],
  };
}

// The station's side of its site link: the setting, opening the link, provisioning, and the
// orders another station imported. The handlers are in site.ts.

/** The station setting key (settings.json, ConfSettingsStore) of the site store. */
export const SITE_SETTING = 'siteStore';

export function siteStoreSetting(ctx: StationContext): SiteStoreConfig | null {
  const raw = ctx.options.settings.get(SITE_SETTING);
  return raw ? parseSiteStoreConfig(raw) : null;
}

/**
 * Opens the site link when a site store is configured; without one the outbox triggers are
 * switched off, so the station behaves exactly as a station on its own.
 */
export async function openSite(ctx: StationContext): Promise<void> {
  await ctx.site?.close();
  ctx.site = null;
  ctx.siteAttention = null;
  ctx.siteConsole = null;
  let config: SiteStoreConfig | null;
  try {
    config = siteStoreSetting(ctx);
  } catch (error) {
    ctx.log(`site store: ${(error as Error).message}`);
    config = null;
  }
  if (!config) {
    SiteOutbox.disable(ctx.db);
    return;
  }
  // Made with the link (it reads through it); the link's events below refresh it.
  let attention: SiteAttentionCount | null = null;
  let consoleCache: SiteConsoleCache | null = null;
  // When the labels other stations bought were last read (see LABELLED_EVERY_MS).
  const labelled = { at: 0 };
  const extras = checkInExtras(ctx, labelled);
  const link = new SiteLink(config, {
    db: ctx.db,
    password: await siteStorePassword(ctx.options.vault, ctx.options.env),
    log: ctx.log,
    // A batch of this station's reached the store (it may have raised a possible double
    // label), or the store went away or answers again: the site's count follows.
    onChange: () => {
      attention?.refresh();
      ctx.changed('status');
    },
    onRemoteChange: (stationId) => {
      attention?.refresh();
      consoleCache?.notice();
      // Another station committed (a label, likely): read it at the next check-in, not in 10 s.
      labelled.at = 0;
      ctx.events.emit('site-changed', { stationId });
    },
    // The console (issue 14) reloads on site-changed too: heartbeats are pushed, not polled.
    onConsole: (stationId) => {
      consoleCache?.notice();
      ctx.events.emit('site-changed', { stationId });
    },
    heartbeat: () => heartbeatOf(ctx),
    atCheckIn: async (store, settings) => {
      await extras(store, settings);
      // The site as last read, for a console first opened while the store is away.
      consoleCache?.atCheckIn();
    },
    printers: () =>
      (ctx.runtimeOrNull()?.profile.printers ?? [])
        .filter((p) => p.kind === 'network' && p.host && (p.role ?? 'label') === 'label')
        .map((p) => ({
          printerId: p.id,
          name: p.name,
          host: p.host!,
          port: p.port ?? 9100,
          dpi: p.dpi ?? 203,
        })),
    queues: () => countsOf(ctx),
    // Other stations' printers are offered for the active profile's scope only.
    profileScope: () => {
      const profile = ctx.runtimeOrNull()?.profile;
      return profile
        ? { id: profile.id, environment: profile.environment, tenants: tenantsOf(profile) }
        : null;
    },
  });
  attention = new SiteAttentionCount({
    link,
    scope: () => ctx.runtimeOrNull()?.scope ?? null,
    tenantIds: () => {
      const profile = ctx.runtimeOrNull()?.profile;
      return profile ? tenantsOf(profile) : undefined;
    },
    // A read that ends after this link was replaced or closed tells nobody.
    onChange: () => {
      if (ctx.siteAttention === attention) ctx.changed('status');
    },
    // Kept for this store's address only: another store's count is not this one's.
    kept: {
      get: () => keptAttention(ctx.options.settings.get(KEPT_ATTENTION), link.config.url),
      set: (last) => ctx.options.settings.set(KEPT_ATTENTION, { ...last, url: link.config.url }),
    },
  });
  consoleCache = new SiteConsoleCache({ link, runtime: () => ctx.runtimeOrNull() });
  ctx.site = link;
  ctx.siteAttention = attention;
  ctx.siteConsole = consoleCache;
  link.start();
}

/**
 * A scan this station has no order for: the orders of that number imported at any station of
 * the site are fetched and stored here (source "site:…", so they are not sent back). When the
 * store could not be asked, `notAsked` says so for the packer (see siteNotAskedWords).
 */
export async function pullSiteOrders(
  ctx: StationContext,
  scanned: string,
  /** Asked once the store has answered: false leaves this station's copy as it is. */
  stillWanted: () => boolean = () => true,
): Promise<{ pulled: boolean; notAsked: string | null }> {
  const link = ctx.site;
  const rt = ctx.runtimeOrNull();
  if (!link || !rt) return { pulled: false, notAsked: null };
  const allowed = tenantsOf(rt.profile);
  const found = await link.findOrders(rt.scope, scanned.trim(), tenantsOf(rt.profile));
  if (!stillWanted()) return { pulled: false, notAsked: null };
  let pulled = false;
  const rows = found.orders.filter((row) => allowed.includes(row.tenantId));
  for (const row of rows) {
    rt.orders.upsert(rt.scope, row.tenantId, row.order as IncomingOrder, `site:${row.source}`);
    const here = rt.orders
      .findByNumber(rt.scope, row.orderNumber)
      .find((o) => o.tenantId === row.tenantId);
    // Cancelled at the station that sent it: cancelled here too (the claim refuses it anyway).
    const cancelled = row.order.cancelled;
    if (cancelled && here && !here.cancelled)
      rt.orders.cancel(here.id, { ...cancelled, elsewhere: row.stationName ?? 'another station' });
    // Cancelled here only because the store said so, and the store no longer does (reopened at
    // another station): open here too, without sending that back. A cancel made here stays.
    const reopened =
      !cancelled &&
      here?.cancelled?.elsewhere !== undefined &&
      !rows.some(
        (r) =>
          r.order.cancelled && r.tenantId === row.tenantId && r.orderNumber === row.orderNumber,
      );
    if (here && reopened) link.outbox.unechoed('order', here.id, () => rt.orders.reopen(here.id));
    pulled = true;
  }
  return { pulled, notAsked: found.problem ? siteNotAskedWords(found.problem) : null };
}

/**
 * Why a scan that matched nothing here may still be a real order, for the packer: it may
 * have been imported at another station, and the site store could not be asked. What to do
 * differs: a store that does not answer may be back in a minute; one that refuses this
 * station needs site IT.
 */
export function siteNotAskedWords(problem: SiteProblem): string {
  const may = 'It may be an order imported at another station';
  return problem.kind === 'unreachable'
    ? `${may}, but the site store is not answering, so it cannot be looked up there now. Scan it again in a minute, or pack it at the station that imported it; if the header still says Site: not reachable, tell the shift lead.`
    : `${may}, but this station cannot use the site store right now, so it cannot be looked up there. Pack it at the station that imported it, and tell the shift lead (site IT: the reason is on the header's Site line).`;
}

/**
 * The provisioning file's optional top-level `siteStore` ({ url, stationId, stationName }),
 * checked like the setting (a password in it is refused), not stored: the file is checked
 * whole before anything of it is (`saveSiteStore`). A bad one is the file's problem, said as
 * provisioning says one, by its path.
 */
export function siteStoreInFile(text: string): SiteStoreConfig | null {
  let file: { siteStore?: unknown };
  try {
    file = JSON.parse(text) as { siteStore?: unknown };
  } catch {
    return null; // provisionProfiles says what is wrong with the file
  }
  if (!file || typeof file !== 'object' || file.siteStore === undefined) return null;
  try {
    return parseSiteStoreConfig(file.siteStore);
  } catch (error) {
    if (!(error instanceof SiteConfigError)) throw error;
    throw new SettingsError(`The provisioning file is not valid: ${error.message}`, {
      issues: [{ path: error.field, message: error.message }],
    });
  }
}

/**
 * Stores the site store setting (null: none). Pointed at another store than before (a move to
 * another site, a new database after a restore), the station's whole history goes there once
 * more: the outbox's triggers are switched off, so the next link's `enable()` sends everything
 * again, as on the first connection (the old store keeps what it had). Without that the new
 * store held none of the orders this station had labelled, and another station could buy them
 * again.
 */
export function saveSiteStore(ctx: StationContext, config: SiteStoreConfig | null): void {
  let before: SiteStoreConfig | null = null;
  try {
    before = siteStoreSetting(ctx);
  } catch {
    before = null; // a setting that no longer reads is replaced whole
  }
  if (config === null) ctx.options.settings.delete(SITE_SETTING);
  else ctx.options.settings.set(SITE_SETTING, config);
  if (config && before && before.url !== config.url) {
    SiteOutbox.disable(ctx.db);
    ctx.log(
      `site store moved from ${describeSiteStore(before.url)} to ${describeSiteStore(config.url)}: this station's history is sent there again`,
    );
  }
}

/** The station setting that keeps the site's Needs attention count as last read. */
const KEPT_ATTENTION = 'siteAttentionLastRead';

function keptAttention(value: unknown, url: string): SiteAttentionLastRead | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<SiteAttentionLastRead> & { url?: unknown };
  return v.url === url &&
    typeof v.key === 'string' &&
    typeof v.count === 'number' &&
    typeof v.readAt === 'string'
    ? { key: v.key, count: v.count, readAt: v.readAt }
    : null;
}
