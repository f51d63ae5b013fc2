import { siteStorePassword, type SiteStoreConfig } from '../../site/config.js';
import { describeSiteError, type SiteProblem } from '../../site/errors.js';
import { SiteStore } from '../../site/store.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { siteStoreSetting } from './site-link.js';

// A station's id at its site: the check that an id is not another running station's.

/** A station seen this recently under an id is using it: another may not take it. */
const STATION_ID_IN_USE_MS = 10 * 60_000;

/**
 * Site IT types a station id that another station of the site is using (seen in the last ten
 * minutes under another name): refused, before anything is written under it. Two stations under
 * one id overwrite each other's labels in the store. A store that cannot be asked is no reason
 * to refuse: the check is for a mistyped id, the store's own rules still hold.
 */
/**
 * Refuses a station id another running station checks in under. Returns why the store could
 * not be read (it does not answer, refuses the login…); null when it was.
 */
export async function refuseStationIdInUse(
  ctx: StationContext,
  config: SiteStoreConfig,
): Promise<SiteProblem | null> {
  let current: SiteStoreConfig | null = null;
  try {
    current = siteStoreSetting(ctx);
  } catch {
    // A setting that no longer reads: nothing to compare with.
  }
  // This station under its own id on the same store (a new name or password, say): the
  // heartbeat under that id is its own, not another station's; the store is still asked, so a
  // new password it refuses is said at saving.
  const itself = current?.stationId === config.stationId && current.url === config.url;
  const store = new SiteStore({
    config,
    password: await siteStorePassword(ctx.options.vault, ctx.options.env),
    connectTimeoutMs: 3000,
    poolSize: 1,
  });
  let other: { stationName: string; lastSeenAt: string } | undefined;
  try {
    other = (await store.stations()).find(
      (s) =>
        !itself &&
        s.stationId === config.stationId &&
        s.stationName !== config.stationName &&
        Date.now() - Date.parse(s.lastSeenAt) < STATION_ID_IN_USE_MS,
    );
  } catch (error) {
    return describeSiteError(error, config.url);
  } finally {
    await store.close().catch(() => {});
  }
  if (other) {
    const seconds = Math.max(1, Math.round((Date.now() - Date.parse(other.lastSeenAt)) / 1000));
    const ago = seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
    const message = `Station id ${config.stationId} is in use by ${other.stationName} (seen ${ago} ago). Each station needs its own id: two under one overwrite each other's labels in the site store. Choose another id.`;
    throw new StationFailure('conflict', message, [{ field: 'stationId', message }]);
  }
  return null;
}
