import type pg from 'pg';
import {
  daySummaries,
  manifestGroupsOf,
  utcRange,
  type CarrierBrandDayRow,
  type DaySummary,
  type EndOfDayQuery,
  type ManifestGroup,
} from '../labels/end-of-day.js';
import type { SiteScope } from './types.js';

/**
 * End of day for the whole site (site migration 8): every station's labels, per local day,
 * carrier and brand, as each station's own End of day counts its own (voided labels said apart,
 * return labels counted and said), with each station's part of the day and the site's reprints.
 * Days are the asking station's local days (its offset from UTC).
 */
export async function siteEndOfDay(
  pool: pg.Pool,
  scope: SiteScope,
  query: EndOfDayQuery,
  brandName: (tenantId: string) => string,
  /** The asking station's profile's brands: another tenant's labels are not counted. */
  tenantIds: readonly string[],
): Promise<DaySummary[]> {
  const { fromUtc, toUtc } = utcRange(query);
  const offset = Math.trunc(query.utcOffsetMinutes ?? 0);
  const params = [scope.profileId, scope.environment, fromUtc, toUtc, offset, [...tenantIds]];
  // The label's local day: its UTC time moved by the station's offset.
  const day = (column: string) =>
    `to_char((${column} AT TIME ZONE 'UTC') + make_interval(mins => $5), 'YYYY-MM-DD')`;
  const inRange = (alias: string) =>
    `${alias}.profile_id = $1 AND ${alias}.environment = $2
       AND ${alias}.created_at >= $3 AND ${alias}.created_at < $4 AND ${alias}.tenant_id = ANY($6)`;
  const counted = `l.voided IS NULL`;
  const [byBrand, byStation, reprints] = await Promise.all([
    pool.query<Record<keyof CarrierBrandDayRow, string>>(
      `SELECT ${day('l.created_at')} AS day, l.carrier, l.tenant_id,
              count(*) FILTER (WHERE ${counted}) AS labels,
              coalesce(sum(coalesce(l.packages, 1)) FILTER (WHERE ${counted}), 0) AS packages,
              coalesce(sum(l.cost_cents) FILTER (WHERE ${counted}), 0) AS cost,
              count(*) FILTER (WHERE ${counted} AND l.return_label) AS returns,
              coalesce(sum(l.cost_cents) FILTER (WHERE ${counted} AND l.return_label), 0) AS return_cost,
              count(*) FILTER (WHERE l.voided IS NOT NULL) AS voided,
              coalesce(sum(l.cost_cents) FILTER (WHERE l.voided IS NOT NULL), 0) AS voided_cost
         FROM site_labels l
        WHERE ${inRange('l')}
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      params,
    ),
    pool.query<{
      day: string;
      station_id: string;
      name: string;
      labels: string;
      packages: string;
      cost: string;
    }>(
      `SELECT ${day('l.created_at')} AS day, l.station_id,
              coalesce(min(s.station_name), l.station_id) AS name,
              count(*) AS labels, sum(coalesce(l.packages, 1)) AS packages,
              sum(l.cost_cents) AS cost
         FROM site_labels l LEFT JOIN site_stations s ON s.station_id = l.station_id
        WHERE ${inRange('l')} AND ${counted}
        GROUP BY 1, 2 ORDER BY 1, 3, 2`,
      params,
    ),
    // As labels printed, as a station counts its own: a whole multi-package label's reprint
    // prints each package, a reprint of one package ("(package 2 of 3, …)" in its reason) one.
    pool.query<{ day: string; n: string }>(
      `SELECT ${day('r.created_at')} AS day,
              sum(CASE WHEN r.reason ~ '\\(package [0-9]+ of [0-9]+' THEN 1
                       ELSE coalesce(l.packages, 1) END) AS n
         FROM site_reprints r
         LEFT JOIN site_labels l
           ON l.station_id = r.label_station_id AND l.local_id = r.label_local_id
        WHERE ${inRange('r')}
        GROUP BY 1`,
      params,
    ),
  ]);
  const n = Number;
  const days = daySummaries(
    byBrand.rows.map((r) => ({
      day: r.day,
      carrier: r.carrier,
      tenant_id: r.tenant_id,
      labels: n(r.labels),
      packages: n(r.packages),
      cost: n(r.cost),
      returns: n(r.returns),
      return_cost: n(r.return_cost),
      voided: n(r.voided),
      voided_cost: n(r.voided_cost),
    })),
    reprints.rows.map((r) => ({ day: r.day, n: n(r.n) })),
    brandName,
  );
  for (const d of days) d.stations = [];
  for (const r of byStation.rows)
    days
      .find((d) => d.day === r.day)
      ?.stations?.push({
        stationId: r.station_id,
        name: r.name,
        labels: n(r.labels),
        packages: n(r.packages),
        costCents: n(r.cost),
      });
  return days;
}

/**
 * The whole site's outbound labels of those days, per tenant and carrier: what a site's manifest
 * closes out (voided and return labels left off, as a station's own close-out does).
 */
export async function siteManifestGroups(
  pool: pg.Pool,
  scope: SiteScope,
  query: EndOfDayQuery,
  tenantIds: readonly string[],
): Promise<ManifestGroup[]> {
  const { fromUtc, toUtc } = utcRange(query);
  const { rows } = await pool.query<{
    tenant_id: string;
    carrier: string;
    platform_label_id: string;
    tracking_number: string;
    order_number: string;
    held: boolean;
  }>(
    // A label of an order with an open possible double label stays off: a shift lead keeps one
    // of its two labels and voids the other, which a carrier may no longer allow once it is on
    // a manifest.
    `SELECT l.tenant_id, l.carrier, l.platform_label_id, l.tracking_number, l.order_number,
            EXISTS (SELECT 1 FROM site_attention a
                     WHERE a.profile_id = l.profile_id AND a.environment = l.environment
                       AND a.tenant_id = l.tenant_id AND a.order_number = l.order_number
                       AND a.kind = 'possible-double-label' AND a.resolved_at IS NULL) AS held
       FROM site_labels l
      WHERE l.profile_id = $1 AND l.environment = $2 AND l.created_at >= $3 AND l.created_at < $4
        AND l.voided IS NULL AND l.return_label IS NOT TRUE AND l.tenant_id = ANY($5)
      ORDER BY l.tenant_id, l.carrier, l.created_at, l.station_id, l.local_id`,
    [scope.profileId, scope.environment, fromUtc, toUtc, [...tenantIds]],
  );
  const groups: ManifestGroup[] = manifestGroupsOf(rows.filter((r) => !r.held));
  for (const g of manifestGroupsOf(rows.filter((r) => r.held))) {
    const same = groups.find((x) => x.tenantId === g.tenantId && x.carrier === g.carrier);
    if (same) same.heldBack = g.labels;
    else groups.push({ tenantId: g.tenantId, carrier: g.carrier, labels: [], heldBack: g.labels });
  }
  return groups;
}
