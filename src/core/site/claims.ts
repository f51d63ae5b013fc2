import type pg from 'pg';
import { clockTime } from './when-said.js';
import { voidMarkOf } from './label-rows.js';
import { claimOrderSql } from './claim-sql.js';
import { SITE_SCHEMA_PACKAGES } from './schema.js';
import type { ClaimResult, SiteScope } from './types.js';

interface ClaimRow {
  granted: boolean;
  station_id: string;
  station_name: string;
  packer: string | null;
  state: string;
  claimed_at: Date;
  /** The holder's label for the order (refused claims only); BIGINT arrives as a string. */
  label_local_id: string | null;
  label_tracking_number: string | null;
  /** That label's voided mark (site migration 6; null on an older store). */
  label_voided: unknown;
  /** Refused in-flight claims: the holder has not checked in for two minutes, or is retired. */
  holder_quiet: boolean | null;
  /** Refused in-flight claims: the holder's purchase state as its station sent it ('unknown': not confirmed). */
  holder_purchase_state: string | null;
  holder_seen_at: Date | null;
  /** Refused because a station cancelled the order: who, why (site_orders.order_json). */
  cancelled: { by?: string; reason?: string; at?: string } | null;
  /** Refused because a station of another profile holds the order (site migration 8). */
  other_profile?: string | null;
}

/**
 * The site store's claims: an order before POST /api/v1/labels, an order file before its
 * import. SiteStore delegates to it; `run` turns a pg error into words for site IT.
 */
export class SiteClaims {
  constructor(
    private readonly pool: pg.Pool,
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
    private readonly station: { stationId: string; stationName: string },
    /** The store's schema as last read (the claim checks other profiles from site migration 8). */
    private readonly schema: () => number | null = () => null,
  ) {}

  /**
   * The order claim taken before POST /api/v1/labels, in one statement (one transaction): the
   * order is this station's unless another station holds a label or an in-flight purchase for
   * it. `confirmed`: the packer explicitly chose to buy another label.
   */
  async claimOrder(
    scope: SiteScope,
    claim: {
      tenantId: string;
      orderNumber: string;
      purchaseId: string;
      packer: string | null;
      confirmed: boolean;
    },
  ): Promise<ClaimResult> {
    return this.run(async () => {
      // Two stations claiming at the same instant: the second one's INSERT waits for the first
      // and then conflicts, but its statement's snapshot predates the first's commit, so the
      // holder is not visible to it yet. The same statement again (a new snapshot) sees it.
      let row: ClaimRow | undefined;
      for (let attempt = 0; !row; attempt++) {
        if (attempt === 3) throw new Error('the order claim returned nothing');
        const crossProfile = (this.schema() ?? 0) >= SITE_SCHEMA_PACKAGES;
        const { rows } = await this.pool.query<ClaimRow>({
          name: crossProfile ? 'site-claim-order-8' : 'site-claim-order',
          text: claimOrderSql(crossProfile),
          values: [
            scope.profileId,
            scope.environment,
            claim.tenantId,
            claim.orderNumber,
            this.station.stationId,
            this.station.stationName,
            claim.purchaseId,
            claim.packer,
            claim.confirmed,
          ],
        });
        row = rows[0];
      }
      if (row.granted) return { granted: true, mode: 'claimed' };
      if (row.other_profile) {
        const by = row.packer ? ` by ${row.packer}` : '';
        const what = row.state === 'purchased' ? 'labelled' : 'being labelled';
        return {
          granted: false,
          code: 'order-claimed-elsewhere',
          message: `Order ${claim.orderNumber} was ${what} at ${row.station_name} at ${clockTime(row.claimed_at)}${by}, a station of this site set up under another profile ("${row.other_profile}", this one's is "${scope.profileId}"), so its label cannot be reprinted here. Nothing was bought. Site IT gives every station of the site the same profile (docs/site.md); Ctrl+Shift+A buys another label all the same.`,
          holder: {
            stationId: row.station_id,
            stationName: row.station_name,
            packer: row.packer,
            at: row.claimed_at.toISOString(),
            label: null,
          },
        };
      }
      if (row.cancelled) {
        const c = row.cancelled;
        return {
          granted: false,
          code: 'order-cancelled',
          message: `Order ${claim.orderNumber} was cancelled at ${row.station_name}${c.by ? ` by ${c.by}` : ''}${c.reason ? ` (${c.reason})` : ''}: nothing was bought. If it ships after all, a shift lead reopens it at ${row.station_name} (Orders, Alt+8).`,
        };
      }
      const at = clockTime(row.claimed_at);
      const by = row.packer ? ` by ${row.packer}` : '';
      const voided = row.state === 'purchased' ? voidMarkOf(row.label_voided) : null;
      return {
        granted: false,
        code: 'order-claimed-elsewhere',
        message: voided
          ? `Order ${claim.orderNumber} was labelled at ${row.station_name} at ${at}${by}, and that label (${row.label_tracking_number ?? ''}) was voided at the carrier there${voided.reason ? ` (${voided.reason})` : ''}: it is not reprinted. Nothing was bought. Ctrl+Shift+A buys another label.`
          : row.state === 'purchased'
            ? `Order ${claim.orderNumber} was labelled at ${row.station_name} at ${at}${by} — reprint it here? Nothing was bought.`
            : row.holder_quiet
              ? // The holder died mid-purchase (or was retired): its label may or may not exist,
                // and nothing settles it until that station comes back. Said, with the way on.
                `Order ${claim.orderNumber} was being labelled at ${row.station_name} (since ${at}${by}), but ${row.station_name} ${row.holder_seen_at ? `has not checked in since ${clockTime(row.holder_seen_at)}` : 'is retired'}: its purchase may or may not have gone through. Nothing was bought here. A shift lead looks for the order's label on the platform or the carrier's portal; to buy here all the same, Ctrl+Shift+A, then Ctrl+Enter (a shift lead approves, and ${row.station_name}'s Needs attention will show its own attempt when it comes back).`
              : row.holder_purchase_state === 'unknown'
                ? `Order ${claim.orderNumber} was being labelled at ${row.station_name} (since ${at}${by}), and the platform did not confirm that purchase: its label may or may not exist. Nothing was bought here. A shift lead settles it at ${row.station_name} under Needs attention (look it up on the platform, then keep it or mark it not bought); if it was not bought, scan the order here again after that.`
                : `Order ${claim.orderNumber} is being labelled at ${row.station_name} right now (since ${at}${by}). Nothing was bought here; find its label in History (whole site) to reprint it.`,
        holder: {
          stationId: row.station_id,
          stationName: row.station_name,
          packer: row.packer,
          at: row.claimed_at.toISOString(),
          label:
            row.label_local_id === null || row.label_tracking_number === null
              ? null
              : {
                  localId: Number(row.label_local_id),
                  trackingNumber: row.label_tracking_number,
                  ...(voided ? { voided } : {}),
                },
        },
      };
    });
  }

