import { stripControlCharacters } from '../orders/control-characters.js';
import { receiptLayout, type SlipFormat } from '../printing/packing-slip.js';
import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';

/**
 * End of day (issue 15.9): what the station shipped, per day and per carrier: labels,
 * packages, cost, and the brands they were for. Days are the station's local days: the caller
 * gives its offset from UTC (minutes east, e.g. -300 for New York in winter).
 */
export interface CarrierDay {
  carrier: string;
  labels: number;
  packages: number;
  costCents: number;
  brands: {
    tenantId: string;
    name: string;
    labels: number;
    costCents: number;
    packages: number;
    /** Of `labels`: return labels, and their cost. */
    returns: number;
    returnCostCents: number;
    /** Labels marked voided at the carrier: not in `labels` or the cost. */
    voided: number;
    voidedCostCents: number;
  }[];
}

export interface DaySummary {
  /** YYYY-MM-DD, the station's local day. */
  day: string;
  carriers: CarrierDay[];
  labels: number;
  packages: number;
  costCents: number;
  /** Of `labels`: return labels (from the customer back to the site), and their cost. */
  returns: number;
  returnCostCents: number;
  /** Labels reprinted that day (of any day's labels; a whole two-package label is 2), at no cost. */
  reprints: number;
  /** Labels of that day marked voided at the carrier (migration 21): not counted above. */
  voided: number;
  voidedCostCents: number;
  /** The whole site's End of day: each station's part of the day (voided labels left out). */
  stations?: StationDay[];
}

/** One station's labels of a day, in the whole site's End of day. */
export interface StationDay {
  stationId: string;
  name: string;
  labels: number;
  packages: number;
  costCents: number;
}

/** One day, carrier and brand of labels, as both the station's and the site's reads give it. */
export interface CarrierBrandDayRow {
  day: string;
  carrier: string;
  tenant_id: string;
  labels: number;
  packages: number;
  cost: number;
  returns: number;
  return_cost: number;
  voided: number;
  voided_cost: number;
}

