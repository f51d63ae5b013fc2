import type pg from 'pg';
import { SiteStoreError } from './errors.js';
import type { SiteOutbox } from './outbox.js';
import type { SiteStore } from './store.js';
import { whenSaid } from './when-said.js';

/** The station whose purchases the store keeps under an id, as the store last saw it. */
export interface StationIdOwner {
  stationName: string;
  lastSeenAt: string | null;
}

/**
 * The first words of a refused station id that another station's labels are kept under (a new
 * data directory, a replaced computer): the same whether it is refused at saving or at the first
 * check-in of a station that saved it while the store did not answer.
 */
export function stationIdTakenWords(stationId: string, owner: StationIdOwner): string {
  const seen = owner.lastSeenAt ? ` (last seen ${whenSaid(new Date(owner.lastSeenAt))})` : '';
  return `Station id ${stationId} was ${owner.stationName}'s${seen}, and the site store keeps that station's labels under it.`;
}

/**
 * The whole refusal at the first check-in (SiteSync.prepare) of a station that was given a used
 * id while its store did not answer: what it does (nothing), and what site IT does.
 */
export function stationIdTakenAtCheckIn(stationId: string, owner: StationIdOwner): string {
  return `${stationIdTakenWords(stationId, owner)} This station does not have them (a new data directory given the id while the store did not answer, or a copy of that station's settings): under that id it would write over them in the store, and take the orders ${owner.stationName} labelled for its own (a second label bought without a word). It sends nothing to the site and buys nothing until it has an id never used at the site (site IT changes it in Settings → Site store, or "stationId" in its provisioning file); ${owner.stationName}'s labels stay in History under its name.`;
}

/**
 * Whether the store keeps purchases under `stationId` that are another station's: none of the
 * store's newest 50 under the id is known to this station (`isKnown`: its own purchases). A
 * station's own history in the store has its newest purchases at the top, whatever it bought
 * since that has not reached the store yet (an outage, a new address); a new data directory
 * given a used id knows none. Null when the id is free to this station.
 */
export async function otherStationUnderId(
  pool: pg.Pool,
  stationId: string,
  isKnown: (purchaseId: string) => boolean,
): Promise<StationIdOwner | null> {
  const { rows } = await pool.query<{ purchase_id: string }>(
    `SELECT purchase_id FROM site_purchases WHERE station_id = $1 ORDER BY created_at DESC LIMIT 50`,
    [stationId],
  );
  if (rows.length === 0 || rows.some((r) => isKnown(r.purchase_id))) return null;
  const { rows: stations } = await pool.query<{ station_name: string; last_seen_at: Date | null }>(
    'SELECT station_name, last_seen_at FROM site_stations WHERE station_id = $1',
    [stationId],
  );
  const s = stations[0];
  return {
    stationName: s?.station_name ?? stationId,
    lastSeenAt: s?.last_seen_at?.toISOString() ?? null,
  };
}

/**
 * At the preparation (SiteSync) for a store this station has not reached yet at its address
 * (nothing sent there: no store identity recorded), before anything is written to it: another
 * station's purchases under this station's id refuse it, as 'duplicate-station' (nothing sent,
 * nothing bought). Otherwise no claim of that station would be released as an orphan of this
 * one, no row of its overwritten, no order it labelled granted to this one (the order claim
 * takes "held under this id" as its own). The check at saving (refuseStationIdInUse) needs the
 * store to answer; an id saved while it did not is refused here, at the first check-in.
 */
export async function refuseOtherStationsId(store: SiteStore, outbox: SiteOutbox): Promise<void> {
  if (outbox.storeIdentity() !== null) return;
  const owner = await otherStationUnderId(store.pool, store.stationId, (id) =>
    outbox.isKnownPurchase(id),
  );
  if (owner)
    throw new SiteStoreError({
      kind: 'duplicate-station',
      message: stationIdTakenAtCheckIn(store.stationId, owner),
    });
}
