import { inTransaction, type Db } from '../storage/database.js';
import type { Clock, StationScope } from '../storage/scope.js';
import { systemClock } from '../storage/scope.js';
import { LabelQueries } from './label-query.js';
import { hydrateRow, summarizeRow, WITH_ZPL, type LabelRow } from './label-rows.js';
import type { LabelPage, LabelSearch, LabelSummaryPage, NewLabel, StoredLabel } from './types.js';

/**
 * The label cache: a bought label stored with its packages and ZPL, looked up by id, purchase,
 * order or tracking number, and its ZPL dropped by retention (and put back for a reprint).
 * Searches and counts are `LabelQueries` (label-query.ts); rows become labels in label-rows.ts.
 */
export class LabelRepository {
  private readonly s;
  private readonly queries;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.queries = new LabelQueries(db);
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
      orderNumbersOf: db.prepare<
        [string, string, string],
        { tracking_number: string; order_number: string }
      >(
        `SELECT p.tracking_number, l.order_number FROM label_packages p JOIN labels l ON l.id = p.label_id
          WHERE p.tracking_number IN (SELECT value FROM json_each(?))
            AND l.profile_id = ? AND l.environment = ?`,
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
      newestId: db.prepare<[], { id: number | null }>(`SELECT max(id) AS id FROM labels`),
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
    return row ? hydrateRow(row) : undefined;
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
    return row ? hydrateRow(row) : undefined;
  }

  /** Labels bought for one order, newest first. */
  forOrder(orderId: number): StoredLabel[] {
    return this.s.byOrder.all(orderId).map((r) => hydrateRow(r));
  }

  /** The label carrying this tracking number (any of its packages), in this profile only. */
  findByTracking(scope: StationScope, trackingNumber: string): StoredLabel | undefined {
    const row = this.s.byTracking.get(trackingNumber, scope.profileId, scope.environment);
    return row ? hydrateRow(row) : undefined;
  }

  /**
   * The order number of each of these tracking numbers (any package) that is one of this
   * station's labels, in this profile: one query for a page of the tracking board.
   */
  orderNumbersOf(scope: StationScope, trackingNumbers: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    if (trackingNumbers.length === 0) return out;
    for (const r of this.s.orderNumbersOf.all(
      JSON.stringify(trackingNumbers),
      scope.profileId,
      scope.environment,
    ))
      out.set(r.tracking_number, r.order_number);
    return out;
  }

  /**
   * Labels newest first, without their ZPL: what a history list needs. One query per page
   * (tracking numbers of every package included); the ZPL is fetched with `get` for a preview
   * or a reprint.
   */
  searchSummaries(scope: StationScope, query: LabelSearch = {}): LabelSummaryPage {
    const { rows, nextCursor } = this.queries.rows(scope, query);
    return { labels: rows.map((r) => summarizeRow(r)), nextCursor };
  }

  /**
   * Like `searchSummaries`, with each label's ZPL (one more query for the whole page). Prefer
   * `searchSummaries` for lists: a page of 50 labels carries about 150 KB of ZPL.
   */
  search(scope: StationScope, query: LabelSearch = {}): LabelPage {
    const { rows, nextCursor } = this.queries.rows(scope, query);
    const zpl = new Map(
      this.s.zplOf.all(JSON.stringify(rows.map((r) => r.id))).map((z) => [z.label_id, z.zpl]),
    );
    return {
      labels: rows.map((r) => hydrateRow({ ...r, zpl: zpl.get(r.id) ?? null })),
      nextCursor,
    };
  }

  /** How many labels match the filters of `query` (its cursor, offset and limit aside). */
  count(scope: StationScope, query: LabelSearch = {}): number {
    return this.queries.count(scope, query);
  }

  /** The first id of the station's newest `size` labels (of every profile): a search's window. */
  newestWindowStart(size: number): number {
    const newest = this.s.newestId.get()?.id ?? 0;
    return Math.max(0, newest - size + 1);
  }

  /** `count`, counting no further than `max`. */
  countUpTo(scope: StationScope, query: LabelSearch, max: number): number {
    return this.queries.countUpTo(scope, query, max);
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
}
