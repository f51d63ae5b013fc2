import { siteStorePassword, type SiteStoreConfig } from '../../site/config.js';
import { describeSiteError, type SiteProblem } from '../../site/errors.js';
import { SiteStore } from '../../site/store.js';
import { stationIdTakenWords } from '../../site/station-id-taken.js';
import type { StationContext } from '../context.js';
import { StationFailure } from '../errors.js';
import { siteStoreSetting } from './site-link.js';

// A station's id and name at its site: the check that an id is not another running station's,
// and which name a provisioning file leaves a station renamed in Settings.

/** A station seen this recently under an id is using it: another may not take it. */
const STATION_ID_IN_USE_MS = 10 * 60_000;

/**
 * A station seen this recently is running (as `npm run site -- stations retire` counts it): its
 * id and name are not taken by a station that is not it, such as one started with a copy of its
 * provisioning file.
 */
const STATION_RUNNING_MS = 2 * 60_000;

/** The station setting key of the name the provisioning file last gave the station. */
const PROVISIONED_NAME = 'siteStoreProvisionedName';

/**
 * Refuses a station id another running station checks in under (seen in the last ten minutes
 * under another name, or in the last two minutes under this name by a station that is not this
 * one: a copied provisioning file), before anything is written under it: two stations under one
 * id overwrite each other's labels in the store, and both stop buying once they find it. A store that cannot be asked is no reason to
 * refuse (the check is for a mistyped id; the check-in still finds two running stations under
 * one id). Returns why the store could not be read (it does not answer, refuses the login…);
 * null when it was.
 *
 * The row under this station's own id is its own: on the same store (a new name or password),
 * and on another one that holds the row under the name this station checked in with (a store
 * moved to a new server, or restored from a backup: pg_dump carries the station's row).
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
  const sameId = current?.stationId === config.stationId;
  const store = new SiteStore({
    config,
    password: await siteStorePassword(ctx.options.vault, ctx.options.env),
    connectTimeoutMs: 3000,
    poolSize: 1,
  });
  let other: { stationName: string; lastSeenAt: string } | undefined;
  let labelsOf: { stationName: string; lastSeenAt: string | null } | null = null;
  try {
    other = (await store.stations()).find((s) => {
      if (s.stationId !== config.stationId) return false;
      if (sameId && (current?.url === config.url || s.stationName === current?.stationName))
        return false;
      const age = Date.now() - Date.parse(s.lastSeenAt);
      // Under another name: in use for ten minutes. Under the same name, by a station that is
      // not this one (a new data directory, or one set up under another id): in use while that
      // station runs. A copied provisioning file names the running station exactly.
      return s.stationName !== config.stationName
        ? age < STATION_ID_IN_USE_MS
        : !sameId && age < STATION_RUNNING_MS;
    });
    // A station not yet under this id (a new data directory): the id's labels in the store
    // must be its own, or it would write over them and take their orders as its own.
    if (!other && !sameId) labelsOf = await othersPurchasesUnder(store, ctx, config.stationId);
  } catch (error) {
    return describeSiteError(error, config.url);
  } finally {
    await store.close().catch(() => {});
  }
  if (other) {
    const seconds = Math.max(1, Math.round((Date.now() - Date.parse(other.lastSeenAt)) / 1000));
    const ago = seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
    const copied =
      other.stationName === config.stationName
        ? ` This station is not ${other.stationName}: a copied provisioning file? If ${other.stationName}'s computer was replaced, give this one an id of its own: the store keeps ${other.stationName}'s labels under that one.`
        : '';
    const message = `Station id ${config.stationId} is in use by ${other.stationName} (seen ${ago} ago). Each station needs its own id: two under one overwrite each other's labels in the site store. Choose another id.${copied}`;
    throw new StationFailure('conflict', message, [{ field: 'stationId', message }]);
  }
  if (labelsOf) {
    const message = `${stationIdTakenWords(config.stationId, labelsOf)} This station does not have them: under that id it would write over them in the store, and take the orders ${labelsOf.stationName} labelled for its own (a second label bought without a word). Give this station an id never used at the site (a replaced computer included); ${labelsOf.stationName}'s labels stay in History under its name.`;
    throw new StationFailure('conflict', message, [{ field: 'stationId', message }]);
  }
  return null;
}

/**
 * Whether the store keeps purchases under `stationId` that are not this station's (none of its
 * own newest purchases among them): a new computer given a used id. Its local ids start again
 * at 1, and the store keys labels by station id and local id; the order claim takes "held by
 * this station id" as its own. Null when the id is free to this station.
 */
async function othersPurchasesUnder(
  store: SiteStore,
  ctx: StationContext,
  stationId: string,
): Promise<{ stationName: string; lastSeenAt: string | null } | null> {
  const mine = ctx.db
    .prepare<[], { id: string }>('SELECT id FROM label_purchases ORDER BY created_at DESC LIMIT 50')
    .all()
    .map((r) => r.id);
  const { rows } = await store.pool.query<{
    station_name: string | null;
    last_seen_at: Date | null;
    theirs: boolean;
    ours: boolean;
  }>(
    `SELECT s.station_name, s.last_seen_at,
            EXISTS (SELECT 1 FROM site_purchases p WHERE p.station_id = $1) AS theirs,
            EXISTS (SELECT 1 FROM site_purchases p
                     WHERE p.station_id = $1 AND p.purchase_id = ANY($2::text[])) AS ours
       FROM (SELECT 1) one LEFT JOIN site_stations s ON s.station_id = $1`,
    [stationId, mine],
  );
  const row = rows[0];
  if (!row?.theirs || row.ours) return null;
  return {
    stationName: row.station_name ?? stationId,
    lastSeenAt: row.last_seen_at?.toISOString() ?? null,
  };
}

/**
 * The site store a provisioning file gives a station that has one already, with the name to
 * keep. A file is read again at every start with `--provision`; a station renamed in Settings
 * since (a shift lead's change, the name the floor now uses) keeps that name while the file
 * still says the name it said before, and the log says so, with how to make them agree. A file
 * whose name site IT changed gives its new name (the log says which it replaced). Its address
 * and id are always the file's (a store moved: the new address). Nothing is stored here: once
 * the whole file is taken, `accepted` remembers the file's name and says what became of it.
 */
export function provisionedSiteStore(
  ctx: StationContext,
  file: SiteStoreConfig,
): { config: SiteStoreConfig; accepted: () => void } {
  let current: SiteStoreConfig | null = null;
  try {
    current = siteStoreSetting(ctx);
  } catch {
    current = null;
  }
  const said = ctx.options.settings.get(PROVISIONED_NAME) as string | undefined;
  const taken = (config: SiteStoreConfig, note: string | null) => ({
    config,
    accepted: () => {
      ctx.options.settings.set(PROVISIONED_NAME, file.stationName);
      if (note) ctx.log(note);
    },
  });
  if (!current || current.stationId !== file.stationId || current.stationName === file.stationName)
    return taken(file, null);
  // Renamed in Settings since the file last named it (or before this version remembered the
  // file's name: the station's name was the file's until someone renamed it here).
  if (said === undefined || said === file.stationName)
    return taken(
      { ...file, stationName: current.stationName },
      `provisioning file names this station "${file.stationName}" (${file.stationId}); it was renamed "${current.stationName}" in Settings → Site store and keeps that name. To name it from the file, put "stationName": "${current.stationName}" in the file, or rename it in Settings.`,
    );
  return taken(
    file,
    `provisioning file renames this station "${file.stationName}" (${file.stationId}), replacing "${current.stationName}" it had in Settings → Site store`,
  );
}