export interface EndOfDayQuery {
  from: string;
  to: string;
  /** Minutes to add to UTC for the station's local time (JS: -new Date().getTimezoneOffset()). */
  utcOffsetMinutes?: number | undefined;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function endOfDay(
  db: Db,
  scope: StationScope,
  query: EndOfDayQuery,
  brandName: (tenantId: string) => string,
): DaySummary[] {
  const { fromUtc, toUtc, shift } = utcRange(query);
  const rows = db
    .prepare<
      { profileId: string; environment: string; fromUtc: string; toUtc: string; shift: string },
      CarrierBrandDayRow
    >(
      `SELECT date(l.created_at, @shift) AS day, l.carrier, l.tenant_id,
              sum(v.label_id IS NULL) AS labels,
              sum(CASE WHEN v.label_id IS NULL THEN
                (SELECT max(1, count(*)) FROM label_packages p WHERE p.label_id = l.id) ELSE 0 END) AS packages,
              sum(CASE WHEN v.label_id IS NULL THEN l.cost_cents ELSE 0 END) AS cost,
              sum(l.return_of_label_id IS NOT NULL AND v.label_id IS NULL) AS returns,
              sum(CASE WHEN l.return_of_label_id IS NOT NULL AND v.label_id IS NULL
                THEN l.cost_cents ELSE 0 END) AS return_cost,
              -- Voided at the carrier (migration 21): said apart, not counted or charged.
              count(v.label_id) AS voided,
              sum(CASE WHEN v.label_id IS NOT NULL THEN l.cost_cents ELSE 0 END) AS voided_cost
       FROM labels l LEFT JOIN label_voids v ON v.label_id = l.id
       WHERE l.profile_id = @profileId AND l.environment = @environment
         AND l.created_at >= @fromUtc AND l.created_at < @toUtc
       GROUP BY day, l.carrier, l.tenant_id
       ORDER BY day, l.carrier, l.tenant_id`,
    )
    .all({ ...scope, fromUtc, toUtc, shift });
  // Reprints by the day they were made (reprints_by_time, migration 18), as labels printed: a
  // whole multi-package label's reprint prints each of its packages (label_packages), a reprint
  // of one package (its reason says "(package 2 of 3, …)", LabelReprints) one.
  const reprints = db
    .prepare<
      { profileId: string; environment: string; fromUtc: string; toUtc: string; shift: string },
      { day: string; n: number }
    >(
      `SELECT date(r.created_at, @shift) AS day,
              sum(CASE WHEN r.reason GLOB '*(package [0-9]* of [0-9]*' THEN 1
                       ELSE max(1, (SELECT count(*) FROM label_packages p WHERE p.label_id = r.label_id))
                  END) AS n
         FROM reprints r
        WHERE r.profile_id = @profileId AND r.environment = @environment
          AND r.created_at >= @fromUtc AND r.created_at < @toUtc
        GROUP BY day
        UNION ALL
       -- Another station's labels reprinted here (site History, Pack): printed here too, one
       -- each (their packages are the other station's to know).
       SELECT date(a.created_at, @shift) AS day, count(*) AS n
         FROM site_reprint_audit a
        WHERE a.profile_id = @profileId AND a.environment = @environment
          AND a.created_at >= @fromUtc AND a.created_at < @toUtc
        GROUP BY day`,
    )
    .all({ ...scope, fromUtc, toUtc, shift });
  return daySummaries(rows, reprints, brandName);
}

/**
 * The days of labels grouped by day, carrier and brand (`rows`, in that order) and reprints by
 * day: what the station's End of day and the whole site's show, print and export.
 */
export function daySummaries(
  rows: readonly CarrierBrandDayRow[],
  reprints: readonly { day: string; n: number }[],
  brandName: (tenantId: string) => string,
): DaySummary[] {
  const days = new Map<string, DaySummary>();
  const dayOf = (name: string): DaySummary => {
    let day = days.get(name);
    if (!day) {
      day = {
        day: name,
        carriers: [],
        labels: 0,
        packages: 0,
        costCents: 0,
        returns: 0,
        returnCostCents: 0,
        reprints: 0,
        voided: 0,
        voidedCostCents: 0,
      };
      days.set(name, day);
    }
    return day;
  };
  for (const r of rows) {
    const day = dayOf(r.day);
    let carrier = day.carriers.find((c) => c.carrier === r.carrier);
    if (!carrier) {
      carrier = { carrier: r.carrier, labels: 0, packages: 0, costCents: 0, brands: [] };
      day.carriers.push(carrier);
    }
    carrier.labels += r.labels;
    carrier.packages += r.packages;
    carrier.costCents += r.cost;
    carrier.brands.push({
      tenantId: r.tenant_id,
      name: brandName(r.tenant_id),
      labels: r.labels,
      costCents: r.cost,
      packages: r.packages,
      returns: r.returns,
      returnCostCents: r.return_cost,
      voided: r.voided,
      voidedCostCents: r.voided_cost,
    });
    day.labels += r.labels;
    day.packages += r.packages;
    day.costCents += r.cost;
    day.returns += r.returns;
    day.returnCostCents += r.return_cost;
    day.voided += r.voided;
    day.voidedCostCents += r.voided_cost;
  }
  for (const r of reprints) dayOf(r.day).reprints += r.n;
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}

/** The range in UTC of local days `from`..`to` (local midnight to the midnight after `to`). */
export function utcRange(query: EndOfDayQuery): { fromUtc: string; toUtc: string; shift: string } {
  if (!DAY.test(query.from) || !DAY.test(query.to))
    throw new RangeError('from and to must be days (YYYY-MM-DD)');
  const offset = Math.trunc(query.utcOffsetMinutes ?? 0);
  if (Math.abs(offset) > 14 * 60) throw new RangeError('utcOffsetMinutes must be within ±14 hours');
  return {
    fromUtc: new Date(Date.parse(`${query.from}T00:00:00Z`) - offset * 60_000).toISOString(),
    toUtc: new Date(
      Date.parse(`${query.to}T00:00:00Z`) + 86_400_000 - offset * 60_000,
    ).toISOString(),
    shift: `${offset >= 0 ? '+' : '-'}${Math.abs(offset)} minutes`,
  };
}

/** One label a manifest closes out: the platform's id, and what a person looks it up by. */
export interface ManifestLabel {
  labelId: string;
  trackingNumber: string;
  orderNumber: string;
}

/** One brand and carrier's labels of a close-out. */
export interface ManifestGroup {
  tenantId: string;
  carrier: string;
  labels: ManifestLabel[];
  /** Labels kept off (the site's: of orders with an open possible double label). */
  heldBack?: ManifestLabel[];
}

/** The outbound labels of those days, per tenant and carrier: what a manifest closes out. */
export function manifestGroups(db: Db, scope: StationScope, query: EndOfDayQuery): ManifestGroup[] {
  const { fromUtc, toUtc } = utcRange(query);
  const rows = db
    .prepare<
      { profileId: string; environment: string; fromUtc: string; toUtc: string },
      {
        tenant_id: string;
        carrier: string;
        platform_label_id: string;
        tracking_number: string;
        order_number: string;
      }
    >(
      `SELECT tenant_id, carrier, platform_label_id, tracking_number, order_number FROM labels
       WHERE profile_id = @profileId AND environment = @environment
         AND created_at >= @fromUtc AND created_at < @toUtc
         -- A return label travels with the customer's parcel, not from this dock: not on the
         -- dock's manifest, which the driver scans against the parcels handed over.
         AND return_of_label_id IS NULL
         -- Voided at the carrier: no parcel travels on it.
         AND NOT EXISTS (SELECT 1 FROM label_voids v WHERE v.label_id = labels.id)
       ORDER BY tenant_id, carrier, id`,
    )
    .all({ ...scope, fromUtc, toUtc });
  return manifestGroupsOf(rows);
}

/** One manifest group per tenant and carrier of `rows` (in their order), as a manifest is sent. */
export function manifestGroupsOf(
  rows: readonly {
    tenant_id: string;
    carrier: string;
    platform_label_id: string;
    tracking_number: string;
    order_number: string;
  }[],
): ManifestGroup[] {
  const groups = new Map<string, ManifestGroup>();
  for (const r of rows) {
    const key = `${r.tenant_id}\u0000${r.carrier}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { tenantId: r.tenant_id, carrier: r.carrier, labels: [] }));
    g.labels.push({
      labelId: r.platform_label_id,
      trackingNumber: r.tracking_number,
      orderNumber: r.order_number,
    });
  }
  return [...groups.values()];
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** One CSV line per day, carrier and brand (RFC 4180, a header row), for a spreadsheet. */
export function endOfDayCsv(days: readonly DaySummary[]): string {
  const cell = (v: string | number) => {
    const s = String(v);
    // A leading =, +, - or @ would be a formula in a spreadsheet.
    const safe = /^[=+\-@]/.test(s) && typeof v === 'string' ? `'${s}` : s;
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  // The first six columns as they always were (a spreadsheet built on them keeps working);
  // packages and the return labels (counted in labels and cost) after them, as the view shows;
  // then the labels voided at the carrier (not counted in labels and cost).
  const lines = [
    [
      'day',
      'carrier',
      'brand',
      'tenant_id',
      'labels',
      'cost_usd',
      'packages',
      'return_labels',
      'return_cost_usd',
      'voided_labels',
      'voided_cost_usd',
    ],
  ];
  for (const d of days)
    for (const c of d.carriers)
      for (const b of c.brands)
        lines.push([
          d.day,
          c.carrier,
          b.name,
          b.tenantId,
          String(b.labels),
          dollars(b.costCents),
          String(b.packages),
          String(b.returns),
          dollars(b.returnCostCents),
          String(b.voided),
          dollars(b.voidedCostCents),
        ]);
  return lines.map((l) => l.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** The summary as ESC/POS bytes for the receipt printer (through the spool, kind 'slip'). */
export function renderEndOfDay(
  days: readonly DaySummary[],
  header: {
    station: string;
    printedAt: Date;
    /** The station's offset from UTC (minutes east), as its days are counted: said in its time. */
    utcOffsetMinutes?: number | undefined;
  },
  format: SlipFormat = {},
): Buffer {
  const t = stripControlCharacters;
  const printer = receiptLayout(format, 'end-of-day receipts');
  printer.alignCenter();
  printer.setTextDoubleHeight();
  printer.println('END OF DAY');
  printer.setTextNormal();
  printer.println(t(header.station));
  printer.println(`Printed ${localTime(header.printedAt, header.utcOffsetMinutes ?? 0)}`);
  printer.alignLeft();
  if (days.length === 0) {
    printer.drawLine();
    printer.println('Nothing shipped on these days.');
  }
  for (const d of days) {
    printer.drawLine();
    printer.bold(true);
    printer.leftRight(
      d.day,
      `${d.labels} label${d.labels === 1 ? '' : 's'}  $${dollars(d.costCents)}`,
    );
    printer.bold(false);
    if (d.reprints) printer.leftRight('  Reprints', String(d.reprints));
    if (d.voided)
      printer.leftRight('  Voided (not counted)', `${d.voided}  $${dollars(d.voidedCostCents)}`);
    for (const c of d.carriers) {
      printer.leftRight(
        `  ${t(c.carrier)}`,
        `${c.labels} (${c.packages} pkg)  $${dollars(c.costCents)}`,
      );
      for (const b of c.brands)
        printer.leftRight(`    ${t(b.name)}`, `${b.labels}  $${dollars(b.costCents)}`);
    }
    // The whole site's: each station's part of the day.
    if (d.stations?.length) {
      printer.println('  By station');
      for (const s of d.stations)
        printer.leftRight(
          `    ${t(s.name)}`,
          `${s.labels} (${s.packages} pkg)  $${dollars(s.costCents)}`,
        );
    }
  }
  printer.drawLine();
  printer.cut();
  return printer.getBuffer();
}

/** "2026-11-28 07:40 (UTC-05:00)": a time in the station's days' zone, its offset said. */
function localTime(at: Date, offsetMinutes: number): string {
  const shifted = new Date(at.getTime() + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(Math.trunc(offsetMinutes));
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${shifted.slice(0, 16).replace('T', ' ')} (UTC${sign}${hh}:${mm})`;
}
