import type { Statement } from 'better-sqlite3';
import type { Db } from '../storage/database.js';
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

  /** Called inside the purchase transaction; returns the new label's local id. */
  insert(scope: StationScope, label: NewLabel): number {
    const id = Number(
      this.s.insert.run({
        ...label,
        returnOfLabelId: label.returnOfLabelId ?? null,
        profileId: scope.profileId,
        environment: scope.environment,
        storedAt: this.clock().toISOString(),
      }).lastInsertRowid,
    );
    const numbers =
      label.packageTrackingNumbers.length > 0
        ? label.packageTrackingNumbers
        : [label.trackingNumber];
    numbers.forEach((tracking, index) => this.s.insertPackage.run(id, index, tracking));
    this.s.insertZpl.run(id, label.zpl);
    return id;
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
    const { where, params } = this.filters(scope, query);
    const sql = `SELECT count(*) AS n FROM labels l WHERE ${where.join(' AND ')}`;
    let statement = this.counts.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], { n: number }>(sql);
      this.counts.set(sql, statement);
    }
    return statement.get(...params)?.n ?? 0;
  }

  private filters(scope: StationScope, query: LabelSearch): { where: string[]; params: unknown[] } {
    const where = ['l.profile_id = ?', 'l.environment = ?'];
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
    const offset = cursor ? 0 : Math.max(0, Math.floor(query.offset ?? 0));
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
    return this.db.transaction(() => {
      const dropped = this.s.dropZpl.all(
        this.clock().toISOString(),
        scope.profileId,
        scope.environment,
        before,
      ) as { id: number }[];
      for (const { id } of dropped) this.s.deleteZpl.run(id);
      return dropped.length;
    })();
  }

  /** Puts back ZPL fetched again from the platform (a reprint of a label past retention). */
  restoreZpl(id: number, zpl: string): void {
    this.db.transaction(() => {
      this.s.insertZpl.run(id, zpl);
      this.s.markZplBack.run(id);
    })();
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
