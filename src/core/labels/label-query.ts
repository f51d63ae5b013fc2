import type { Statement } from 'better-sqlite3';
import type { Db } from '../storage/database.js';
import type { StationScope } from '../storage/scope.js';
import { LABEL_COLUMNS, type LabelRow } from './label-rows.js';
import type { LabelSearch } from './types.js';

const MAX_PAGE = 500;
/** Beyond this many labels skipped, a brand/date page is found through the per-day counts. */
const DEEP_OFFSET = 2000;

/**
 * The label cache's searches and counts (History, a reprint search): keyset-paged on
 * (created_at, id), newest first, each filter on an index that starts with profile +
 * environment; totals by brand and date from the per-day counts (migration 008), and pages far
 * down a list found through them. Statements are prepared once per combination of filters.
 */
export class LabelQueries {
  private readonly searches = new Map<string, Statement<unknown[], LabelRow>>();
  private readonly counts = new Map<string, Statement<unknown[], { n: number }>>();
  private readonly days = new Map<string, Statement<unknown[], unknown>>();

  constructor(private readonly db: Db) {}

  /** How many labels match the filters of `query` (its cursor, offset and limit aside). */
  count(scope: StationScope, query: LabelSearch = {}): number {
    // By brand and date only (what History opens on): from the per-day counts (migration 008),
    // not by walking millions of index entries.
    if (
      !query.orderNumber &&
      !query.trackingNumber &&
      !query.orderNumberPrefix &&
      !query.numberPart
    )
      return this.countByDays(scope, query);
    return this.countRows(scope, query);
  }

  /**
   * How many labels match, counting no further than `max` (a prefix such as "LUM" may match
   * millions: walking them all to say so would hold the station).
   */
  countUpTo(scope: StationScope, query: LabelSearch, max: number): number {
    const { where, params } = this.filters(scope, query);
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM labels l WHERE ${where.join(' AND ')} LIMIT ?)`;
    let statement = this.counts.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], { n: number }>(sql);
      this.counts.set(sql, statement);
    }
    return statement.get(...params, max)?.n ?? 0;
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
    // A part of a number: the window of newest labels is a rowid range (the + again keeps
    // SQLite from walking the profile's index instead).
    const scoped = query.trackingNumber || query.numberPart ? '+l.' : 'l.';
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
    if (query.orderNumberPrefix) {
      // A range of labels_by_order, not a LIKE (which would read every label of the profile).
      where.push('l.order_number >= ? AND l.order_number < ?');
      params.push(query.orderNumberPrefix, `${query.orderNumberPrefix}\uffff`);
    }
    if (query.numberPart) {
      where.push(
        'l.id >= ?',
        '(instr(upper(l.order_number), ?) > 0 OR instr(upper(l.tracking_number), ?) > 0)',
      );
      params.push(query.numberPart.fromId, query.numberPart.text, query.numberPart.text);
    }
    return { where, params };
  }

  /** One page of rows, newest first, and the cursor of the next (null on the last page). */
  rows(scope: StationScope, query: LabelSearch): { rows: LabelRow[]; nextCursor: string | null } {
    const limit = Math.min(Math.max(1, Math.floor(query.limit ?? 50)), MAX_PAGE);
    const { where, params } = this.filters(scope, query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    if (cursor) {
      where.push('(l.created_at, l.id) < (?, ?)');
      params.push(cursor.createdAt, cursor.id);
    }
    let offset = cursor ? 0 : Math.max(0, Math.floor(query.offset ?? 0));
    if (
      offset > DEEP_OFFSET &&
      !query.orderNumber &&
      !query.trackingNumber &&
      !query.orderNumberPrefix &&
      !query.numberPart
    ) {
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
