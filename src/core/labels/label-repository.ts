import type { Statement } from 'better-sqlite3';
import { inTransaction, type Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import type {
  LabelPage,
  LabelSearch,
  LabelSummary,
  LabelSummaryPage,
  NewLabel,
  StoredLabel,
} from './types.js';

/** A labels row with its package tracking numbers (a JSON array) and, when asked, its ZPL. */
interface LabelRow {
  id: number;
  purchase_id: string;
  platform_label_id: string;
  profile_id: string;
  environment: string;
  tenant_id: string;
  order_id: number;
  order_number: string;
  order_reference: string;
  tracking_number: string;
  tracker_id: string | null;
  carrier: string;
  service_level: string;
  carrier_account_id: string;
  cost_cents: number;
  currency: string;
  packages: string;
  zpl?: string | null;
  zpl_dropped_at: string | null;
  label_url: string | null;
  created_at: string;
  stored_at: string;
  return_of_label_id: number | null;
}

const MAX_PAGE = 500;
/** Beyond this many labels skipped, a brand/date page is found through the per-day counts. */
const DEEP_OFFSET = 2000;

/** The label columns plus every package's tracking number, in one row (no query per label). */
const LABEL_COLUMNS = `l.*, (SELECT json_group_array(tracking_number ORDER BY package_index)
  FROM label_packages WHERE label_id = l.id) AS packages`;
/** A single label with its ZPL (null when retention dropped it). */
const WITH_ZPL = `SELECT ${LABEL_COLUMNS}, z.zpl FROM labels l LEFT JOIN label_zpl z ON z.label_id = l.id`;

/**
 * The label cache. Searches are keyset-paged on (created_at, id), newest first, and each
 * filter has an index that starts with profile + environment, so a lookup stays in the
 * milliseconds at a million labels.
 */
export class LabelRepository {
  private readonly s;
  /** Search statements, prepared once per combination of filters. */
  private readonly searches = new Map<string, Statement<unknown[], LabelRow>>();
  private readonly counts = new Map<string, Statement<unknown[], { n: number }>>();
  private readonly days = new Map<string, Statement<unknown[], unknown>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.s = {
      insert: db.prepare(
        `INSERT INTO labels (purchase_id, platform_label_id, profile_id, environment, tenant_id, order_id,
           order_number, order_reference, tracking_number, tracker_id, carrier, service_level,
           carrier_account_id, cost_cents, currency, label_url, created_at, stored_at, return_of_label_id)
         VALUES (@purchaseId, @platformLabelId, @profileId, @environment, @tenantId, @orderId,
           @orderNumber, @orderReference, @trackingNumber, @trackerId, @carrier, @serviceLevel,
           @carrierAccountId, @costCents, @currency, @labelUrl, @createdAt, @storedAt, @returnOfLabelId)`,
      ),
      insertZpl: db.prepare<[number, string]>(
        `INSERT INTO label_zpl (label_id, zpl) VALUES (?, ?)
         ON CONFLICT (label_id) DO UPDATE SET zpl = excluded.zpl`,
      ),
      insertPackage: db.prepare<[number, number, string]>(
        `INSERT INTO label_packages (label_id, package_index, tracking_number) VALUES (?, ?, ?)`,
      ),
      byId: db.prepare<[number], LabelRow>(`${WITH_ZPL} WHERE l.id = ?`),
      byPurchase: db.prepare<[string], LabelRow>(`${WITH_ZPL} WHERE l.purchase_id = ?`),
      byOrder: db.prepare<[number], LabelRow>(
        `${WITH_ZPL} WHERE l.order_id = ? ORDER BY l.created_at DESC, l.id DESC`,
      ),
      byTracking: db.prepare<[string, string, string], LabelRow>(
        `${WITH_ZPL} WHERE l.id = (SELECT p.label_id FROM label_packages p JOIN labels x ON x.id = p.label_id
           WHERE p.tracking_number = ? AND x.profile_id = ? AND x.environment = ?
           ORDER BY p.label_id DESC LIMIT 1)`,
      ),
      zplOf: db.prepare<[string], { label_id: number; zpl: string }>(
        `SELECT label_id, zpl FROM label_zpl WHERE label_id IN (SELECT value FROM json_each(?))`,
      ),
      dropZpl: db.prepare<[string, string, string, string]>(
        `UPDATE labels SET zpl_dropped_at = ?
         WHERE profile_id = ? AND environment = ? AND created_at < ? AND zpl_dropped_at IS NULL
         RETURNING id`,
      ),
      deleteZpl: db.prepare<[number]>(`DELETE FROM label_zpl WHERE label_id = ?`),
      returnsOf: db.prepare<
        [string],
        { return_of_label_id: number; id: number; tracking_number: string }
      >(
        `SELECT return_of_label_id, id, tracking_number FROM labels
         WHERE return_of_label_id IN (SELECT value FROM json_each(?)) ORDER BY id`,
      ),
      markZplBack: db.prepare<[number]>(`UPDATE labels SET zpl_dropped_at = NULL WHERE id = ?`),
    };
  }

  /**
   * Called inside the purchase transaction; returns the label as `get` would read it back (the
   * purchase hands it straight to the printer: no read of what was just written).
   */
  insert(scope: StationScope, label: NewLabel): StoredLabel {
    const storedAt = this.clock().toISOString();
    const returnOfLabelId = label.returnOfLabelId ?? null;
    const id = Number(
      this.s.insert.run({
        ...label,
        returnOfLabelId,
        profileId: scope.profileId,
        environment: scope.environment,
        storedAt,
      }).lastInsertRowid,
    );
    const numbers =
      label.packageTrackingNumbers.length > 0
        ? label.packageTrackingNumbers
        : [label.trackingNumber];
    numbers.forEach((tracking, index) => this.s.insertPackage.run(id, index, tracking));
    this.s.insertZpl.run(id, label.zpl);
    return {
      id,
      purchaseId: label.purchaseId,
      platformLabelId: label.platformLabelId,
      profileId: scope.profileId,
      environment: scope.environment,
      tenantId: label.tenantId,
      orderId: label.orderId,
      orderNumber: label.orderNumber,
      orderReference: label.orderReference,
      trackingNumber: label.trackingNumber,
      packageTrackingNumbers: [...numbers],
      trackerId: label.trackerId,
      carrier: label.carrier,
      serviceLevel: label.serviceLevel,
      carrierAccountId: label.carrierAccountId,
      costCents: label.costCents,
      currency: label.currency,
      zplDroppedAt: null,
      labelUrl: label.labelUrl,
      createdAt: label.createdAt,
      storedAt,
      returnOfLabelId,
      zpl: label.zpl,
    };
  }

  get(id: number): StoredLabel | undefined {
    const row = this.s.byId.get(id);
    return row ? this.hydrate(row) : undefined;
  }

  /** The return labels bought for each of these labels (one query for a whole page). */
  returnsOf(labelIds: readonly number[]): Map<number, { id: number; trackingNumber: string }[]> {
    const out = new Map<number, { id: number; trackingNumber: string }[]>();
    for (const r of this.s.returnsOf.all(JSON.stringify(labelIds))) {
      const list = out.get(r.return_of_label_id) ?? [];
      list.push({ id: r.id, trackingNumber: r.tracking_number });
      out.set(r.return_of_label_id, list);
    }
    return out;
  }

  getByPurchase(purchaseId: string): StoredLabel | undefined {
    const row = this.s.byPurchase.get(purchaseId);
    return row ? this.hydrate(row) : undefined;
  }

  /** Labels bought for one order, newest first. */
  forOrder(orderId: number): StoredLabel[] {
    return this.s.byOrder.all(orderId).map((r) => this.hydrate(r));
  }

  /** The label carrying this tracking number (any of its packages), in this profile only. */
  findByTracking(scope: StationScope, trackingNumber: string): StoredLabel | undefined {
    const row = this.s.byTracking.get(trackingNumber, scope.profileId, scope.environment);
    return row ? this.hydrate(row) : undefined;
  }

  /**
   * Labels newest first, without their ZPL: what a history list needs. One query per page
   * (tracking numbers of every package included); the ZPL is fetched with `get` for a preview
   * or a reprint.
   */
  searchSummaries(scope: StationScope, query: LabelSearch = {}): LabelSummaryPage {
    const { rows, nextCursor } = this.searchRows(scope, query);
    return { labels: rows.map((r) => this.summarize(r)), nextCursor };
  }

  /**
   * Like `searchSummaries`, with each label's ZPL (one more query for the whole page). Prefer
   * `searchSummaries` for lists: a page of 50 labels carries about 150 KB of ZPL.
   */
  search(scope: StationScope, query: LabelSearch = {}): LabelPage {
    const { rows, nextCursor } = this.searchRows(scope, query);
    const zpl = new Map(
      this.s.zplOf.all(JSON.stringify(rows.map((r) => r.id))).map((z) => [z.label_id, z.zpl]),
    );
    return {
      labels: rows.map((r) => this.hydrate({ ...r, zpl: zpl.get(r.id) ?? null })),
      nextCursor,
    };
  }

  /** How many labels match the filters of `query` (its cursor, offset and limit aside). */
  count(scope: StationScope, query: LabelSearch = {}): number {
    // By brand and date only (what History opens on): from the per-day counts (migration 008),
    // not by walking millions of index entries.
    if (!query.orderNumber && !query.trackingNumber) return this.countByDays(scope, query);
    return this.countRows(scope, query);
  }

  private countRows(scope: StationScope, query: LabelSearch): number {
    const { where, params } = this.filters(scope, query);
    const sql = `SELECT count(*) AS n FROM labels l WHERE ${where.join(' AND ')}`;
    let statement = this.counts.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], { n: number }>(sql);
      this.counts.set(sql, statement);
    }
    return statement.get(...params)?.n ?? 0;
  }

  /**
   * The labels of a brand (or all) in [from, to): the days' counts of every day touched, less
   * the labels of the first day before `from` and of the last day from `to` on (each counted in
   * the index, one day at most). Exact, as created_at and the day compare as text.
   */
  private countByDays(scope: StationScope, query: LabelSearch): number {
    const { from, to, tenantId } = query;
    if (from && to && from >= to) return 0;
    let n = this.dayTotal(scope, {
      tenantId,
      fromDay: from?.slice(0, 10),
      toDay: to?.slice(0, 10),
    });
    if (from) n -= this.countRows(scope, { tenantId, from: from.slice(0, 10), to: from });
    if (to) n -= this.countRows(scope, { tenantId, from: to, to: nextDay(to.slice(0, 10)) });
    return n;
  }

  /** The labels of the days from fromDay to toDay (all brands unless one is given). */
  private dayTotal(scope: StationScope, r: DayRange): number {
    const { statement, params } = this.dayStatement(scope, r, 'SELECT coalesce(sum(n), 0)', '');
    return statement.get(...params) as number;
  }

  /** The per-day counts (all brands summed unless one is given), newest day first. */
  private dayCounts(
    scope: StationScope,
    r: DayRange,
  ): IterableIterator<{ day: string; n: number }> {
    const { statement, params } = this.dayStatement(
      scope,
      r,
      'SELECT day, sum(n) AS n',
      'GROUP BY day HAVING sum(n) > 0 ORDER BY day DESC',
    );
    return statement.iterate(...params) as IterableIterator<{ day: string; n: number }>;
  }

  private dayStatement(scope: StationScope, r: DayRange, select: string, rest: string) {
    const where = ['profile_id = ?', 'environment = ?'];
    const params: unknown[] = [scope.profileId, scope.environment];
    const add = (condition: string, value: string | undefined) => {
      if (!value) return;
      where.push(condition);
      params.push(value);
    };
    add('tenant_id = ?', r.tenantId);
    add('day >= ?', r.fromDay);
    add('day <= ?', r.toDay);
    const sql = `${select} FROM label_day_counts WHERE ${where.join(' AND ')} ${rest}`;
    let statement = this.days.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      if (!rest) statement.pluck();
      this.days.set(sql, statement);
    }
    return { statement, params };
  }

  /**
   * A page far down a brand/date list (offset > DEEP_OFFSET): the per-day counts find the day
   * the page starts in, and the query starts at the end of that day with the offset left
   * within it, so the cost is that of one day's labels, not of every label skipped.
   */
  private seekDeep(
    scope: StationScope,
    query: LabelSearch,
    offset: number,
  ): { to: string | undefined; offset: number } {
    const { from, to, tenantId } = query;
    let skipped = 0;
    let end = to;
    const toDay = to?.slice(0, 10);
    // The newest day touched may end before `to`'s day does: only its labels before `to`
    // (counted first: no other statement may run while the days are being read).
    const afterTo = to ? this.countRows(scope, { tenantId, from: to, to: nextDay(toDay!) }) : 0;
    for (const d of this.dayCounts(scope, { tenantId, fromDay: from?.slice(0, 10), toDay })) {
      const inDay = d.day === toDay ? d.n - afterTo : d.n;
      if (skipped + inDay > offset) break;
      skipped += inDay;
      end = d.day;
    }
    return { to: end, offset: offset - skipped };
  }

  private filters(scope: StationScope, query: LabelSearch): { where: string[]; params: unknown[] } {
    // By tracking number, the few labels with it are looked up through label_packages: the
    // unary + keeps SQLite from walking every label of the profile in labels_by_date instead
    // (it did, testing each against the tracking number: seconds at 10,000,000 labels).
    const scoped = query.trackingNumber ? '+l.' : 'l.';
    const where = [`${scoped}profile_id = ?`, `${scoped}environment = ?`];
    const params: unknown[] = [scope.profileId, scope.environment];
    const filters: [string, string | undefined][] = [
      [
        'l.id IN (SELECT label_id FROM label_packages WHERE tracking_number = ?)',
        query.trackingNumber,
      ],
      ['l.order_number = ?', query.orderNumber],
      ['l.tenant_id = ?', query.tenantId],
      ['l.created_at >= ?', query.from],
      ['l.created_at < ?', query.to],
    ];
    for (const [condition, value] of filters) {
      if (!value) continue;
      where.push(condition);
      params.push(value);
    }
    return { where, params };
  }

  private searchRows(
    scope: StationScope,
    query: LabelSearch,
  ): { rows: LabelRow[]; nextCursor: string | null } {
    const limit = Math.min(Math.max(1, Math.floor(query.limit ?? 50)), MAX_PAGE);
    const { where, params } = this.filters(scope, query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (cursor) {
      where.push('(l.created_at, l.id) < (?, ?)');
      params.push(cursor.createdAt, cursor.id);
    }
    let offset = cursor ? 0 : Math.max(0, Math.floor(query.offset ?? 0));
    if (offset > DEEP_OFFSET && !query.orderNumber && !query.trackingNumber) {
      const seek = this.seekDeep(scope, query, offset);
      if (seek.to !== query.to) {
        const { where: w, params: p } = this.filters(scope, { ...query, to: seek.to });
        where.splice(0, where.length, ...w);
        params.splice(0, params.length, ...p);
        offset = seek.offset;
      }
    }
    const sql = `SELECT ${LABEL_COLUMNS} FROM labels l WHERE ${where.join(' AND ')}
      ORDER BY l.created_at DESC, l.id DESC LIMIT ? OFFSET ?`;
    let statement = this.searches.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], LabelRow>(sql);
      this.searches.set(sql, statement);
    }
    const rows = statement.all(...params, limit + 1, offset);
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rows: page,
      nextCursor: more && last ? encodeCursor(last.created_at, last.id) : null,
    };
  }

  /**
   * Retention: drops the ZPL of labels created before `before`, keeping every other field.
   * Returns how many labels lost their ZPL.
   */
  dropZplBefore(scope: StationScope, before: string): number {
    return inTransaction(this.db, () => {
      const dropped = this.s.dropZpl.all(
        this.clock().toISOString(),
        scope.profileId,
        scope.environment,
        before,
      ) as { id: number }[];
      for (const { id } of dropped) this.s.deleteZpl.run(id);
      return dropped.length;
    });
  }

  /** Puts back ZPL fetched again from the platform (a reprint of a label past retention). */
  restoreZpl(id: number, zpl: string): void {
    inTransaction(this.db, () => {
      this.s.insertZpl.run(id, zpl);
      this.s.markZplBack.run(id);
    });
  }

  private hydrate(row: LabelRow): StoredLabel {
    const { zplAvailable: _, ...label } = this.summarize(row);
    return { ...label, zpl: row.zpl ?? null };
  }

  private summarize(row: LabelRow): LabelSummary {
    return {
      id: row.id,
      purchaseId: row.purchase_id,
      platformLabelId: row.platform_label_id,
      profileId: row.profile_id,
      environment: row.environment,
      tenantId: row.tenant_id,
      orderId: row.order_id,
      orderNumber: row.order_number,
      orderReference: row.order_reference,
      trackingNumber: row.tracking_number,
      packageTrackingNumbers: JSON.parse(row.packages) as string[],
      trackerId: row.tracker_id,
      carrier: row.carrier,
      serviceLevel: row.service_level,
      carrierAccountId: row.carrier_account_id,
      costCents: row.cost_cents,
      currency: row.currency,
      zplAvailable: row.zpl_dropped_at === null,
      zplDroppedAt: row.zpl_dropped_at,
      labelUrl: row.label_url,
      createdAt: row.created_at,
      storedAt: row.stored_at,
      returnOfLabelId: row.return_of_label_id,
    };
  }
}

interface DayRange {
  tenantId?: string | undefined;
  fromDay?: string | undefined;
  toDay?: string | undefined;
}

/** The day after `day` (YYYY-MM-DD), as text. */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

function encodeCursor(createdAt: string, id: number): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: number } | undefined {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'number') return { createdAt, id };
  } catch {
    // A cursor that is not ours: start from the first page.
  }
  return undefined;
}