  /** Releases claims this station holds for purchases it never committed (a crash in between). */
  async releaseOrphanClaims(isKnown: (purchaseId: string) => boolean): Promise<number> {
    return this.run(async () => {
      const { rows } = await this.pool.query<{ purchase_id: string }>(
        `SELECT purchase_id FROM site_order_claims WHERE station_id = $1 AND state = 'in-flight'`,
        [this.station.stationId],
      );
      const orphans = rows.map((r) => r.purchase_id).filter((id) => !isKnown(id));
      if (orphans.length === 0) return 0;
      const res = await this.pool.query(
        `UPDATE site_order_claims SET state = 'released', updated_at = now()
          WHERE station_id = $1 AND state = 'in-flight' AND purchase_id = ANY($2)`,
        [this.station.stationId, orphans],
      );
      return res.rowCount ?? 0;
    });
  }

  /**
   * Claims an order file (by its content) for import: granted to exactly one station of the
   * site; the others are told where and when it was imported.
   */
  async claimImport(
    scope: SiteScope,
    fileSha256: string,
    fileName: string,
  ): Promise<
    { claimed: true } | { claimed: false; stationName: string; fileName: string; at: string }
  > {
    return this.run(async () => {
      // The station is put on the site's list if its first check-in has not happened yet, so
      // the others are told its name ("imported at Station A"), not its id.
      const res = await this.pool.query(
        `WITH known AS (
           INSERT INTO site_stations (station_id, station_name) VALUES ($5, $6)
           ON CONFLICT (station_id) DO NOTHING)
         INSERT INTO site_import_claims (profile_id, environment, file_sha256, file_name, station_id)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [
          scope.profileId,
          scope.environment,
          fileSha256,
          fileName,
          this.station.stationId,
          this.station.stationName,
        ],
      );
      if ((res.rowCount ?? 0) === 1) return { claimed: true };
      const { rows } = await this.pool.query<{
        station_id: string;
        station_name: string;
        file_name: string;
        claimed_at: Date;
      }>(
        `SELECT c.station_id, COALESCE(s.station_name, c.station_id) AS station_name, c.file_name,
                c.claimed_at
           FROM site_import_claims c LEFT JOIN site_stations s ON s.station_id = c.station_id
          WHERE c.profile_id = $1 AND c.environment = $2 AND c.file_sha256 = $3`,
        [scope.profileId, scope.environment, fileSha256],
      );
      const r = rows[0];
      // Released between the two statements (nothing came of its import): ours to try now.
      // Claimed by this station before: importing it here again only updates its own orders.
      if (!r || r.station_id === this.station.stationId) return { claimed: true };
      return {
        claimed: false,
        stationName: r.station_name,
        fileName: r.file_name,
        at: `${r.claimed_at.toISOString().slice(0, 10)} ${clockTime(r.claimed_at)}`,
      };
    });
  }

  /**
   * Gives up this station's claim on an order file: its import brought in no order (every row
   * refused, for a tenant the profile does not ship for, say), so the file may be imported
   * again, here or at another station, once that is put right.
   */
  async releaseImport(scope: SiteScope, fileSha256: string): Promise<void> {
    await this.run(() =>
      this.pool.query(
        `DELETE FROM site_import_claims
          WHERE profile_id = $1 AND environment = $2 AND file_sha256 = $3 AND station_id = $4`,
        [scope.profileId, scope.environment, fileSha256, this.station.stationId],
      ),
    );
  }
}

/** 10:42, the station's local time: what the packer reads on the floor clock. */
export { clockTime };
